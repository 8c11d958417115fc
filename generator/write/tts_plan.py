"""Tabletop Simulator: which card goes in which cell of which image, at what size.

A deck sheet is a grid of at most 10 x 7 cards, each distinct card once (its copies share its
CardID), sized to the deck (a deck of 2 is a 2 x 2 grid, not 10 wide), its cards scaled so the sheet
is at most `max_px` on a side (4096 by default, what TTS's knowledge base recommends), the hidden
card (the deck's back, or plain grey) in its last slot. Dice become textures of their six faces,
boards and score sheets one picture a side.
write/tts_export.py writes the images, write/tts_save.py the saved object.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Literal

from spellpress.layout.deck import CardFaces
from spellpress.layout.die_net import die_face_rects
from spellpress.layout.ops import FaceLayout
from spellpress.model.game import Component, Game
from spellpress.render.keys import face_key
from spellpress.units import MM_PER_INCH, mm_to_px
from spellpress.write.cache import digest
from spellpress.write.fit import fit_dpi, piece_dpi, trimmed_cell
from spellpress.write.raster import PNG_DPI, StripJob

MAX_COLUMNS, MAX_ROWS = 10, 7  # TTS cuts a sheet into at most 10 x 7 cards
DEFAULT_MAX_PX = 4096
DIE_GRID = (4, 3)  # the texture of a d6: a 1-4-1 cross of faces (docs/digital.md: not verified)
DIE_PLACES = [(1, 0), (0, 1), (1, 1), (2, 1), (3, 1), (1, 2)]  # face1 ... face6: (column, row)

# how each component kind comes to the table; any other (sheet, board, a die without face boxes): a tile
DECK_KINDS = frozenset({"card", "tile", "token"})
DIE_KINDS = frozenset({"die"})

ImageFormat = Literal["png", "jpg"]


@dataclass(frozen=True)
class TtsOptions:
    max_px: int = DEFAULT_MAX_PX  # longest side of any image
    image_format: ImageFormat = "png"
    url: str | None = None  # where the images are hosted; None: file:/// paths of the written files

    def __post_init__(self) -> None:
        if self.image_format not in ("png", "jpg"):
            raise ValueError(f"TTS images are png or jpg, not {self.image_format!r}")


def sheet_grid(slots: int, width_mm: float, height_mm: float) -> tuple[int, int]:
    """(columns, rows) of a sheet with room for `slots` cards of this size: the grid whose cards
    come out largest within a square limit, then the one with the fewest empty slots."""
    if not 1 <= slots <= MAX_COLUMNS * MAX_ROWS:
        raise ValueError(f"a sheet holds 1 to {MAX_COLUMNS * MAX_ROWS} cards, not {slots}")
    best: tuple | None = None
    for columns in range(1, MAX_COLUMNS + 1):
        rows = math.ceil(slots / columns)
        if rows > MAX_ROWS:
            continue
        rank = (-max(columns * width_mm, rows * height_mm), -(columns * rows - slots), -columns)
        if best is None or rank > best[0]:
            best = (rank, (columns, rows))
    assert best is not None
    return best[1]


# -- the plan ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Sheet:
    """One image TTS cuts into cards: the card in each slot (row by row), the hidden card last."""

    file: str
    columns: int
    rows: int
    cards: list[CardFaces]  # each distinct card once: its copies share its slot (and CardID)
    jobs: list[StripJob] = field(repr=False)  # one per row


@dataclass(frozen=True)
class TtsDeck:
    component: Component
    dpi: int  # of the sheets, and of the face pictures they are cut from
    cell: tuple[int, int]  # a card's pixels, bleed trimmed
    bleed_px: int
    sheets: list[Sheet]
    back_sheets: list[Sheet]  # double-sided cards: each card's back in its card's slot; else empty
    back: FaceLayout | None  # the shared back (None: a plain grey back)
    back_file: str | None  # the shared back's image; None for double-sided cards
    back_key: str


@dataclass(frozen=True)
class TtsDie:
    component: Component
    card: CardFaces
    file: str
    dpi: int  # of the texture
    bleed_px: int  # of the net's 300 dpi picture the faces are cut from
    faces_px: list[tuple[int, int, int, int]]  # x, y, w, h from the trim's top-left, at 300 dpi
    side: int  # a face's pixels in the texture


@dataclass(frozen=True)
class TtsTile:
    """A board or score sheet (or a die without face boxes): one picture a side."""

    component: Component
    card: CardFaces
    front_file: str
    back_file: str | None
    dpi: int
    cell: tuple[int, int]
    bleed_px: int


@dataclass(frozen=True)
class TtsPlan:
    decks: list[TtsDeck]
    dice: list[TtsDie]
    tiles: list[TtsTile]

    def files(self) -> list[str]:
        names = [sheet.file for deck in self.decks for sheet in [*deck.sheets, *deck.back_sheets]]
        names += [deck.back_file for deck in self.decks if deck.back_file]
        names += [die.file for die in self.dice]
        names += [name for tile in self.tiles for name in (tile.front_file, tile.back_file) if name]
        return names


def plan_tts(game: Game, laid: list[CardFaces], options: TtsOptions) -> TtsPlan:
    ext = options.image_format
    decks, dice, tiles = [], [], []
    for component in game.components:
        group = [f for f in laid if f.component.id == component.id]
        if not group:
            continue
        if component.kind in DECK_KINDS:
            decks.append(_deck(component, group, options.max_px, ext))
            continue
        for faces in group:
            rects = die_face_rects(game.templates[component.template], faces.card.fields, component.size) \
                if component.kind in DIE_KINDS else None
            if rects is not None:
                dice.append(_die(component, faces, rects, options.max_px, ext))
            else:
                tiles.append(_tile(component, faces, options.max_px, ext))
    return TtsPlan(decks, dice, tiles)


def _deck(component: Component, group: list[CardFaces], max_px: int, ext: str) -> TtsDeck:
    per_sheet = MAX_COLUMNS * MAX_ROWS - 1  # a distinct card a slot: copies share it, so a deck needs fewer pixels
    chunks = [group[start : start + per_sheet] for start in range(0, len(group), per_sheet)]
    grids = [sheet_grid(len(chunk) + 1, *component.size) for chunk in chunks]
    first = group[0].front
    cap = piece_dpi(component.kind, component.size)
    dpi = min(fit_dpi(columns, rows, component.size, first.bleed, max_px, cap) for columns, rows in grids)
    bleed_px = mm_to_px(first.bleed, dpi)
    cell = trimmed_cell(component.size, first.bleed, dpi)
    double_sided = component.back is not None and component.back.per_card
    shared_back = None if double_sided else group[0].back
    keys = {face: face_key(face) for f in group for face in (f.front, f.back) if face is not None}
    back_key = keys[shared_back] if shared_back is not None else "grey"
    sheets, back_sheets = [], []
    for number, (chunk, (columns, rows)) in enumerate(zip(chunks, grids, strict=False), start=1):
        fronts = [f.front for f in chunk]
        sheets.append(Sheet(f"{component.id}-sheet{number}-{len(chunk)}cards.{ext}", columns, rows, chunk,
                            _row_jobs(fronts, shared_back, columns, rows, dpi, cell, bleed_px, keys)))
        if double_sided:
            backs = [f.back for f in chunk]
            back_sheets.append(Sheet(f"{component.id}-backs{number}-{len(chunk)}cards.{ext}", columns, rows, chunk,
                                     _row_jobs(backs, None, columns, rows, dpi, cell, bleed_px, keys)))
    back_file = None if double_sided else f"{component.id}-back.{ext}"
    return TtsDeck(component, dpi, cell, bleed_px, sheets, back_sheets, shared_back, back_file, back_key)


def _row_jobs(faces: list, hidden: FaceLayout | None, columns: int, rows: int, dpi: int, cell: tuple[int, int],
              bleed_px: int, keys: dict) -> list[StripJob]:
    """One strip job per row of a sheet; the last row ends with the hidden card (None: grey)."""
    jobs: list = []
    hidden_key = keys[hidden] if hidden is not None else "grey"
    for row in range(rows):
        cells = faces[row * columns : (row + 1) * columns]
        last = row == rows - 1
        key = digest("tts-strip-from-pngs", dpi, cell, columns, [keys[c] for c in cells], hidden_key if last else None)
        jobs.append((key, [*cells, hidden] if last else cells,
                     functools.partial(_strip_arguments, cells=cells, hidden=hidden, last=last, columns=columns,
                                       cell=cell, bleed_px=bleed_px)))
    return jobs


def _strip_arguments(pngs: dict[FaceLayout, bytes], *, cells: list[FaceLayout], hidden: FaceLayout | None, last: bool,
                     columns: int, cell: tuple[int, int], bleed_px: int) -> tuple:
    """The arguments of pixels.tts_strip for one row, given the PNGs of the faces it shows."""
    distinct: list[FaceLayout | None] = list(dict.fromkeys(cells))
    hidden_index = None
    if last:
        distinct.append(hidden)  # None: the grey card
        hidden_index = len(distinct) - 1
    return ([None if face is None else pngs[face] for face in distinct], [distinct.index(face) for face in cells], cell,
            bleed_px, hidden_index, columns)


def _die(component: Component, faces: CardFaces, rects: list, max_px: int, ext: str) -> TtsDie:
    columns, rows = DIE_GRID
    smallest = min(min(w, h) for _, _, w, h in rects)
    side = min(max_px // columns, mm_to_px(smallest, PNG_DPI))
    dpi = max(1, round(side * MM_PER_INCH / smallest))
    faces_px = [(mm_to_px(x, PNG_DPI), mm_to_px(y, PNG_DPI), mm_to_px(w, PNG_DPI), mm_to_px(h, PNG_DPI))
                for x, y, w, h in rects]
    return TtsDie(component, faces, f"{component.id}-{faces.card.id}-die.{ext}", dpi,
                  mm_to_px(faces.front.bleed, PNG_DPI), faces_px, side)


def _tile(component: Component, faces: CardFaces, max_px: int, ext: str) -> TtsTile:
    dpi = fit_dpi(1, 1, component.size, faces.front.bleed, max_px)
    back = f"{component.id}-{faces.card.id}-back.{ext}" if faces.back is not None else None
    return TtsTile(component, faces, f"{component.id}-{faces.card.id}-front.{ext}", back, dpi,
                   trimmed_cell(component.size, faces.front.bleed, dpi), mm_to_px(faces.front.bleed, dpi))
