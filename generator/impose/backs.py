"""Cards with different backs never side by side on a sheet.

A home duplex printer is typically 0.5-2 mm off front to back, so a card whose neighbour has
another back would carry a stripe of that back: a marked card in a deck drawn blind. Cards are
grouped by back (in the order each back first appears), so most sheets hold one back. A sheet
that must hold more splits into regions, its columns, its rows or every cell, whose trims are
held twice the duplex tolerance apart, each face's bleed printed into its half of the gap.
Each sheet takes the layout that places the most cards; on a tie the one with fewest gaps. The
gaps then stay only where backs differ across them (impose/sheets.py lays the sheet out again).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spellpress.impose.grid import Grid, Slot
from spellpress.layout.ops import Item

Split = tuple[bool, bool]  # (columns apart, rows apart)
SPLITS: tuple[Split, ...] = ((False, False), (True, False), (False, True), (True, True))


@dataclass(frozen=True)
class Sheet:
    grid: Grid
    filled: tuple[tuple[Slot, Item], ...]
    split: Split = (False, False)

    def gaps_needed(self, gap: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """`gap` at each column boundary (left to right) and row boundary (bottom to top) where cells on either
        side hold different backs; 0 elsewhere. One-sided cards (no back) differ from nothing."""
        backs = {(slot.row, slot.col): item.back for slot, item in self.filled if item.back is not None}

        def differ(a, b) -> bool:
            return a in backs and b in backs and backs[a] != backs[b]

        cols, rows = self.grid.cols, self.grid.rows
        across = tuple(gap if any(differ((r, c), (r, c + 1)) for r in range(rows)) else 0.0 for c in range(cols - 1))
        down = tuple(gap if any(differ((r, c), (r + 1, c)) for c in range(cols)) else 0.0 for r in range(rows - 1))
        return across, down[::-1]  # rows count from the top, the grid's axis from the bottom


def by_back(items: list[Item]) -> list[list[Item]]:
    """The items grouped by back, groups in the order their back first appears, deck order inside."""
    groups: dict[object, list[Item]] = {}
    for item in items:
        groups.setdefault(item.back, []).append(item)
    return list(groups.values())


def regions(grid: Grid, split: Split) -> list[list[Slot]]:
    """The parts of a sheet that may each hold a different back, in filling order."""
    cols_apart, rows_apart = split
    if cols_apart and rows_apart:
        return [[slot] for slot in grid.slots]
    if cols_apart:
        return [[s for s in grid.slots if s.col == col] for col in range(grid.cols)]
    if rows_apart:
        return [[s for s in grid.slots if s.row == row] for row in range(grid.rows)]
    return [list(grid.slots)]


def _fill(parts: list[list[Slot]], groups: list[list[Item]], at: tuple[int, int]):
    """Cards from position `at` (group, index) into the regions, one group a region; a region whose group
    runs out leaves its other cells empty. The placements and the position after them."""
    group, index = at
    placed: list[tuple[Slot, Item]] = []
    for part in parts:
        if group >= len(groups):
            break
        for slot in part:
            placed.append((slot, groups[group][index]))
            index += 1
            if index == len(groups[group]):
                group, index = group + 1, 0
                break
    return placed, (group, index)


def pack(groups: list[list[Item]], grid_for: Callable[[Split], Grid | None]) -> list[Sheet]:
    """Sheets for the groups in order; `grid_for` gives the grid of each split (None: it does not fit)."""
    grids = [(split, grid) for split in (SPLITS if len(groups) > 1 else SPLITS[:1])
             if (grid := grid_for(split)) is not None]
    sheets = []
    at = (0, 0)
    while at[0] < len(groups):
        best = None
        for split, grid in grids:
            placed, after = _fill(regions(grid, split), groups, at)
            if best is None or len(placed) > len(best[2]):
                best = (split, grid, placed, after)
        assert best is not None and best[2], "the plain grid always fits (sheet_grid raised otherwise)"
        split, grid, placed, at = best
        sheets.append(Sheet(grid, tuple(placed), split))
    return sheets
