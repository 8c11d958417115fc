"""Raster exports, rasterized from the same PDF drawing: PNG per card and TTS deck sheets.

Each distinct face is rasterized once per resolution, in worker processes on the
available cores, and kept as PNG in the build cache under its content address: the
PNG export is those bytes, and the TTS sheets are cut from them. Sheets are assembled
a strip of cards at a time (write/png.py), each strip cached and compressed in a
worker, so no sheet is ever whole in memory. The pixel work itself is write/pixels.py,
which this process imports only when it draws something itself.
"""

from __future__ import annotations

import contextlib
import functools
import math
import multiprocessing
import os
import struct
import threading
from collections import Counter
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from spellpress.layout.deck import CardFaces
from spellpress.layout.fonts import registered as registered_fonts
from spellpress.layout.ops import FaceLayout
from spellpress.pools import close_pool, process_pool, release_free_memory
from spellpress.progress import LazyProgress
from spellpress.render.keys import face_key
from spellpress.units import MM_PER_INCH, mm_to_px
from spellpress.write.atomic import atomic_folder
from spellpress.write.cache import Cache, digest
from spellpress.write.png import Strip, png_from_strips

PNG_DPI = 300
TTS_COLS, TTS_ROWS = 10, 7
TTS_MAX_WIDTH_PX = 10_000
PARALLEL_FROM = 4  # fewer pieces of work than this are done in this process (unless a pool is running anyway)

STATS: Counter = Counter()  # faces drawn and strips compressed in this process's builds (tests read it)


# -- work done in worker processes ------------------------------------------------------
def _releasing(job: str, *arguments):
    """Run a job of write/pixels.py (named, so that this process need not import it), then give
    the memory it freed back: a worker lives for a whole command."""
    from spellpress.write import pixels

    try:
        return getattr(pixels, job)(*arguments)
    finally:
        release_free_memory()


def _import_pixels() -> None:
    import spellpress.write.pixels  # noqa: F401


# -- the pool -----------------------------------------------------------------------------
class _Here(Executor):
    """Runs work in this process (one core, a small job, or threads that a fork could not copy)."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


_SHARED: list[Executor] = []  # the pool of the command running now (shared_workers), if any


@contextlib.contextmanager
def shared_workers(workers: int | None = None):
    """One pool of worker processes for every game a command builds, forked once, early (from a
    small process: the fewer pages a fork shares, the fewer the kernel copies on write)."""
    count = workers or default_workers()
    if count <= 1 or threading.active_count() > 1 or _SHARED:
        yield
        return
    pool = process_pool(count, mp_context=multiprocessing.get_context("fork"))
    # a first job forks the workers now, and one of them imports the pixel code while this process
    # loads and lays out (one, not all: on two cores this process keeps the other)
    pool.submit(_import_pixels)
    _SHARED.append(pool)
    failed = True
    try:
        yield
        failed = False
    finally:
        _SHARED.remove(pool)
        close_pool(pool, failed=failed)


class Rasterizer:
    """Face PNGs by content: from the cache, or drawn in parallel and cached. Use as a context manager."""

    def __init__(self, cache: Cache, workers: int | None = None):
        self.cache = cache
        self.workers = workers or default_workers()
        self._pool: Executor | None = None
        self._own_pool = False
        self._drawn: dict[tuple[FaceLayout, int], bytes] = {}  # shared by the exports of one build, cache or not
        self._pending: dict[tuple[FaceLayout, int], tuple[Future, int, str]] = {}  # being drawn: (job, index, key)
        self._strips: dict[str, Strip | Future] = {}  # TTS strips read from the cache or started early, by key

    def __enter__(self) -> "Rasterizer":
        if self.workers > 1 and _SHARED:
            self._pool = _SHARED[0]
        # forking copies only the calling thread: a server with other threads draws in its own process
        elif self.workers > 1 and threading.active_count() == 1:
            self._pool, self._own_pool = process_pool(self.workers, mp_context=multiprocessing.get_context("fork")), True
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if self._pool is not None and self._own_pool:
            close_pool(self._pool, failed=kind is not None)
        elif kind is not None:
            for future in [job for job, _, _ in self._pending.values()] + list(self._strips.values()):
                if isinstance(future, Future):
                    future.cancel()
        self._pool = None
        self._drawn.clear()
        self._strips.clear()
        release_free_memory()  # this game's pictures, before the next game's

    def pool(self, jobs: int) -> Executor:
        """The workers, unless the job is too small to be worth starting a pool of its own for."""
        if self._pool is not None and (jobs >= PARALLEL_FROM or not self._own_pool):
            return self._pool
        return _Here()

    def prefetch(self, faces: Iterable[FaceLayout], dpi: int) -> None:
        """Start drawing the faces not cached yet, so the workers draw while this process writes the PDFs."""
        missing = self._missing(faces, dpi)
        pool = self.pool(len(missing))
        if isinstance(pool, _Here):
            return  # nothing would run in the background
        self._draw(missing, dpi, pool)

    def _draw(self, missing: list[tuple[FaceLayout, str]], dpi: int, pool: Executor) -> None:
        """Submit the faces to be drawn, a few jobs per worker; _pending says which job draws which."""
        fonts = registered_fonts()
        for chunk in _chunks(missing, self.workers * 3):
            future = pool.submit(_releasing, "draw_pngs", [face for face, _ in chunk], dpi, fonts)
            for index, (face, key) in enumerate(chunk):
                self._pending[(face, dpi)] = (future, index, key)

    def prefetch_strips(self, jobs: list[tuple[str, list[FaceLayout | None], Callable[[dict], tuple]]], dpi: int) -> None:
        """Start each TTS strip not cached yet as soon as the faces it shows are drawn (strips() collects them)."""
        missing = []
        for key, faces, arguments in jobs:
            if key in self._strips:
                continue
            data = self.cache.get("tts-strips", key)
            if data is not None:
                self._strips[key] = _strip_from(data)
            else:
                missing.append((key, [face for face in faces if face is not None], arguments))
        pool = self.pool(len(missing))
        if isinstance(pool, _Here) or not missing:
            return
        self._draw(self._missing((face for _, faces, _ in missing for face in faces), dpi), dpi, pool)
        for key, faces, arguments in missing:
            # captured now, in this thread: the sources do not move while the callbacks run
            sources = {face: self._drawn.get((face, dpi)) or self._pending[(face, dpi)][:2] for face in faces}
            self._strips[key] = _when_drawn(pool, sources, arguments)

    def _missing(self, faces: Iterable[FaceLayout], dpi: int) -> list[tuple[FaceLayout, str]]:
        missing = []
        for face in dict.fromkeys(faces):
            if (face, dpi) in self._drawn or (face, dpi) in self._pending:
                continue
            key = f"{face_key(face)}-{dpi}"
            png = self.cache.get("faces", key)
            if png is None:
                missing.append((face, key))
            else:
                self._drawn[(face, dpi)] = png
        return missing

    def pngs(self, faces: Iterable[FaceLayout], dpi: int, title: str) -> dict[FaceLayout, bytes]:
        """Each distinct face's PNG (bleed included) at `dpi`."""
        faces = list(dict.fromkeys(faces))
        missing = self._missing(faces, dpi)
        self._draw(missing, dpi, self.pool(len(missing)))
        waiting = [face for face in faces if (face, dpi) in self._pending]
        with LazyProgress(f"rasterizing {title}", len(waiting)) as progress:
            for face in waiting:
                future, index, key = self._pending.pop((face, dpi))
                png = future.result()[index]
                self.cache.put("faces", key, png)
                self._drawn[(face, dpi)] = png
                progress.advance()
        STATS["faces drawn"] += len(waiting)
        return {face: self._drawn[(face, dpi)] for face in faces}

    def strips(self, jobs: list[tuple[str, list[FaceLayout | None], Callable[[dict], tuple]]], dpi: int,
               title: str) -> list[Strip]:
        """TTS strips by key: cached ones read; for the others, their faces' PNGs at `dpi` (drawn, or
        shared with the PNG export) are put side by side and compressed in parallel."""
        strips: list[Strip | None] = []
        missing: list[tuple[int, str, list[FaceLayout | None], Callable[[dict], tuple]]] = []
        started: list[tuple[int, str, Future]] = []
        for key, faces, arguments in jobs:
            known = self._strips.get(key)
            if isinstance(known, Future):
                started.append((len(strips), key, known))
                strips.append(None)
                continue
            if known is None:
                data = self.cache.get("tts-strips", key)
                known = None if data is None else _strip_from(data)
            if known is None:
                missing.append((len(strips), key, faces, arguments))
            strips.append(known)
        pngs = self.pngs([face for _, _, faces, _ in missing for face in faces if face is not None], dpi, title)
        pool = self.pool(len(missing))
        pending = started + [(index, key, pool.submit(_releasing, "tts_strip", *arguments(pngs)))
                             for index, key, _, arguments in missing]
        with LazyProgress(f"TTS sheets of {title}", len(pending)) as progress:
            for index, key, future in pending:
                strip = future.result()
                self.cache.put("tts-strips", key, _strip_to(strip))
                strips[index] = strip
                progress.advance()
        STATS["strips compressed"] += len(pending)
        return strips  # type: ignore[return-value]


def _when_drawn(pool: Executor, sources: dict[FaceLayout, bytes | tuple[Future, int]],
                arguments: Callable[[dict], tuple]) -> Future:
    """A strip's job, submitted once every face it shows is drawn: `sources` are PNG bytes, or
    (job, index) of a drawing job. The returned future has the strip, or the first failure."""
    strip: Future = Future()
    waiting = {source[0] for source in sources.values() if isinstance(source, tuple)}
    left, lock = [len(waiting)], threading.Lock()

    def settle(job: Future) -> None:
        if strip.cancelled():
            return
        if job.cancelled():
            strip.cancel()
        elif job.exception() is not None:
            strip.set_exception(job.exception())
        else:
            strip.set_result(job.result())

    def launch() -> None:
        try:
            pngs = {face: source if isinstance(source, bytes) else source[0].result()[source[1]]
                    for face, source in sources.items()}
            job = pool.submit(_releasing, "tts_strip", *arguments(pngs))
        except BaseException as exc:  # a face that failed, or a pool that was shut down
            if not strip.cancelled():
                strip.set_exception(exc)
            return
        job.add_done_callback(settle)

    def one_drawn(_: Future) -> None:
        with lock:
            left[0] -= 1
            ready = left[0] == 0
        if ready:
            launch()

    if not waiting:
        launch()
    for job in waiting:
        job.add_done_callback(one_drawn)
    return strip


def _strip_arguments(pngs: dict[FaceLayout, bytes], *, cells: list[FaceLayout], back: FaceLayout | None, hidden: bool,
                     cell: tuple[int, int], bleed_px: int) -> tuple:
    distinct: list[FaceLayout | None] = list(dict.fromkeys(cells))
    hidden_index = None
    if hidden:
        distinct.append(back)  # None: the grey card
        hidden_index = len(distinct) - 1
    return ([None if face is None else pngs[face] for face in distinct], [distinct.index(face) for face in cells], cell,
            bleed_px, hidden_index, TTS_COLS)


def _back_png(face_png: bytes | None, bleed_px: int, cell: tuple[int, int], dpi: int) -> bytes:
    from spellpress.write.pixels import encode_png, trimmed

    return encode_png(trimmed(face_png, bleed_px, cell), dpi)


def _one_png(raster: "Rasterizer", face: FaceLayout | None, dpi: int, title: str) -> bytes | None:
    return None if face is None else raster.pngs([face], dpi, title)[face]


def _chunks(items: list, count: int) -> list[list]:
    size = max(1, math.ceil(len(items) / count))
    return [items[start : start + size] for start in range(0, len(items), size)]


def _strip_to(strip: Strip) -> bytes:
    return struct.pack(">IIII", strip.adler, strip.length, strip.width, strip.height) + strip.deflated


def _strip_from(data: bytes) -> Strip:
    adler, length, width, height = struct.unpack(">IIII", data[:16])
    return Strip(data[16:], adler, length, width, height)


# -- the exports --------------------------------------------------------------------------
def write_pngs(laid: list[CardFaces], folder: Path, title: str, raster: Rasterizer) -> list[Path]:
    """png/<component>/<card>-front.png and -back.png, 300 dpi with bleed; one per distinct card."""
    pngs = raster.pngs((face for f in laid for face in (f.front, f.back) if face is not None), PNG_DPI, title)
    written: list[Path] = []
    with atomic_folder(folder) as temporary:
        for f in laid:
            for side, face in (("front", f.front), ("back", f.back)):
                if face is None:
                    continue
                relative = Path(f.component.id) / f"{f.card.id}-{side}.png"
                target = temporary / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(pngs[face])
                written.append(folder / relative)
    return written


def tts_dpi(face: FaceLayout) -> int:
    return min(PNG_DPI, int(TTS_MAX_WIDTH_PX / TTS_COLS / (face.width / MM_PER_INCH)))


@dataclass(frozen=True)
class TtsDeck:
    """One component's TTS sheets: which cards go in which strip of which sheet, at what size."""

    component_id: str
    dpi: int
    cell: tuple[int, int]  # a card's pixels, bleed trimmed
    bleed_px: int
    sheets: list[list[FaceLayout]]  # the fronts of each sheet (copies repeated)
    rows: list[int]  # strips per sheet
    jobs: list[tuple[str, list[FaceLayout | None], Callable[[dict], tuple]]]  # per strip: key, faces, arguments
    back: FaceLayout | None
    back_key: str


def tts_decks(laid: list[CardFaces]) -> list[TtsDeck]:
    """Per component: deck sheets of at most 10 x 7 cards, the last slot the hidden card (its back)."""
    decks = []
    for component_id in dict.fromkeys(f.component.id for f in laid):
        group = [f for f in laid if f.component.id == component_id]
        copies = [f.front for f in group for _ in range(f.card.count)]
        first, back_face = copies[0], group[0].back
        dpi = tts_dpi(first)
        bleed_px = mm_to_px(first.bleed, dpi)
        cell = (mm_to_px(first.width + 2 * first.bleed, dpi) - 2 * bleed_px,
                mm_to_px(first.height + 2 * first.bleed, dpi) - 2 * bleed_px)
        keys = {face: face_key(face) for face in [*copies, *([back_face] if back_face else [])]}
        back_key = keys[back_face] if back_face else "grey"
        per_sheet = TTS_COLS * TTS_ROWS - 1
        sheets = [copies[start : start + per_sheet] for start in range(0, len(copies), per_sheet)]
        jobs, shapes = [], []
        for chunk in sheets:
            rows = min(TTS_ROWS, (len(chunk) + 1 + TTS_COLS - 1) // TTS_COLS)
            shapes.append(rows)
            for row in range(rows):
                cells = chunk[row * TTS_COLS : (row + 1) * TTS_COLS]
                hidden = row == rows - 1
                key = digest("tts-strip-from-pngs", dpi, cell, [keys[c] for c in cells], back_key if hidden else None)
                faces = [*cells, back_face] if hidden else cells
                jobs.append((key, faces, functools.partial(_strip_arguments, cells=cells, back=back_face, hidden=hidden,
                                                           cell=cell, bleed_px=bleed_px)))
        decks.append(TtsDeck(component_id, dpi, cell, bleed_px, sheets, shapes, jobs, back_face, back_key))
    return decks


def prefetch_tts(laid: list[CardFaces], raster: Rasterizer) -> None:
    """Start the TTS strips, each as soon as the cards it shows are drawn."""
    for deck in tts_decks(laid):
        raster.prefetch_strips(deck.jobs, deck.dpi)


def write_tts(laid: list[CardFaces], folder: Path, title: str, raster: Rasterizer) -> list[Path]:
    """Per component: the deck sheets (tts_decks) and a back image."""
    written: list[Path] = []
    with atomic_folder(folder) as temporary:
        for deck in tts_decks(laid):
            strips = iter(raster.strips(deck.jobs, deck.dpi, title))
            for number, (chunk, rows) in enumerate(zip(deck.sheets, deck.rows), start=1):
                name = f"{deck.component_id}-sheet{number}-{len(chunk)}cards.png"
                (temporary / name).write_bytes(png_from_strips([next(strips) for _ in range(rows)], deck.dpi))
                written.append(folder / name)
            back_bytes = raster.cache.bytes(
                "tts-backs", digest("tts-back", deck.dpi, deck.cell, deck.back_key),
                lambda: _back_png(_one_png(raster, deck.back, deck.dpi, title), deck.bleed_px, deck.cell, deck.dpi))
            (temporary / f"{deck.component_id}-back.png").write_bytes(back_bytes)
            written.append(folder / f"{deck.component_id}-back.png")
    return written
