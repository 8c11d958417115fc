"""Plan the pages: which face goes in which slot of which sheet, fronts and backs."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import groupby

from spellpress.impose.grid import (
    LABEL_ROOM, FitError, Grid, MarkStyle, Segment, Slot, best_grid, crop_marks, fit_grid, fold_back, mirror,
)
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

    def __post_init__(self) -> None:
        checked(CutMode, self.cut, "cut")
        checked(BackMode, self.backs, "back mode")
        checked(MarkMode, self.marks, "marks")


def sheet_grid(size: tuple[float, float], settings: SheetSettings, fold: bool = False) -> Grid:
    """The grid cards of `size` take on a sheet; FitError when not even one fits."""
    width, height = settings.paper
    area = None
    if fold:
        # fronts use the top half; the fold line needs its own margin on each side
        area = (0.0, height / 2, width, height / 2)
    if settings.marks == "cutter":
        room = cutter_room()
        return fit_grid(settings.paper, size, bleed=settings.bleed, margin=settings.margin, cut=settings.cut,
                        gutter=settings.gutter, area=area,
                        room=(room, room, settings.margin if fold else room, room + LABEL_ROOM))
    return best_grid(settings.paper, size, bleed=settings.bleed, margin=settings.margin, cut=settings.cut,
                     gutter=settings.gutter, area=area, marks=settings.mark_style if settings.marks == "crop" else None,
                     fold=fold)


UNCUT_KINDS = ("sheet", "board")  # printed whole: a cutting machine has nothing to cut


def _settings_for(group: list[Item], settings: SheetSettings) -> SheetSettings:
    """A group of score sheets or boards gets crop marks where the cards get a cutter's registration marks."""
    if settings.marks == "cutter" and all(item.kind in UNCUT_KINDS for item in group):
        return replace(settings, marks="crop")
    return settings


def plan_pages(items: list[Item], settings: SheetSettings, title: str = "") -> list[Page]:
    """Sheets in order: cards grouped by size in order of first appearance."""
    pages: list[Page] = []
    order = {size: index for index, size in reversed(list(enumerate(item.size for item in items)))}
    ordered = sorted(items, key=lambda item: order[item.size])  # stable: keeps the deck order
    for size, group in groupby(ordered, key=lambda item: item.size):
        group_items = list(group)
        group_settings = _settings_for(group_items, settings)
        # fold-over halves the sheet; cards with no back (a score pad) use the whole sheet
        fold = settings.backs == "fold" and any(item.back is not None for item in group_items)
        grid = sheet_grid(size, group_settings, fold)
        for start in range(0, len(group_items), grid.capacity):
            chunk = group_items[start : start + grid.capacity]
            pages.extend(_sheet(chunk, grid, group_settings, fold))
    total = sum(1 for page in pages if page.kind != "backs")
    sheet = 0
    for page in pages:
        if page.kind != "backs":
            sheet += 1
        components = sorted({p.item.component for p in page.placed})
        page.label = f"{title} · {', '.join(components)} · sheet {sheet} of {total} · {page.kind} · print at actual size (100%)"
    return pages


def _sheet(chunk: list[Item], grid: Grid, settings: SheetSettings, fold: bool) -> list[Page]:
    paper = settings.paper
    fronts = Page("fold" if fold else "fronts", paper)
    fronts.placed = [Placed(slot, item.front, item, "front") for slot, item in zip(grid.slots, chunk)]
    if fold:
        fold_y = paper[1] / 2
        fronts.fold_y = fold_y
        fronts.placed += [
            Placed(fold_back(slot, fold_y), item.back, item, "back")
            for slot, item in zip(grid.slots, chunk) if item.back is not None
        ]
    slots = tuple(p.slot for p in fronts.placed)
    if settings.marks == "crop":
        fronts.marks = crop_marks(slots, paper, settings.mark_style)
    fronts.decor = Decor(
        lines=full_cut_lines(slots, paper) if settings.marks == "lines" else (),
        guides=corner_guides(slots, settings.corner_radius),
        rects=cutter_marks(paper) if settings.marks == "cutter" else (),
        weight_pt=settings.mark_weight,
        label_baseline=paper[1] - cutter_room() - 2.5 if settings.marks == "cutter" else None,
    )
    if settings.backs not in ("duplex-long", "duplex-short"):
        return [fronts]
    backs = Page("backs", paper)
    backs.placed = [
        Placed(mirror(slot, paper, settings.backs, settings.back_offset), item.back, item, "back")
        for slot, item in zip(grid.slots, chunk) if item.back is not None
    ]
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
