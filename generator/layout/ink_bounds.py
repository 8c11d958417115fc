"""Where a line of text actually puts ink: each glyph's outline bounds from the font file.

Layout places text by advance widths and the font's ascent and descent; a glyph may
draw beyond them (a Q's tail, an italic f's hook, an accent). These functions say by
how much a laid-out line's ink leaves its box.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import assert_never

from reportlab.pdfbase import pdfmetrics

from spellpress.layout import fonts
from spellpress.layout.ops import Drawn, Ellipse, Fill, Grid, Icon, Image, Line, Op, Rect, Text
from spellpress.layout.svg import icon_ink
from spellpress.layout.walk import walk
from spellpress.units import MM_PER_POINT

Bounds = tuple[float, float, float, float]  # left, bottom, right, top in mm (y up)


class GlyphBounds:
    """A font's glyph outline bounds, read per character on first use from the font reportlab
    has already parsed: each glyph's record in the 'glyf' table starts with its bounds."""

    def __init__(self, font_name: str):
        face = pdfmetrics.getFont(font_name).face
        self.units_per_em = face.unitsPerEm
        self._data = face._ttf_data
        self._glyf = face.table["glyf"]["offset"]
        self._offsets = face.glyphPos  # 'loca': where each glyph's record starts and ends in 'glyf'
        self._glyph_of = face.charToGlyph
        self._bounds: dict[int, tuple[int, int, int, int] | None] = {}

    def get(self, code: int) -> tuple[int, int, int, int] | None:
        """The glyph's (xMin, yMin, xMax, yMax) in font units, or None when it draws nothing or is missing."""
        try:
            return self._bounds[code]
        except KeyError:
            pass
        found = None
        glyph = self._glyph_of.get(code)
        if glyph is not None and glyph + 1 < len(self._offsets):
            start, end = self._offsets[glyph], self._offsets[glyph + 1]
            record = self._data[self._glyf + start : self._glyf + start + 10]
            if end - start >= 10 and len(record) == 10:  # an empty record: a glyph without outlines (a space)
                contours, *bounds = struct.unpack(">hhhhh", record)
                found = tuple(bounds) if contours else None
        self._bounds[code] = found
        return found


@lru_cache(maxsize=64)
def glyph_bounds(font_name: str) -> GlyphBounds:
    return GlyphBounds(font_name)


def text_ink(op: Text) -> Bounds | None:
    """The ink of one run of text, or None when it draws nothing (spaces) or its font is built in."""
    if fonts.font_file(op.font) is None:
        return None
    bounds = glyph_bounds(op.font)
    scale = op.size_pt / bounds.units_per_em * MM_PER_POINT
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
        if not isinstance(op, Text) or _inside_for_sure(op, box):
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


def _inside_for_sure(op: Text, box: tuple[float, float, float, float]) -> bool:
    """True when the run's ink cannot leave the box, judged from the extremes of its distinct letters'
    outlines without walking it letter by letter (text_ink): its pen starts at op.x and only moves right,
    and ends by the run's advance width. A run this says True of would add no excess above 0 in
    `overflow`, so skipping it changes no result; it spares a 5,000-character card most of its walk."""
    if fonts.font_file(op.font) is None:
        return True  # text_ink has no outlines for a built-in font either
    found = [extent for char in set(op.text) if (extent := _letter_extent(op.font, op.size_pt, char)) is not None]
    if not found:
        return True
    lefts, bottoms, overhangs, tops = zip(*found, strict=False)
    x, y, w, h = box
    right = op.x + fonts.width(op.text, op.font, op.size_pt) * MM_PER_POINT + max(max(overhangs), 0.0)
    return op.x + min(lefts) >= x and op.y + min(bottoms) >= y and right + 1e-6 <= x + w and op.y + max(tops) <= y + h


@lru_cache(maxsize=256)
def _letter_extents(font: str, size_pt: float) -> dict[str, tuple[float, float, float, float] | None]:
    return {}


def _letter_extent(font: str, size_pt: float, char: str) -> tuple[float, float, float, float] | None:
    """A letter's ink at this size, in mm from its pen on the baseline: left, bottom, how far its ink ends past
    its advance (its overhang), top; None when it draws nothing. Remembered per font and size."""
    extents = _letter_extents(font, size_pt)
    if char not in extents:
        bounds = glyph_bounds(font)
        glyph = bounds.get(ord(char))
        scale = size_pt / bounds.units_per_em * MM_PER_POINT
        extents[char] = None if glyph is None else (
            glyph[0] * scale, glyph[1] * scale, glyph[2] * scale - fonts.width(char, font, size_pt) * MM_PER_POINT,
            glyph[3] * scale)
    return extents[char]


def ops_ink(ops: Iterable[Op]) -> Bounds | None:
    """Where a box's drawing operations put ink (mm, y up), or None when they draw nothing:
    glyph outlines for text, an icon's paths, an image's opaque pixels (within its clip),
    a shape's outline with half its stroke; turned with the Groups they sit in."""
    found = [bounds for _, bounds, _ in inked(ops)]
    if not found:
        return None
    return (min(b[0] for b in found), min(b[1] for b in found), max(b[2] for b in found), max(b[3] for b in found))


def inked(ops: Iterable[Op]) -> Iterator[tuple[Drawn, Bounds, int]]:
    """Each drawing operation that puts ink, with where it puts it on the face (mm, y up, turned
    with the Groups it sits in) and the angle it is turned by (0 to 359 degrees)."""
    for op, scope in walk(ops):
        bounds = _drawn_ink(op)
        angle = 0
        while bounds is not None and scope is not None:
            bounds = _rotated(bounds, scope.group.cx, scope.group.cy, scope.group.angle)
            angle += scope.group.angle
            scope = scope.outer
        if bounds is not None:
            yield op, bounds, angle % 360


def _drawn_ink(op: Drawn) -> Bounds | None:
    match op:
        case Text():
            return text_ink(op)
        case Icon():
            share = icon_ink(op.path)
            return None if share is None else _part(op.x, op.y, op.w, op.h, share)
        case Image():
            share = image_ink(op.path)
            if share is None:
                return None
            bounds = _part(op.x, op.y, op.w, op.h, share)
            return bounds if op.clip is None else _intersect(bounds, op.clip)
        case Rect() | Ellipse() | Line() | Grid():
            half = (op.stroke_width_pt * MM_PER_POINT / 2) if op.stroke is not None else 0.0
            x0, x1 = sorted((op.x, op.x + op.w))
            y0, y1 = sorted((op.y, op.y + op.h))
            return (x0 - half, y0 - half, x1 + half, y1 + half)
        case Fill():
            return (op.x, op.y, op.x + op.w, op.y + op.h)
        case _:
            assert_never(op)


def _part(x: float, y: float, w: float, h: float, share: Bounds) -> Bounds:
    left, bottom, right, top = share
    return (x + left * w, y + bottom * h, x + right * w, y + top * h)


def _intersect(bounds: Bounds, clip: tuple[float, float, float, float]) -> Bounds | None:
    cx, cy, cw, ch = clip
    left, bottom = max(bounds[0], cx), max(bounds[1], cy)
    right, top = min(bounds[2], cx + cw), min(bounds[3], cy + ch)
    return (left, bottom, right, top) if left < right and bottom < top else None


def _rotated(bounds: Bounds, cx: float, cy: float, angle: float) -> Bounds:
    turn = math.radians(angle)
    cos, sin = math.cos(turn), math.sin(turn)
    xs, ys = [], []
    for x, y in ((bounds[0], bounds[1]), (bounds[2], bounds[1]), (bounds[0], bounds[3]), (bounds[2], bounds[3])):
        dx, dy = x - cx, y - cy
        xs.append(cx + dx * cos - dy * sin)
        ys.append(cy + dx * sin + dy * cos)
    return (min(xs), min(ys), max(xs), max(ys))


@lru_cache(maxsize=256)
def image_ink(path: str) -> Bounds | None:
    """The share (0..1, y up) of a raster image its not fully transparent pixels cover; None when all are."""
    from PIL import Image as PILImage

    with PILImage.open(path) as picture:
        width, height = picture.size
        if "A" not in picture.getbands() and "transparency" not in picture.info:
            return (0.0, 0.0, 1.0, 1.0)
        box = picture.convert("RGBA").getchannel("A").getbbox()
    if box is None:
        return None
    left, upper, right, lower = box
    return (left / width, 1 - lower / height, right / width, 1 - upper / height)
