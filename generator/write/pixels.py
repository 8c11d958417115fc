"""Pixels: faces rasterized from their PDF drawing, PNGs encoded and decoded, TTS strips put together.

The heavy half of the raster exports (pdfium, numpy, Pillow), imported by the worker
processes and by the parent only when it draws something itself (write/raster.py
orchestrates without it).
"""

from __future__ import annotations

import functools
import math
import os
from io import BytesIO
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no linear algebra here: no BLAS threads spinning beside the work
import numpy as np
import pypdfium2 as pdfium
from PIL import Image

from spellpress.layout.fonts import adopt as adopt_fonts
from spellpress.layout.ops import FaceLayout
from spellpress.progress import track
from spellpress.render.forms import FormBook
from spellpress.units import mm_to_px
from spellpress.write.canvas import new_canvas
from spellpress.write.pdf import single_face_page
from spellpress.write.png import (
    Strip,
    blank_scanlines,
    compress_scanlines,
    compress_strip,
    decode_png,
    pixels_of,
    png_from_strips,
)

HIDDEN_GREY = (128, 128, 128)
_PDFIUM_BITMAP = functools.partial(pdfium.PdfBitmap.new_foreign, force_packed=True)  # pdfium's own memory, rows packed


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


def rasterize(faces: list[FaceLayout], title: str, dpi: int, progress: bool = True) -> list[Image.Image]:
    """Each face as an RGB image at `dpi`, bleed included; identical faces are drawn once (in this process)."""
    unique = list(dict.fromkeys(faces))
    document = pdfium.PdfDocument(faces_pdf(unique, title))
    images: dict[FaceLayout, Image.Image] = {}
    try:
        for face, page in zip(unique, track(document, f"rasterizing {title}", len(unique), enabled=progress), strict=False):
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


def encode_png(image: Image.Image | np.ndarray, dpi: int) -> bytes:
    """A PNG of the image, written by write/png.py (twice as fast as Pillow's encoder here, same size)."""
    return png_from_strips([compress_strip(image)], dpi)


def draw_pngs(faces: list[FaceLayout], dpi: int, fonts: dict[str, Path]) -> list[bytes]:
    """Rasterize and encode faces, one page in memory at a time (`fonts`: the registered fonts,
    for a worker started before they were)."""
    adopt_fonts(fonts)
    document = pdfium.PdfDocument(faces_pdf(faces, "faces"))
    pngs = []
    try:
        for face, page in zip(faces, document, strict=False):
            width = mm_to_px(face.width + 2 * face.bleed, dpi)
            height = mm_to_px(face.height + 2 * face.bleed, dpi)
            bitmap, pixels = _render_array(page, width, height, dpi)
            pngs.append(png_from_strips([compress_strip(pixels)], dpi))
            del bitmap
    finally:
        document.close()
    return pngs


def tts_strip(pngs: list[bytes | None], cells: list[int], cell: tuple[int, int], bleed_px: int,
              hidden: int | None, columns: int) -> Strip:
    """One row of a TTS sheet from the cards' own PNGs (the same pixels as the PNG export, when
    the resolution is the same): the cards (indexes into `pngs`) side by side, trimmed of their
    bleed, the hidden card (None: plain grey) in the last of `columns` when `hidden` is given, and
    white where a short last row has no card."""
    width, height = cell
    scanlines = blank_scanlines(columns * width, height)
    row = pixels_of(scanlines)
    columns_of: dict[int | None, list[int]] = {}  # card index (None: no card) -> its columns
    placed = dict(enumerate(cells)) | ({columns - 1: hidden} if hidden is not None else {})
    for column in range(columns):
        columns_of.setdefault(placed.get(column), []).append(column)
    for index, where in columns_of.items():
        card = 255 if index is None else trimmed(pngs[index], bleed_px, cell)  # one card in memory at a time
        for column in where:
            row[:, column * width : (column + 1) * width] = card
    return compress_scanlines(scanlines)


def trimmed(png: bytes | None, bleed_px: int, cell: tuple[int, int]) -> np.ndarray:
    """A card's pixels without its bleed, `cell` (width, height) in size; None: the plain grey card."""
    width, height = cell
    if png is None:
        return np.full((height, width, 3), HIDDEN_GREY, np.uint8)
    pixels = decode_png(png)
    card = pixels[bleed_px : pixels.shape[0] - bleed_px, bleed_px : pixels.shape[1] - bleed_px]
    if card.shape[:2] != (height, width):
        card = np.asarray(Image.fromarray(np.ascontiguousarray(card)).resize(cell))
    return card


def trimmed_png(png: bytes | None, bleed_px: int, cell: tuple[int, int], dpi: int) -> bytes:
    """A face's PNG without its bleed, `cell` (width, height) in size; None: the plain grey card."""
    return encode_png(trimmed(png, bleed_px, cell), dpi)


def jpeg_from_png(png: bytes, quality: int) -> bytes:
    """The same picture as a baseline RGB JPEG (what Tabletop Simulator and most hosts read)."""
    buffer = BytesIO()
    Image.fromarray(decode_png(png)).save(buffer, "JPEG", quality=quality, optimize=True)
    return buffer.getvalue()


def die_texture(png: bytes, bleed_px: int, faces: list[tuple[int, int, int, int]], side: int,
                places: list[tuple[int, int]], grid: tuple[int, int], dpi: int) -> bytes:
    """A die's texture: its six faces, cut from its net's picture at the `faces` rectangles (x, y,
    w, h in pixels from the trim's top-left), each scaled to `side` pixels and put in its cell of
    a `grid` (columns, rows) at `places` (column, row); white elsewhere."""
    net = decode_png(png)
    columns, rows = grid
    texture = np.full((rows * side, columns * side, 3), 255, np.uint8)
    for (x, y, w, h), (column, row) in zip(faces, places, strict=False):
        face = np.ascontiguousarray(net[bleed_px + y : bleed_px + y + h, bleed_px + x : bleed_px + x + w])
        if face.shape[:2] != (side, side):
            face = np.asarray(Image.fromarray(face).resize((side, side), Image.Resampling.LANCZOS))
        texture[row * side : (row + 1) * side, column * side : (column + 1) * side] = face
    return encode_png(texture, dpi)
