"""Lengths written by users: numbers are millimetres; strings carry a unit.

Accepted: "63mm", "6.3cm", "2.5in", "2.5\"", "12pt", "300px" (at 300 dpi unless
"px@150" gives the dpi), and "50%" where a reference length is known.
"""

from __future__ import annotations

import re

MM_PER_INCH = 25.4
MM_PER_POINT = MM_PER_INCH / 72.0
DEFAULT_DPI = 300

_LENGTH = re.compile(
    r"^\s*(?P<value>[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?)\s*(?P<unit>mm|cm|in|inch|inches|\"|pt|px(@(?P<dpi>\d+))?|%)?\s*$"
)


class UnitError(ValueError):
    pass


def parse_length(value: object, reference_mm: float | None = None) -> float:
    """A length in millimetres from a number (mm) or a string with a unit."""
    if isinstance(value, bool):
        raise UnitError(f"expected a length such as 3mm or 0.125in, got {value!r}")
    if isinstance(value, (int, float)):
        return float(value)
    if not isinstance(value, str):
        raise UnitError(f"expected a length such as 3mm or 0.125in, got {value!r}")
    match = _LENGTH.match(value)
    if not match:
        raise UnitError(f"expected a length such as 3mm, 0.125in, 12pt or 300px, got {value!r}")
    number = float(match["value"])
    unit = match["unit"] or "mm"
    if unit == "mm":
        return number
    if unit == "cm":
        return number * 10
    if unit in ("in", "inch", "inches", '"'):
        return number * MM_PER_INCH
    if unit == "pt":
        return number * MM_PER_POINT
    if unit.startswith("px"):
        dpi = int(match["dpi"] or DEFAULT_DPI)
        return number * MM_PER_INCH / dpi
    if reference_mm is None:
        raise UnitError(f"a percentage ({value!r}) is not allowed here")
    return number / 100.0 * reference_mm


def parse_points(value: object) -> float:
    """A type size in points: a bare number is points here (the typographer's unit)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return parse_length(value) / MM_PER_POINT


def mm_to_pt(mm: float) -> float:
    return mm / MM_PER_POINT


def pt_to_mm(pt: float) -> float:
    return pt * MM_PER_POINT


def mm_to_px(mm: float, dpi: int = DEFAULT_DPI) -> int:
    return round(mm / MM_PER_INCH * dpi)
