"""Plan the pages: which face goes in which slot of which sheet, fronts and backs."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from itertools import groupby

from spellpress.geometry import Box, Margins
from spellpress.impose.backs import Sheet, Split, by_back, pack
from spellpress.impose.grid import (
    LABEL_ROOM,
    Apart,
    FitError,
    Grid,
    MarkStyle,
    Segment,
    Slot,
    best_grid,
    crop_marks,
    fit_grid,
    fold_back,
    mirror,
)
from spellpress.impose.label import LabelSpot, label_spot
from spellpress.impose.marks import Decor, corner_guides, cutter_marks, cutter_room, full_cut_lines
from spellpress.layout.ops import FaceLayout, Item
from spellpress.model.modes import BackMode, CutMode, MarkMode, checked


@dataclass(frozen=True)
class Placed:
    slot: Slot
    face: FaceLayout
    item: Item
    side: str  # "front" or "back"


@dataclass
class Page:
    kind: str  # "fronts", "backs" or "fold"
    paper: tuple[float, float]
    placed: list[Placed] = field(default_factory=list)
    marks: list[Segment] = field(default_factory=list)
    fold_y: float | None = None
    label: str = ""
    decor: Decor = Decor()


@dataclass(frozen=True)
class SheetSettings:
    paper: tuple[float, float]
    bleed: float
    margin: float
    cut: CutMode
    gutter: float
    backs: BackMode
    back_offset: tuple[float, float]
    mark_style: MarkStyle = MarkStyle()
    marks: MarkMode = "crop"
    mark_weight: float = 0.25  # points
    corner_radius: float = 0.0  # rounded-corner guides (0: none)
    duplex_tolerance: float = 2.0  # how far a printer may put backs off their fronts: different backs stay twice this apart

    def __post_init__(self) -> None:
        checked(CutMode, self.cut, "cut")
        checked(BackMode, self.backs, "back mode")
        checked(MarkMode, self.marks, "marks")


def print_settings(settings, *, paper=None, bleed=None, backs=None, back_offset=None, marks=None) -> SheetSettings:
    """A game's `print:` settings (model/game.PrintSettings) as sheet geometry; each keyword, when given, overrides."""
    from spellpress.model.sizes import PAPER_SIZES

    return SheetSettings(
        paper=PAPER_SIZES[paper or settings.paper],
        bleed=settings.bleed if bleed is None else bleed,
        margin=settings.margin,
        cut=settings.cut,
        gutter=settings.gutter,
        backs=backs or settings.backs,
        back_offset=back_offset if back_offset is not None else settings.back_offset,
        mark_style=MarkStyle(length=settings.mark_length, offset=settings.mark_offset),
        marks=marks or settings.marks or ("crop" if settings.crop_marks else "none"),
        mark_weight=settings.mark_weight,
        corner_radius=settings.corner_radius,
        duplex_tolerance=settings.duplex_tolerance,
    )


def sheet_grid(size: tuple[float, float], settings: SheetSettings, fold: bool = False, split: Split = (False, False)) -> Grid:
    """The grid cards of `size` take on a sheet; FitError when not even one fits. A fold-over sheet turns
    landscape when that holds more (four poker cards where portrait holds three). `split` holds columns
    or rows apart by twice the duplex tolerance (impose/backs.py)."""
    gap = 2 * settings.duplex_tolerance
    apart = (gap if split[0] else 0.0, gap if split[1] else 0.0)
    if not fold or settings.marks == "cutter":
        return _sheet_grid(size, settings, fold, apart)
    grids = []
    for paper in (settings.paper, settings.paper[::-1]):
        try:
            grids.append(_sheet_grid(size, replace(settings, paper=paper), fold, apart))
        except FitError:
            pass
    if not grids:
        return _sheet_grid(size, settings, fold, apart)  # raises the portrait sheet's FitError
    return max(grids, key=lambda grid: grid.capacity)  # the first, portrait, on a tie


def _sheet_grid(size: tuple[float, float], settings: SheetSettings, fold: bool, apart: tuple[Apart, Apart]) -> Grid:
    width, height = settings.paper
    area: Box | None = None
    if fold:
        # fronts use the top half; the fold line needs its own margin on each side
        area = Box(0.0, height / 2, width, height / 2)
    if settings.marks == "cutter":
        room = cutter_room()
        return fit_grid(settings.paper, size, bleed=settings.bleed, margin=settings.margin, cut=settings.cut,
                        gutter=settings.gutter, area=area, apart=apart,
                        room=Margins(left=room, right=room, bottom=settings.margin if fold else room, top=room + LABEL_ROOM))
    return best_grid(settings.paper, size, bleed=settings.bleed, margin=settings.margin, cut=settings.cut,
                     gutter=settings.gutter, area=area, marks=settings.mark_style if settings.marks == "crop" else None,
                     fold=fold, apart=apart)


def capacity_note(size: tuple[float, float], settings: SheetSettings, fold: bool = False) -> str:
    """How many cards of `size` a sheet holds, whether their outer bleed is trimmed, and what
    --marks none or --bleed 0 would hold when that is more: for the build's summary."""
    grid = sheet_grid(size, settings, fold)
    slots = grid.slots
    outer = min(min(s.x for s in slots) - min(s.clip[0] for s in slots),
                min(s.y for s in slots) - min(s.clip[1] for s in slots),
                max(s.clip[0] + s.clip[2] for s in slots) - max(s.x + s.w for s in slots),
                max(s.clip[1] + s.clip[3] for s in slots) - max(s.y + s.h for s in slots))
    turned = ", landscape" if grid.paper != settings.paper else ""
    note = f"{size[0]:g} x {size[1]:g} mm: {grid.capacity} a sheet ({grid.cols} x {grid.rows}{turned})"
    if outer < settings.bleed - 1e-6:
        note += f", outer bleed trimmed to {outer:.1f} mm"
    better = []
    for option, changed in (("--marks none", replace(settings, marks="none")),
                            ("--bleed 0", replace(settings, bleed=0.0))):
        try:
            more = sheet_grid(size, changed, fold).capacity
        except FitError:
            continue
        if more > grid.capacity and changed != settings:
            better.append(f"{option} would give {more}")
    return note + (f" ({'; '.join(better)})" if better else "")


UNCUT_KINDS = ("sheet", "board")  # printed whole: a cutting machine has nothing to cut


def settings_for(kinds, settings: SheetSettings) -> SheetSettings:
    """A group of score sheets or boards gets crop marks where the cards get a cutter's registration marks."""
    if settings.marks == "cutter" and all(kind in UNCUT_KINDS for kind in kinds):
        return replace(settings, marks="crop")
    return settings


def plan_pages(items: list[Item], settings: SheetSettings, title: str = "") -> list[Page]:
    """Sheets in order: cards grouped by size in order of first appearance, then by back (impose/backs.py)."""
    pages: list[Page] = []
    order = {size: index for index, size in reversed(list(enumerate(item.size for item in items)))}
    ordered = sorted(items, key=lambda item: order[item.size])  # stable: keeps the deck order
    for size, group in groupby(ordered, key=lambda item: item.size):
        group_items = list(group)
        group_settings = settings_for([item.kind for item in group_items], settings)
        # fold-over halves the sheet; cards with no back (a score pad) use the whole sheet
        fold = settings.backs == "fold" and any(item.back is not None for item in group_items)
        sheet_grid(size, group_settings, fold)  # FitError when not one card fits
        backs_printed = settings.backs != "none" and any(item.back is not None for item in group_items)
        groups = by_back(group_items) if backs_printed else [group_items]
        for packed in pack(groups, partial(_grid_or_none, size, group_settings, fold)):
            grid, filled = _gaps_where_needed(packed, size, group_settings, fold)
            pages.extend(_sheet(filled, grid, group_settings, fold))
    total = sum(1 for page in pages if page.kind != "backs")
    sheet = 0
    components: list[str] = []
    for page in pages:
        if page.kind != "backs":
            sheet += 1
            components = sorted({p.item.component for p in page.placed})
        # a backs page is named for its sheet's fronts, even when blank (one-sided parts)
        kind = "backs (blank)" if page.kind == "backs" and not page.placed else page.kind
        page.label = f"{title} · {', '.join(components)} · sheet {sheet} of {total} · {kind} · print at actual size (100%)"
    return pages


def _grid_or_none(size, settings: SheetSettings, fold: bool, split: Split) -> Grid | None:
    try:
        return sheet_grid(size, settings, fold, split)
    except FitError:
        return None


def _gaps_where_needed(packed: Sheet, size, settings: SheetSettings, fold: bool) -> tuple[Grid, list[tuple[Slot, Item]]]:
    """The packed sheet laid out again with gaps only between different backs: more bleed and room for marks,
    and one cut where neighbours share their back."""
    if packed.split == (False, False):
        return packed.grid, list(packed.filled)
    apart = packed.gaps_needed(2 * settings.duplex_tolerance)
    try:
        grid = _sheet_grid(size, replace(settings, paper=packed.grid.paper), fold, apart)
    except FitError:  # fewer gaps always fit where more did; kept as packed should rounding say otherwise
        return packed.grid, list(packed.filled)
    slots = {(slot.row, slot.col): slot for slot in grid.slots}
    return grid, [(slots[slot.row, slot.col], item) for slot, item in packed.filled]


def _sheet(filled: list[tuple[Slot, Item]], grid: Grid, settings: SheetSettings, fold: bool) -> list[Page]:
    paper = grid.paper
    fronts = Page("fold" if fold else "fronts", paper)
    fronts.placed = [Placed(slot, item.front, item, "front") for slot, item in filled]
    if fold:
        fold_y = paper[1] / 2
        fronts.fold_y = fold_y
        fronts.placed += [
            Placed(fold_back(slot, fold_y), item.back, item, "back")
            for slot, item in filled if item.back is not None
        ]
    slots = tuple(p.slot for p in fronts.placed)
    if settings.marks == "crop":
        fronts.marks = crop_marks(slots, paper, settings.mark_style)
    lines = full_cut_lines(slots, paper) if settings.marks == "lines" else ()
    label: LabelSpot | None
    if settings.marks == "cutter":  # inside the registration marks, above the cards
        label = LabelSpot(paper[0] / 2, paper[1] - cutter_room() - 2.5, 0, paper[0] - 2 * cutter_room())
    else:
        fold_line = (fronts.fold_y,) if fronts.fold_y is not None else ()
        label = label_spot(paper, slots, tuple(fronts.marks) + lines, avoid_y=fold_line)
    fronts.decor = Decor(
        lines=lines,
        guides=corner_guides(slots, settings.corner_radius),
        rects=cutter_marks(paper) if settings.marks == "cutter" else (),
        weight_pt=settings.mark_weight,
        label=label,
    )
    if settings.backs not in ("duplex-long", "duplex-short"):
        return [fronts]
    backs = Page("backs", paper)
    backs.placed = [
        Placed(mirror(slot, paper, settings.backs, settings.back_offset), item.back, item, "back")
        for slot, item in filled if item.back is not None
    ]
    backs.decor = Decor(weight_pt=settings.mark_weight,
                        label=label_spot(paper, tuple(p.slot for p in backs.placed)))
    for placed in backs.placed:
        if not _on_paper((placed.slot.x, placed.slot.y, placed.slot.w, placed.slot.h), paper):
            dx, dy = settings.back_offset
            raise FitError(
                f"the back offset ({dx:g}, {dy:g}) mm moves backs off the {paper[0]:g} x {paper[1]:g} mm paper; "
                "a printer's offset is a few mm (measure it with spellpress calibrate)"
            )
    return [fronts, backs]


def _on_paper(trim: tuple[float, float, float, float], paper: tuple[float, float]) -> bool:
    x, y, w, h = trim
    return x >= -1e-6 and y >= -1e-6 and x + w <= paper[0] + 1e-6 and y + h <= paper[1] + 1e-6
