"""Tabletop Simulator deck sheets: which card goes in which cell of which sheet, at what size.

A sheet is put together a strip (one row of cards) at a time by the Rasterizer (write/raster.py)
from the same face PNGs as the PNG export; this module plans the sheets and writes them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from spellpress.layout.deck import CardFaces
from spellpress.layout.ops import FaceLayout
from spellpress.render.keys import face_key
from spellpress.units import MM_PER_INCH, mm_to_px
from spellpress.write.atomic import atomic_folder
from spellpress.write.cache import digest
from spellpress.write.png import png_from_strips
from spellpress.write.raster import PNG_DPI, Rasterizer, StripJob

TTS_COLS, TTS_ROWS = 10, 7
TTS_MAX_WIDTH_PX = 10_000


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
    jobs: list[StripJob]  # per strip
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


def _strip_arguments(pngs: dict[FaceLayout, bytes], *, cells: list[FaceLayout], back: FaceLayout | None, hidden: bool,
                     cell: tuple[int, int], bleed_px: int) -> tuple:
    """The arguments of pixels.tts_strip for one row, given the PNGs of the faces it shows."""
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
                lambda: _back_png(raster.png(deck.back, deck.dpi, title), deck.bleed_px, deck.cell, deck.dpi))
            (temporary / f"{deck.component_id}-back.png").write_bytes(back_bytes)
            written.append(folder / f"{deck.component_id}-back.png")
    return written
