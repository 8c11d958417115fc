"""Where a line of text actually puts ink: each glyph's outline bounds from the font file.

Layout places text by advance widths and the font's ascent and descent; a glyph may
draw beyond them (a Q's tail, an italic f's hook, an accent). These functions say by
how much a laid-out line's ink leaves its box.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from generator.layout import fonts
from generator.layout.ops import Text
from generator.units import MM_PER_POINT

Bounds = tuple[float, float, float, float]  # left, bottom, right, top in mm (y up)


@lru_cache(maxsize=64)
def glyph_bounds(path: Path) -> tuple[dict[int, tuple[int, int, int, int] | None], int]:
    """Per character: its glyph's (xMin, yMin, xMax, yMax) in font units (None: draws nothing); units per em."""
    from fontTools.ttLib import TTFont  # only when text is laid out

    with TTFont(str(path), lazy=True) as font:
        glyf = font["glyf"]
        bounds = {}
        for code, name in font.getBestCmap().items():
            glyph = glyf[name]
            bounds[code] = (glyph.xMin, glyph.yMin, glyph.xMax, glyph.yMax) if glyph.numberOfContours else None
        return bounds, font["head"].unitsPerEm


def text_ink(op: Text) -> Bounds | None:
    """The ink of one run of text, or None when it draws nothing (spaces) or its font is built in."""
    path = fonts.font_file(op.font)
    if path is None:
        return None
    bounds, units = glyph_bounds(path)
    scale = op.size_pt / units * MM_PER_POINT
    pen = op.x
    left = bottom = float("inf")
    right = top = float("-inf")
    for char in op.text:
        glyph = bounds.get(ord(char))
        if glyph is not None:
            x_min, y_min, x_max, y_max = glyph
            left, right = min(left, pen + x_min * scale), max(right, pen + x_max * scale)
            bottom, top = min(bottom, op.y + y_min * scale), max(top, op.y + y_max * scale)
        pen += fonts.width(char, op.font, op.size_pt) * MM_PER_POINT
    return None if left == float("inf") else (left, bottom, right, top)


def overflow(ops: tuple, box: tuple[float, float, float, float]) -> tuple[float, str]:
    """How far (mm) the text ops' ink reaches past the box (x, y, w, h; y up), and past which side."""
    x, y, w, h = box
    worst, side = 0.0, ""
    for op in ops:
        if not isinstance(op, Text):
            continue
        ink = text_ink(op)
        if ink is None:
            continue
        left, bottom, right, top = ink
        for excess, name in ((x - left, "left"), (y - bottom, "bottom"),
                             (right - (x + w), "right"), (top - (y + h), "top")):
            if excess > worst:
                worst, side = excess, name
    return worst, side
