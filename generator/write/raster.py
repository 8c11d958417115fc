"""Raster exports, rasterized from the same PDF drawing: PNG per card and TTS deck sheets.

Each distinct face is rasterized once per resolution, in worker processes on the
available cores, and kept as PNG in the build cache under its content address: the
PNG export is those bytes, and the TTS sheets are cut from them. Sheets are assembled
a strip of cards at a time (write/png.py), each strip cached and compressed in a
worker, so no sheet is ever whole in memory.
"""

from __future__ import annotations

import functools
import math
import multiprocessing
import os
import struct
import threading
from collections import Counter
from concurrent.futures import Executor, Future
from io import BytesIO
from pathlib import Path
from typing import Callable, Iterable

import numpy as np
import pypdfium2 as pdfium
from PIL import Image

from generator.pools import close_pool, process_pool
from generator.layout.deck import CardFaces
from generator.layout.ops import FaceLayout
from generator.progress import LazyProgress, track
from generator.render.forms import FormBook
from generator.render.keys import face_key
from generator.units import MM_PER_INCH, mm_to_pt, mm_to_px
from generator.write.atomic import atomic_folder
from generator.write.cache import Cache, digest
from generator.write.canvas import new_canvas
from generator.impose.grid import Slot
from generator.write.pdf import place_face, single_face_page
from generator.write.png import Strip, compress_strip, png_from_strips

PNG_DPI = 300
TTS_COLS, TTS_ROWS = 10, 7
TTS_MAX_WIDTH_PX = 10_000
PARALLEL_FROM = 4  # fewer pieces of work than this are done in this process
HIDDEN_GREY = (128, 128, 128)

_PDFIUM_BITMAP = functools.partial(pdfium.PdfBitmap.new_foreign, force_packed=True)  # pdfium's own memory, rows packed
STATS: Counter = Counter()  # faces drawn and strips compressed in this process's builds (tests read it)


def faces_pdf(faces: list[FaceLayout], title: str) -> bytes:
    """A PDF with one face (bleed included) per page."""
    buffer = BytesIO()
    first = faces[0]
    canvas = new_canvas(buffer, (first.width + 2 * first.bleed, first.height + 2 * first.bleed), title)
    forms = FormBook(canvas)
    for face in faces:
        single_face_page(canvas, forms, face)
    canvas.save()
    return buffer.getvalue()


def _page_image(page, face: FaceLayout, dpi: int) -> Image.Image:
    return _render_exact(page, mm_to_px(face.width + 2 * face.bleed, dpi), mm_to_px(face.height + 2 * face.bleed, dpi), dpi)


def _render_exact(page, width: int, height: int, dpi: int) -> Image.Image:
    """The page as an RGB image of exactly width x height pixels."""
    bitmap, pixels = _render_array(page, width, height, dpi)
    return Image.fromarray(pixels)  # a copy: the bitmap's memory goes with `bitmap`


def _render_array(page, width: int, height: int, dpi: int):
    """(bitmap, its pixels as a height x width x 3 RGB array): no copy; keep `bitmap` while using the array."""
    scale = dpi / 72.0
    # pdfium rounds the bitmap up: crop the spare pixel at the right and bottom instead of resampling
    extra_w = math.ceil(page.get_width() * scale) - width
    extra_h = math.ceil(page.get_height() * scale) - height
    fits = 0 <= extra_w <= 1 and 0 <= extra_h <= 1
    crop = (0, extra_h / scale, extra_w / scale, 0) if fits else (0, 0, 0, 0)  # in points, as pdfium wants
    bitmap = page.render(scale=scale, crop=crop, draw_annots=False, rev_byteorder=True, bitmap_maker=_PDFIUM_BITMAP)
    pixels = bitmap.to_numpy()
    if pixels.shape[:2] == (height, width):
        return bitmap, pixels
    if fits and pixels.shape[0] >= height and pixels.shape[1] >= width:
        return bitmap, pixels[:height, :width]
    return None, np.asarray(Image.fromarray(pixels).resize((width, height)))


def rasterize(faces: list[FaceLayout], title: str, dpi: int = PNG_DPI, progress: bool = True) -> list[Image.Image]:
    """Each face as an RGB image at `dpi`, bleed included; identical faces are drawn once (in this process)."""
    unique = list(dict.fromkeys(faces))
    document = pdfium.PdfDocument(faces_pdf(unique, title))
    images: dict[FaceLayout, Image.Image] = {}
    try:
        for face, page in zip(unique, track(document, f"rasterizing {title}", len(unique), enabled=progress)):
            images[face] = _page_image(page, face, dpi)
    finally:
        document.close()
    return [images[face] for face in faces]


def rasterize_pdf(pdf: bytes, dpi: int) -> list[Image.Image]:
    """Every page of a PDF as an RGB image at `dpi`."""
    document = pdfium.PdfDocument(pdf)
    try:
        return [page.render(scale=dpi / 72.0, draw_annots=False).to_pil().convert("RGB") for page in document]
    finally:
        document.close()


def encode_png(image: Image.Image, dpi: int) -> bytes:
    """A PNG of the image, written by write/png.py (twice as fast as Pillow's encoder here, same size)."""
    return png_from_strips([compress_strip(image)], dpi)


# -- work done in worker processes (plain functions of plain data) ------------------------
def _draw_pngs(faces: list[FaceLayout], dpi: int) -> list[bytes]:
    """Rasterize and encode faces, one page in memory at a time."""
    document = pdfium.PdfDocument(faces_pdf(faces, "faces"))
    pngs = []
    try:
        for face, page in zip(faces, document):
            width = mm_to_px(face.width + 2 * face.bleed, dpi)
            height = mm_to_px(face.height + 2 * face.bleed, dpi)
            bitmap, pixels = _render_array(page, width, height, dpi)
            pngs.append(png_from_strips([compress_strip(pixels)], dpi))
            del bitmap
    finally:
        document.close()
    return pngs


def _tts_strip(faces: list[FaceLayout | None], cells: list[int], cell: tuple[int, int], dpi: int,
               hidden: int | None) -> Strip:
    """One row of a TTS sheet, drawn as one PDF page and rasterized: the cards (indexes into `faces`)
    side by side, each cell showing the trim (and the bleed's last fraction of a pixel), and the
    hidden card (None: plain grey) in the last column when `hidden` is given."""
    width_mm, height_mm = (px * MM_PER_INCH / dpi for px in cell)
    buffer = BytesIO()
    canvas = new_canvas(buffer, (TTS_COLS * width_mm, height_mm), "TTS sheet")
    forms = FormBook(canvas)
    placed = list(enumerate(cells)) + ([(TTS_COLS - 1, hidden)] if hidden is not None else [])
    for column, index in placed:
        face, left = faces[index], column * width_mm
        if face is None:
            canvas.setFillColorRGB(*(channel / 255 for channel in HIDDEN_GREY))
            canvas.rect(mm_to_pt(left), 0, mm_to_pt(width_mm), mm_to_pt(height_mm), stroke=0, fill=1)
            continue
        slot = Slot(0, column, left, height_mm - face.height, face.width, face.height, (left, 0.0, width_mm, height_mm))
        place_face(canvas, forms, face, slot)
    canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(buffer.getvalue())
    try:
        bitmap, pixels = _render_array(document[0], TTS_COLS * cell[0], cell[1], dpi)
        return compress_strip(pixels)
    finally:
        document.close()


def _trimmed(png: bytes | None, bleed_px: int, cell: tuple[int, int]) -> Image.Image:
    if png is None:
        return Image.new("RGB", cell, HIDDEN_GREY)
    with Image.open(BytesIO(png)) as image:
        card = image.convert("RGB").crop((bleed_px, bleed_px, image.width - bleed_px, image.height - bleed_px))
    return card if card.size == cell else card.resize(cell)


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


class Rasterizer:
    """Face PNGs by content: from the cache, or drawn in parallel and cached. Use as a context manager."""

    def __init__(self, cache: Cache, workers: int | None = None):
        self.cache = cache
        self.workers = workers or default_workers()
        self._pool: Executor | None = None
        self._drawn: dict[tuple[FaceLayout, int], bytes] = {}  # shared by the exports of one build, cache or not
        self._pending: dict[tuple[FaceLayout, int], tuple[Future, int, str]] = {}  # being drawn: (job, index, key)

    def __enter__(self) -> "Rasterizer":
        # forking copies only the calling thread: a server with other threads draws in its own process
        if self.workers > 1 and threading.active_count() == 1:
            self._pool = process_pool(self.workers, mp_context=multiprocessing.get_context("fork"))
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if self._pool is not None:
            close_pool(self._pool, failed=kind is not None)
        self._pool = None

    def pool(self, jobs: int) -> Executor:
        return self._pool if self._pool is not None and jobs >= PARALLEL_FROM else _Here()

    def prefetch(self, faces: Iterable[FaceLayout], dpi: int) -> None:
        """Start drawing the faces not cached yet, so the workers draw while this process writes the PDFs."""
        missing = self._missing(faces, dpi)
        pool = self.pool(len(missing))
        if isinstance(pool, _Here):
            return  # nothing would run in the background
        for chunk in _chunks(missing, self.workers * 3):
            future = pool.submit(_draw_pngs, [face for face, _ in chunk], dpi)
            for index, (face, key) in enumerate(chunk):
                self._pending[(face, dpi)] = (future, index, key)

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
        chunks = _chunks(missing, self.workers * 3)
        pool = self.pool(len(missing))
        for chunk in chunks:
            future = pool.submit(_draw_pngs, [face for face, _ in chunk], dpi)
            for index, (face, key) in enumerate(chunk):
                self._pending[(face, dpi)] = (future, index, key)
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

    def strips(self, jobs: list[tuple[str, Callable[[], tuple]]], title: str) -> list[Strip]:
        """TTS strips by key: cached ones read, the others compressed in parallel (arguments made on demand)."""
        strips: list[Strip | None] = []
        missing: list[tuple[int, str, Callable[[], tuple]]] = []
        for key, arguments in jobs:
            data = self.cache.get("tts-strips", key)
            if data is None:
                missing.append((len(strips), key, arguments))
            strips.append(None if data is None else _strip_from(data))
        pool = self.pool(len(missing))
        pending = [(index, key, pool.submit(_tts_strip, *arguments())) for index, key, arguments in missing]
        with LazyProgress(f"TTS sheets of {title}", len(pending)) as progress:
            for index, key, future in pending:
                strip = future.result()
                self.cache.put("tts-strips", key, _strip_to(strip))
                strips[index] = strip
                progress.advance()
        STATS["strips compressed"] += len(pending)
        return strips  # type: ignore[return-value]


def _strip_arguments(cells: list[FaceLayout], back: FaceLayout | None, hidden: bool, cell: tuple[int, int],
                     dpi: int) -> tuple:
    distinct: list[FaceLayout | None] = list(dict.fromkeys(cells))
    hidden_index = None
    if hidden:
        distinct.append(back)  # None: the grey card
        hidden_index = len(distinct) - 1
    return distinct, [distinct.index(face) for face in cells], cell, dpi, hidden_index


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


def write_tts(laid: list[CardFaces], folder: Path, title: str, raster: Rasterizer) -> list[Path]:
    """Per component: deck sheets of at most 10 x 7 (last slot the hidden card) and a back image."""
    written: list[Path] = []
    with atomic_folder(folder) as temporary:
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
                    key = digest("tts-strip", dpi, cell, [keys[c] for c in cells], back_key if hidden else None)
                    jobs.append((key, lambda cells=cells, hidden=hidden: _strip_arguments(cells, back_face, hidden, cell, dpi)))
            strips = iter(raster.strips(jobs, title))
            for number, (chunk, rows) in enumerate(zip(sheets, shapes), start=1):
                name = f"{component_id}-sheet{number}-{len(chunk)}cards.png"
                (temporary / name).write_bytes(png_from_strips([next(strips) for _ in range(rows)], dpi))
                written.append(folder / name)
            back_bytes = raster.cache.bytes("tts-backs", digest("tts-back", dpi, cell, back_key),
                                            lambda: encode_png(_trimmed(_one_png(raster, back_face, dpi, title), bleed_px, cell), dpi))
            (temporary / f"{component_id}-back.png").write_bytes(back_bytes)
            written.append(folder / f"{component_id}-back.png")
    return written
