"""Where a shape's paint lies, for the collision and contrast checks: inside a rounded rectangle or an
ellipse, across its edge (the outline, or where a fill stops), or clear of it. Lengths in mm, y up."""

from __future__ import annotations

import math

from spellpress.layout.ink_bounds import Bounds
from spellpress.layout.ops import Ellipse, Grid, Line, Rect
from spellpress.units import MM_PER_POINT

Shape = Rect | Ellipse | Grid | Line


def half_stroke(shape: Shape) -> float:
    return shape.stroke_width_pt * MM_PER_POINT / 2 if shape.stroke is not None else 0.0


def paints(shape: Shape) -> bool:
    filled = not isinstance(shape, Line) and shape.fill is not None and shape.fill[3] > 0
    return filled or (shape.stroke is not None and shape.stroke[3] > 0 and shape.stroke_width_pt > 0)


def meets(shape: Shape, area: Bounds, grow: float = 0.0) -> bool:
    """Whether `area` touches the shape's region grown by `grow` on every side."""
    if isinstance(shape, Line):
        return _overlap(_line_bounds(shape, grow), area)
    x0, y0, x1, y1 = _box(shape)
    if isinstance(shape, Ellipse):
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        a, b = (x1 - x0) / 2 + grow, (y1 - y0) / 2 + grow
        if a <= 0 or b <= 0:
            return False
        nearest_x = min(max(cx, area[0]), area[2])  # the area's point nearest the centre, in the unit-circle scaling
        nearest_y = min(max(cy, area[1]), area[3])
        return ((nearest_x - cx) / a) ** 2 + ((nearest_y - cy) / b) ** 2 <= 1
    radius = min(getattr(shape, "radius", 0.0), (x1 - x0) / 2, (y1 - y0) / 2)
    core = (x0 + radius, y0 + radius, x1 - radius, y1 - radius)
    return _distance(core, area) <= radius + grow


def inside(shape: Shape, area: Bounds, inset: float = 0.0) -> bool:
    """Whether `area` lies wholly inside the shape's region shrunk by `inset` (a line has no inside)."""
    if isinstance(shape, Line):
        return False
    corners = ((area[0], area[1]), (area[2], area[1]), (area[0], area[3]), (area[2], area[3]))
    x0, y0, x1, y1 = _box(shape)
    if isinstance(shape, Ellipse):
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        a, b = (x1 - x0) / 2 - inset, (y1 - y0) / 2 - inset
        return a > 0 and b > 0 and all(((x - cx) / a) ** 2 + ((y - cy) / b) ** 2 <= 1 for x, y in corners)
    radius = max(min(getattr(shape, "radius", 0.0), (x1 - x0) / 2, (y1 - y0) / 2) - inset, 0.0)
    core = (x0 + inset + radius, y0 + inset + radius, x1 - inset - radius, y1 - inset - radius)
    if core[0] > core[2] or core[1] > core[3]:
        return False
    return all(_distance(core, (x, y, x, y)) <= radius + 1e-9 for x, y in corners)


def crosses_edge(shape: Shape, area: Bounds) -> bool:
    """Whether `area` lies across the shape's visible edge: its outline (stroke), or where its fill stops,
    or a grid's inner lines."""
    half = half_stroke(shape)
    if not meets(shape, area, half) or inside(shape, area, half):
        return isinstance(shape, Grid) and shape.stroke is not None and _crosses_cells(shape, area, half)
    return True


def covers(shape: Shape, area: Bounds) -> bool:
    """Whether the shape's paint lies on `area`: its fill anywhere on it, or its outline across it."""
    if isinstance(shape, Line):
        return shape.stroke is not None and meets(shape, area, half_stroke(shape))
    if shape.fill is not None and shape.fill[3] > 0 and meets(shape, area):
        return True
    return shape.stroke is not None and crosses_edge(shape, area)


def contains_point(shape: Shape, x: float, y: float) -> bool:
    return not isinstance(shape, Line) and inside(shape, (x, y, x, y))


def edges(shape) -> list[tuple[str, float, float, float, int]]:
    """Where a rectangle's or grid's paint stops: (axis, position, from, to, side), 'x' an edge at
    x = position running from y = from to y = to; side +1 when the paint lies beyond the position
    (right or above), -1 before it. Not for ellipses and lines: they have no long straight edges."""
    if not isinstance(shape, (Rect, Grid)) or not paints(shape):
        return []
    x0, y0, x1, y1 = _box(shape)
    radius = min(getattr(shape, "radius", 0.0), (x1 - x0) / 2, (y1 - y0) / 2)
    half = half_stroke(shape)
    found = [("x", x0 - half, y0 + radius, y1 - radius, 1), ("x", x1 + half, y0 + radius, y1 - radius, -1),
             ("y", y0 - half, x0 + radius, x1 - radius, 1), ("y", y1 + half, x0 + radius, x1 - radius, -1)]
    if half and (shape.fill is None or shape.fill[3] == 0):  # an outline: its inner side is an edge too
        found += [("x", x0 + half, y0 + radius, y1 - radius, -1), ("x", x1 - half, y0 + radius, y1 - radius, 1),
                  ("y", y0 + half, x0 + radius, x1 - radius, -1), ("y", y1 - half, x0 + radius, x1 - radius, 1)]
    return found


def _crosses_cells(grid: Grid, area: Bounds, half: float) -> bool:
    x0, y0, x1, y1 = _box(grid)
    columns = [x0 + (x1 - x0) * i / grid.cols for i in range(1, grid.cols)]
    rows = [y0 + (y1 - y0) * i / grid.rows for i in range(1, grid.rows)]
    return (any(area[0] < x + half and area[2] > x - half for x in columns) and area[1] < y1 and area[3] > y0) or \
           (any(area[1] < y + half and area[3] > y - half for y in rows) and area[0] < x1 and area[2] > x0)


def _box(shape: Rect | Ellipse | Grid) -> Bounds:
    return (min(shape.x, shape.x + shape.w), min(shape.y, shape.y + shape.h),
            max(shape.x, shape.x + shape.w), max(shape.y, shape.y + shape.h))


def _line_bounds(line: Line, grow: float) -> Bounds:
    half = half_stroke(line) + grow
    return (min(line.x, line.x + line.w) - half, min(line.y, line.y + line.h) - half,
            max(line.x, line.x + line.w) + half, max(line.y, line.y + line.h) + half)


def _overlap(a: Bounds, b: Bounds) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _distance(a: Bounds, b: Bounds) -> float:
    dx = max(a[0] - b[2], b[0] - a[2], 0.0)
    dy = max(a[1] - b[3], b[1] - a[3], 0.0)
    return math.hypot(dx, dy)
