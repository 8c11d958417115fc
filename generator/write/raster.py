"""Rasterizing faces for the raster exports (PNG per card, TTS sheets), with the build cache.

Each distinct face is rasterized once per resolution, in worker processes (write/workers.py),
and kept as PNG in the build cache under its content address: the PNG export is those bytes,
and the TTS sheets (write/tts_export.py) are cut from them, a strip of cards at a time
(write/png.py), each strip cached and compressed in a worker, so no sheet is ever whole in
memory. The pixel work itself is write/pixels.py, which this process imports only when it
draws something itself.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Hashable, Iterable
from concurrent.futures import Executor, Future
from pathlib import Path

from spellpress.layout.deck import CardFaces
from spellpress.layout.fonts import registered as registered_fonts
from spellpress.layout.ops import FaceLayout
from spellpress.pools import release_free_memory
from spellpress.progress import LazyProgress
from spellpress.render.keys import face_key
from spellpress.write.atomic import atomic_folder
from spellpress.write.cache import Cache
from spellpress.write.counts import RasterCounts
from spellpress.write.fit import MAX_DPI
from spellpress.write.png import Strip
from spellpress.write.scheduling import chunks, submit_when_done
from spellpress.write.workers import InThisProcess, Workers, run_pixel_job

PNG_DPI = MAX_DPI  # the PNG export: the pictures every other export is scaled from

# a strip of a TTS sheet: its cache key, the faces it shows (None: the plain grey hidden card), and
# the function that turns those faces' PNGs into the arguments of pixels.tts_strip
StripJob = tuple[str, list[FaceLayout | None], Callable[[dict], tuple]]


class Rasterizer:
    """Face PNGs by content: from the cache, or drawn in parallel and cached. Use as a context manager."""

    def __init__(self, cache: Cache, workers: int | None = None):
        self.cache = cache
        self.counts = RasterCounts()
        self._workers = Workers(workers)
        self._drawn: dict[tuple[FaceLayout, int], bytes] = {}  # shared by the exports of one build, cache or not
        self._pending: dict[tuple[FaceLayout, int], tuple[Future, int, str]] = {}  # being drawn: (job, index, key)
        self._strips: dict[str, Strip | Future] = {}  # TTS strips read from the cache or started early, by key

    def __enter__(self) -> Rasterizer:
        self._workers.start()
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if kind is not None and self._workers.shared:
            for future in [job for job, _, _ in self._pending.values()] + list(self._strips.values()):
                if isinstance(future, Future):
                    future.cancel()
        self._workers.stop(failed=kind is not None)
        self._drawn.clear()
        self._strips.clear()
        release_free_memory()  # this game's pictures, before the next game's

    def prefetch(self, faces: Iterable[FaceLayout], dpi: int) -> None:
        """Start drawing the faces not cached yet, so the workers draw while this process writes the PDFs."""
        missing = self._missing(faces, dpi)
        pool = self._workers.for_jobs(len(missing))
        if isinstance(pool, InThisProcess):
            return  # nothing would run in the background
        self._draw(missing, dpi, pool)

    def _draw(self, missing: list[tuple[FaceLayout, str]], dpi: int, pool: Executor) -> None:
        """Submit the faces to be drawn, a few jobs per worker; _pending says which job draws which."""
        fonts = registered_fonts()
        for chunk in chunks(missing, self._workers.count * 3):
            future = pool.submit(run_pixel_job, "draw_pngs", [face for face, _ in chunk], dpi, fonts)
            for index, (face, key) in enumerate(chunk):
                self._pending[(face, dpi)] = (future, index, key)

    def prefetch_strips(self, jobs: list[StripJob], dpi: int) -> None:
        """Start each TTS strip not cached yet as soon as the faces it shows are drawn (strips() collects them)."""
        missing: list[tuple[str, list[FaceLayout], Callable[[dict], tuple]]] = []
        for key, faces, arguments in jobs:
            if key in self._strips:
                continue
            data = self.cache.get("tts-strips", key)
            if data is not None:
                self._strips[key] = strip_from_bytes(data)
            else:
                missing.append((key, [face for face in faces if face is not None], arguments))
        pool = self._workers.for_jobs(len(missing))
        if isinstance(pool, InThisProcess) or not missing:
            return
        self._draw(self._missing((face for _, faces, _ in missing for face in faces), dpi), dpi, pool)
        for key, drawn, arguments in missing:
            # captured now, in this thread: the sources do not move while the callbacks run
            sources: dict[Hashable, bytes | tuple[Future, int]] = {
                face: self._drawn.get((face, dpi)) or self._pending[(face, dpi)][:2] for face in drawn}
            self._strips[key] = submit_when_done(pool, sources, _strip_submitter(arguments))

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
        self._draw(missing, dpi, self._workers.for_jobs(len(missing)))
        waiting = [face for face in faces if (face, dpi) in self._pending]
        with LazyProgress(f"rasterizing {title}", len(waiting)) as progress:
            for face in waiting:
                future, index, key = self._pending.pop((face, dpi))
                png = future.result()[index]
                self.cache.put("faces", key, png)
                self._drawn[(face, dpi)] = png
                progress.advance()
        self.counts.faces_drawn += len(waiting)
        return {face: self._drawn[(face, dpi)] for face in faces}

    def png(self, face: FaceLayout | None, dpi: int, title: str) -> bytes | None:
        return None if face is None else self.pngs([face], dpi, title)[face]

    def pixel_jobs(self, calls: list[tuple[str, tuple]]) -> list:
        """Jobs of write/pixels.py by name, with their arguments, run on the workers; their results in order."""
        pool = self._workers.for_jobs(len(calls))
        return [future.result() for future in [pool.submit(run_pixel_job, job, *arguments) for job, arguments in calls]]

    def strips(self, jobs: list[StripJob], dpi: int, title: str) -> list[Strip]:
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
                known = None if data is None else strip_from_bytes(data)
            if known is None:
                missing.append((len(strips), key, faces, arguments))
            strips.append(known)
        pngs = self.pngs([face for _, _, faces, _ in missing for face in faces if face is not None], dpi, title)
        pool = self._workers.for_jobs(len(missing))
        pending = started + [(index, key, _strip_submitter(arguments)(pool, pngs)) for index, key, _, arguments in missing]
        with LazyProgress(f"TTS sheets of {title}", len(pending)) as progress:
            for index, key, future in pending:
                strip = future.result()
                self.cache.put("tts-strips", key, strip_to_bytes(strip))
                strips[index] = strip
                progress.advance()
        self.counts.strips_compressed += len(pending)
        self._keep_drawn(dpi)
        return strips  # type: ignore[return-value]

    def _keep_drawn(self, dpi: int) -> None:
        """Cache the faces that strips started early had drawn (no export asked for their PNGs),
        so that a rebuild after one card's edit draws that card only."""
        for (face, at), (future, index, key) in list(self._pending.items()):
            if at == dpi and future.done() and future.exception() is None:
                del self._pending[(face, at)]
                png = future.result()[index]
                self.cache.put("faces", key, png)
                self._drawn[(face, at)] = png
                self.counts.faces_drawn += 1


def _strip_submitter(arguments: Callable[[dict], tuple]) -> Callable[[Executor, dict], Future]:
    return lambda pool, pngs: pool.submit(run_pixel_job, "tts_strip", *arguments(pngs))


def strip_to_bytes(strip: Strip) -> bytes:
    return struct.pack(">IIII", strip.adler, strip.length, strip.width, strip.height) + strip.deflated


def strip_from_bytes(data: bytes) -> Strip:
    adler, length, width, height = struct.unpack(">IIII", data[:16])
    return Strip(data[16:], adler, length, width, height)


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
