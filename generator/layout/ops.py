"""Drawing operations: what a face is made of, in mm from the trim's bottom-left corner.

They are frozen and hashable, so two cards that lay out to the same operations
share one PDF Form.
"""

from __future__ import annotations

from dataclasses import dataclass

Rgba = tuple[float, float, float, float]  # red, green, blue, alpha in 0..1


@dataclass(frozen=True)
class Fill:
    x: float
    y: float
    w: float
    h: float
    color: Rgba


@dataclass(frozen=True)
class _Outlined:
    x: float
    y: float
    w: float
    h: float
    fill: Rgba | None
    stroke: Rgba | None
    stroke_width_pt: float
    dash: tuple[float, ...] = ()  # on, off, ... in points


@dataclass(frozen=True)
class Rect(_Outlined):
    radius: float = 0.0  # rounded corners, mm


@dataclass(frozen=True)
class Ellipse(_Outlined):
    """The ellipse inscribed in the box."""


@dataclass(frozen=True)
class Grid(_Outlined):
    """A table of rows x cols cells: the box filled, the cells' edges stroked."""

    rows: int = 1
    cols: int = 1


@dataclass(frozen=True)
class Line:
    """A stroke from (x, y) to (x + w, y + h)."""

    x: float
    y: float
    w: float
    h: float
    stroke: Rgba | None
    stroke_width_pt: float
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Text:
    x: float  # start of the baseline
    y: float
    font: str
    size_pt: float
    color: Rgba
    text: str


@dataclass(frozen=True)
class Icon:
    path: str
    x: float
    y: float
    w: float
    h: float
    color: Rgba


@dataclass(frozen=True)
class Image:
    path: str
    x: float
    y: float
    w: float
    h: float
    clip: tuple[float, float, float, float] | None = None  # x, y, w, h


@dataclass(frozen=True)
class Group:
    """Operations drawn rotated by `angle` degrees about (cx, cy)."""

    cx: float
    cy: float
    angle: int
    ops: tuple[Op, ...]


Shape = Rect | Ellipse | Line | Grid
Drawn = Fill | Rect | Ellipse | Line | Grid | Text | Icon | Image  # what puts ink on the page: every op but Group
Op = Drawn | Group


@dataclass(frozen=True)
class FaceLayout:
    width: float  # trim size in mm
    height: float
    bleed: float
    ops: tuple[Op, ...]


def parse_color(value: str) -> Rgba | None:
    """'#rrggbb' or '#rrggbbaa' as floats; 'none' as None."""
    return None if value == "none" else parse_ink(value)


def parse_ink(value: str) -> Rgba:
    """'#rrggbb' or '#rrggbbaa' as floats."""
    digits = value[1:] if value.startswith("#") else ""
    if len(digits) not in (6, 8) or not all(c in "0123456789abcdefABCDEF" for c in digits):
        shown = value if len(value) <= 40 else value[:40] + "..."
        raise ValueError(f"expected a colour such as #1f2d4d (or #1f2d4d80 with opacity), got {shown!r}")
    red, green, blue = (int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))
    alpha = int(digits[6:8], 16) / 255 if len(digits) == 8 else 1.0
    return (round(red, 4), round(green, 4), round(blue, 4), round(alpha, 4))


@dataclass(frozen=True)
class Item:
    """One physical copy of a card."""

    component: str
    card: str
    copy: int  # 1-based
    front: FaceLayout
    back: FaceLayout | None
    size: tuple[float, float]
    kind: str = "card"  # the component's kind: a sheet or board is printed, not cut
