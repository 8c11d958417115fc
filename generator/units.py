"""Lengths written by users: numbers are millimetres; strings carry a unit.

Accepted: "63mm", "6.3cm", "2.5in", "2.5\"", "12pt", "300px" (at 300 dpi unless
"px@150" gives the dpi), and "50%" where a reference length is known.
"""

from __future__ import annotations

import math
import re

MM_PER_INCH = 25.4
MM_PER_POINT = MM_PER_INCH / 72.0
DEFAULT_DPI = 300
MAX_LENGTH_MM = 10_000.0  # 10 m: far beyond any sheet, and far below where arithmetic loses its way

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
        return _bounded(float(value), value)
    if not isinstance(value, str):
        raise UnitError(f"expected a length such as 3mm or 0.125in, got {value!r}")
    match = _LENGTH.match(value)
    if not match:
        raise UnitError(f"expected a length such as 3mm, 0.125in, 12pt or 300px, got {value!r}")
    number = float(match["value"])
    unit = match["unit"] or "mm"
    if unit == "mm":
        return _bounded(number, value)
    if unit == "cm":
        return _bounded(number * 10, value)
    if unit in ("in", "inch", "inches", '"'):
        return _bounded(number * MM_PER_INCH, value)
    if unit == "pt":
        return _bounded(number * MM_PER_POINT, value)
    if unit.startswith("px"):
        dpi = int(match["dpi"] or DEFAULT_DPI)
        if dpi < 1:
            raise UnitError(f"a pixel length needs a resolution of at least 1 dpi, got {value!r}")
        return _bounded(number * MM_PER_INCH / dpi, value)
    if reference_mm is None:
        raise UnitError(f"a percentage ({value!r}) is not allowed here")
    return _bounded(number / 100.0 * reference_mm, value)


def _bounded(mm: float, written: object) -> float:
    if not math.isfinite(mm):
        raise UnitError(f"expected a finite length such as 3mm, got {written!r}")
    if abs(mm) > MAX_LENGTH_MM:
        raise UnitError(f"a length may be at most {MAX_LENGTH_MM / 1000:g} m ({MAX_LENGTH_MM:g} mm), got {written!r}")
    return mm


def parse_points(value: object) -> float:
    """A type size in points: a bare number is points here (the typographer's unit)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        _bounded(float(value) * MM_PER_POINT, value)
        return float(value)
    return parse_length(value) / MM_PER_POINT


def mm_to_pt(mm: float) -> float:
    return mm / MM_PER_POINT


def mm_to_px(mm: float, dpi: int = DEFAULT_DPI) -> int:
    return round(mm / MM_PER_INCH * dpi)
