"""Pure geometry of a sheet: how many cards fit, where each sits, where the marks go.

All numbers are mm; the origin is the paper's bottom-left corner (PDF style).
A slot's (x, y) is its trim's bottom-left corner. `clip` is the part of the
face that may be inked: the trim plus bleed wherever no neighbour shares the
cut line.
"""

from __future__ import annotations

from dataclasses import dataclass

from spellpress.geometry import Box, Margins
from spellpress.model.modes import CutMode, DuplexMode

MARK_GAP = 0.5  # default offset: between the outermost bleed and a crop mark
MARK_LENGTH = 5.0  # the longest crop mark drawn by default; shorter where the sheet has no room
MIN_MARK = 2.0  # the shortest crop mark: shorter is hard to cut along
MARK_EDGE = 4.5  # no mark or label closer than this to the paper's edge (inkjets print to 3 mm of it, lasers 4.2 mm)
MIN_OUTER_BLEED = 1.0  # a sheet with no room trims its outer bleed, down to this, rather than drop a row
LABEL_ROOM = 3.5  # height of the sheet label's line


@dataclass(frozen=True)
class MarkStyle:
    length: float = MARK_LENGTH
    offset: float = MARK_GAP  # from the outermost bleed

    @property
    def room(self) -> float:
        """The least paper a crop mark needs between the ink and the paper's edge (a shortest mark)."""
        return self.offset + min(self.length, MIN_MARK) + MARK_EDGE


@dataclass(frozen=True)
class Slot:
    row: int  # 0 is the top row, as a person reads the sheet
    col: int  # 0 is the left column
    x: float
    y: float
    w: float
    h: float
    clip: tuple[float, float, float, float]
    rotation: int = 0  # degrees; 180 for fold-over backs


@dataclass(frozen=True)
class Grid:
    paper: tuple[float, float]
    cols: int
    rows: int
    slots: tuple[Slot, ...]  # row by row, left to right
    bleed: float
    cut: CutMode

    @property
    def capacity(self) -> int:
        return self.cols * self.rows


@dataclass(frozen=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float


class FitError(ValueError):
    pass


Apart = float | tuple[float, ...]  # the least distance between neighbours' trims: one for all, or one a boundary


def fit_grid(
    paper: tuple[float, float],
    card: tuple[float, float],
    *,
    bleed: float,
    margin: float,
    cut: CutMode = "shared",
    gutter: float = 0.0,
    area: Box | None = None,
    room: Margins | None = None,
    apart: tuple[Apart, Apart] = (0.0, 0.0),
) -> Grid:
    """The largest grid of `card` on `paper` with its whole bleed, centred in `area` (the whole sheet by
    default).

    `room` is the least paper kept free between the ink and the area's edges, for marks and the
    label; `margin` on every side by default. `apart` holds neighbouring
    columns' and rows' trims at least that far apart (impose/backs.py; see fit_axis).
    """
    width, height = paper
    ax, ay, aw, ah = area if area is not None else Box(0.0, 0.0, width, height)
    left_room, right_room, bottom_room, top_room = room if room is not None else Margins.even(margin)
    along = fit_axis(ax, ax + aw, card[0], bleed=bleed, cut=cut, gutter=gutter, need=(left_room, right_room),
                     apart=apart[0], trim=False)
    up = fit_axis(ay, ay + ah, card[1], bleed=bleed, cut=cut, gutter=gutter, need=(bottom_room, top_room),
                  apart=apart[1], trim=False)
    if along is None or up is None:
        free_w, free_h = aw - left_room - right_room, ah - bottom_room - top_room
        raise FitError(
            f"a {card[0]:g} x {card[1]:g} mm card with {bleed:g} mm bleed does not fit on {width:g} x {height:g} mm paper, "
            f"which leaves {max(free_w, 0):.1f} x {max(free_h, 0):.1f} mm for cards inside its margins, marks and label"
        )
    return _grid(paper, card, along, up, bleed, cut)


def mirror(slot: Slot, paper: tuple[float, float], mode: DuplexMode, offset: tuple[float, float] = (0.0, 0.0)) -> Slot:
    """Where the back of `slot` goes so that it lands behind the front after the sheet is turned.

    duplex-long: the sheet turns about its long (vertical) edge, so x mirrors.
    duplex-short: it turns about its short edge, so y mirrors.
    The printer's measured back offset (dx, dy) is added to the back.
    """
    width, height = paper
    dx, dy = offset
    cx, cy, cw, ch = slot.clip
    if mode == "duplex-long":
        x, clip_x = width - slot.x - slot.w, width - cx - cw
        return Slot(slot.row, slot.col, x + dx, slot.y + dy, slot.w, slot.h, (clip_x + dx, cy + dy, cw, ch))
    if mode == "duplex-short":
        y, clip_y = height - slot.y - slot.h, height - cy - ch
        return Slot(slot.row, slot.col, slot.x + dx, y + dy, slot.w, slot.h, (cx + dx, clip_y + dy, cw, ch))
    raise ValueError(mode)


def fold_back(slot: Slot, fold_y: float) -> Slot:
    """The back's slot for fold-over sheets: mirrored across the fold line, turned 180 degrees."""
    cx, cy, cw, ch = slot.clip
    y = 2 * fold_y - slot.y - slot.h
    return Slot(slot.row, slot.col, slot.x, y, slot.w, slot.h, (cx, 2 * fold_y - cy - ch, cw, ch), rotation=180)


def cut_lines(slots: tuple[Slot, ...]) -> tuple[list[float], list[float]]:
    """The distinct x positions of vertical cuts and y positions of horizontal cuts."""
    xs = sorted({round(v, 4) for s in slots for v in (s.x, s.x + s.w)})
    ys = sorted({round(v, 4) for s in slots for v in (s.y, s.y + s.h)})
    return xs, ys


def crop_marks(slots: tuple[Slot, ...], paper: tuple[float, float], style: MarkStyle = MarkStyle()) -> list[Segment]:
    """Marks on every cut line, outside all inked areas, on each side of the sheet with room for one:
    `style.length` long where the paper allows, shorter where it does not (down to MIN_MARK),
    never closer than MARK_EDGE to the paper's edge."""
    if not slots:
        return []
    width, height = paper
    ink_left = min(s.clip[0] for s in slots)
    ink_right = max(s.clip[0] + s.clip[2] for s in slots)
    ink_bottom = min(s.clip[1] for s in slots)
    ink_top = max(s.clip[1] + s.clip[3] for s in slots)
    xs, ys = cut_lines(slots)
    gap = style.offset

    def length(room: float) -> float:
        """The mark that fits in `room` mm between the ink and the paper's edge; 0 when none does."""
        fits = min(style.length, room - gap - MARK_EDGE)
        return fits if fits >= min(style.length, MIN_MARK) - 1e-9 else 0.0

    top, bottom = length(height - ink_top), length(ink_bottom)
    left, right = length(ink_left), length(width - ink_right)
    marks: list[Segment] = []
    for x in xs:
        if top:
            marks.append(Segment(x, ink_top + gap, x, ink_top + gap + top))
        if bottom:
            marks.append(Segment(x, ink_bottom - gap, x, ink_bottom - gap - bottom))
    for y in ys:
        if left:
            marks.append(Segment(ink_left - gap, y, ink_left - gap - left, y))
        if right:
            marks.append(Segment(ink_right + gap, y, ink_right + gap + right, y))
    return marks


def fold_marks(slots: tuple[Slot, ...], paper: tuple[float, float], fold_y: float) -> list[Segment]:
    """The fold line, marked in the side margins only so that it never crosses a face: from MARK_EDGE in
    to MARK_GAP short of the ink, on each side with room for MIN_MARK (a side whose ink comes closer to
    the edge has none)."""
    width = paper[0]
    ink_left = min(s.clip[0] for s in slots)
    ink_right = max(s.clip[0] + s.clip[2] for s in slots)
    sides = (Segment(MARK_EDGE, fold_y, ink_left - MARK_GAP, fold_y),
             Segment(ink_right + MARK_GAP, fold_y, width - MARK_EDGE, fold_y))
    return [mark for mark in sides if mark.x2 - mark.x1 >= MIN_MARK - 1e-9]


@dataclass(frozen=True)
class Axis:
    """Cards along one direction of the sheet."""

    count: int
    start: float  # the first card's trim edge, from the paper's low edge (left or bottom)
    outer: tuple[float, float]  # the bleed kept outside the first and the last card
    gaps: tuple[float, ...] = ()  # between neighbours' trims, low to high: 0 where they share a cut line

    def position(self, index: int, card: float) -> float:
        """The trim edge of card `index` (from the low end)."""
        return self.start + index * card + sum(self.gaps[:index])


def fit_axis(low: float, high: float, card: float, *, bleed: float, cut: CutMode, gutter: float,
             need: tuple[float, float], apart: Apart = 0.0, trim: bool = True) -> Axis | None:
    """The most cards of `card` mm between `low` and `high`, keeping `need` mm of paper beyond the
    outer bleed at each end. The outer bleed shrinks (to MIN_OUTER_BLEED; not at all unless `trim`)
    where that makes room for one more card; what is left is shared equally, bleed first. Neighbours'
    trims are at least `apart` mm apart; a tuple gives each boundary its own and fixes the count.
    None when not one card (or not the count) fits."""
    smallest = min(bleed, MIN_OUTER_BLEED) if trim else bleed
    room = high - low - need[0] - need[1] - 2 * smallest
    base = 0.0 if cut == "shared" else 2 * bleed + gutter  # between neighbours' trims
    if isinstance(apart, tuple):
        gaps = tuple(max(base, gap) for gap in apart)
        count = len(gaps) + 1
        if count * card + sum(gaps) > room + 1e-9:
            return None
    else:
        inner = max(base, apart)
        count = int((room + inner + 1e-9) // (card + inner))
        if count < 1:
            return None
        gaps = (inner,) * (count - 1)
    extent = count * card + sum(gaps)
    spare = (high - low - need[0] - need[1] - extent) / 2  # at each end, for the outer bleed and more room
    outer = min(bleed, spare)
    return Axis(count, low + need[0] + spare, (outer, outer), gaps)


def best_grid(
    paper: tuple[float, float],
    card: tuple[float, float],
    *,
    bleed: float,
    margin: float,
    cut: CutMode = "shared",
    gutter: float = 0.0,
    area: Box | None = None,
    marks: MarkStyle | None = MarkStyle(),
    fold: bool = False,
    apart: tuple[Apart, Apart] = (0.0, 0.0),
) -> Grid:
    """The grid holding the most cards with room for crop marks (unless `marks` is None) at least
    MIN_MARK long and MARK_EDGE from the paper's edge, trimming the outer bleed where that saves a row
    or column. Marks go on both sides of the cards when that costs no card, else on the left and bottom
    only (one mark per cut line is enough on a paper trimmer, whose fence squares the cut). On a
    fold-over sheet the bottom of `area` is the fold, which needs only the margin. The sheet label
    keeps no room of its own: it goes where the cards leave some (write/pdf.py), or is left out.
    `apart` holds neighbouring columns' and rows' trims at least that far apart (impose/backs.py)."""
    width, height = paper
    ax, ay, aw, ah = area if area is not None else Box(0.0, 0.0, width, height)
    marked = max(margin, marks.room) if marks is not None else margin
    # a side without marks still keeps its outermost cut line MARK_EDGE in: the line is marked at its ends
    bare = max(margin, MARK_EDGE - min(bleed, MIN_OUTER_BLEED)) if marks is not None else margin
    found = []
    for right, top in ((marked, marked), (bare, marked), (marked, bare), (bare, bare)):
        bottom = margin if fold else marked
        along = fit_axis(ax, ax + aw, card[0], bleed=bleed, cut=cut, gutter=gutter, need=(marked, right), apart=apart[0])
        up = fit_axis(ay, ay + ah, card[1], bleed=bleed, cut=cut, gutter=gutter, need=(bottom, top), apart=apart[1])
        if along is not None and up is not None:
            found.append((along.count * up.count, along, up))
        if marks is None:
            break
    if not found:
        raise FitError(
            f"a {card[0]:g} x {card[1]:g} mm card with {bleed:g} mm bleed does not fit on {width:g} x {height:g} mm paper "
            f"with {marked:g} mm kept at its edges for margins and marks"
        )
    most = max(count for count, _, _ in found)
    _, along, up = next(choice for choice in found if choice[0] == most)  # the first: marks on every side
    return _grid(paper, card, along, up, bleed, cut)


def _grid(paper, card, along: Axis, up: Axis, bleed: float, cut: CutMode) -> Grid:
    """The slots; between neighbours held apart each face's bleed fills its half of the gap."""
    cw, ch = card
    cols, rows = along.count, up.count
    slots = []
    for row in range(rows):
        for col in range(cols):
            up_index = rows - 1 - row  # rows count from the top, the axis from the bottom
            x, y = along.position(col, cw), up.position(up_index, ch)
            left = along.outer[0] if col == 0 else min(bleed, along.gaps[col - 1] / 2)
            right = along.outer[1] if col == cols - 1 else min(bleed, along.gaps[col] / 2)
            bottom = up.outer[0] if up_index == 0 else min(bleed, up.gaps[up_index - 1] / 2)
            top = up.outer[1] if up_index == rows - 1 else min(bleed, up.gaps[up_index] / 2)
            slots.append(Slot(row, col, x, y, cw, ch, (x - left, y - bottom, cw + left + right, ch + bottom + top)))
    return Grid(paper, cols, rows, tuple(slots), bleed, cut)
