"""Field types shared by the definition schemas."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict

from generator.units import UnitError, parse_length, parse_points


def _length(value: Any) -> float:
    try:
        return parse_length(value)
    except UnitError as exc:
        raise ValueError(str(exc)) from None


def _points(value: Any) -> float:
    try:
        return parse_points(value)
    except UnitError as exc:
        raise ValueError(str(exc)) from None


Mm = Annotated[float, BeforeValidator(_length)]
"""A length in mm; YAML may write 3, "3mm", "0.125in", "9pt"."""

Pt = Annotated[float, BeforeValidator(_points)]
"""A type size or line width in points; YAML may write 9, "9pt", "1mm"."""


class Strict(BaseModel):
    """Every schema refuses unknown keys and is immutable once loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True)
