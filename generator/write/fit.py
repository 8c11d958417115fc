"""Cards scaled to fit a pixel limit: the resolution at which a grid of trimmed cards fits."""

from __future__ import annotations

import math

from spellpress.units import MM_PER_INCH, mm_to_px

MAX_DPI = 300  # the resolution faces are rasterized at: never scaled up
SMALL_PIECE_KINDS = frozenset({"tile", "token"})
MIN_PIECE_PX = 512  # a small tile or token's longer side on a digital table, at least


def piece_dpi(kind: str, size: tuple[float, float]) -> int:
    """The resolution a component is drawn at for a digital table: its print size at 300 dpi, or, for
    a small tile or token, 512 px on its longer side when that is more (a 20 mm token: 650 dpi)."""
    if kind not in SMALL_PIECE_KINDS:
        return MAX_DPI
    return max(MAX_DPI, math.ceil(MIN_PIECE_PX * MM_PER_INCH / max(size)))


def fit_dpi(columns: int, rows: int, size: tuple[float, float], bleed: float, max_px: int, cap: int = MAX_DPI) -> int:
    """The highest resolution (at most `cap`, 300 dpi by default) at which `columns` x `rows` trimmed cards fit in `max_px`."""
    width, height = size

    def fits(dpi: int) -> bool:
        cell_w, cell_h = trimmed_cell(size, bleed, dpi)
        return columns * cell_w <= max_px and rows * cell_h <= max_px

    # from the estimate by the trim size, a step or two either way: pixels are rounded
    dpi = max(1, min(cap, int(max_px * MM_PER_INCH / (columns * width)), int(max_px * MM_PER_INCH / (rows * height))))
    while dpi < cap and fits(dpi + 1):
        dpi += 1
    while dpi > 1 and not fits(dpi):
        dpi -= 1
    return dpi


def trimmed_cell(size: tuple[float, float], bleed: float, dpi: int) -> tuple[int, int]:
    """A face's pixels at `dpi` once its bleed is cut off (as pixels.trimmed cuts it)."""
    bleed_px = mm_to_px(bleed, dpi)
    return mm_to_px(size[0] + 2 * bleed, dpi) - 2 * bleed_px, mm_to_px(size[1] + 2 * bleed, dpi) - 2 * bleed_px
