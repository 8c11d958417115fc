"""Field types shared by the definition schemas."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from spellpress.units import UnitError, parse_length, parse_points
from spellpress.wording import quoted

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails


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

NonNegativeMm = Annotated[float, BeforeValidator(_length), Field(ge=0)]
"""A length that cannot be negative (a width, a radius); mm or any unit."""

NonNegativePt = Annotated[float, BeforeValidator(_points), Field(ge=0)]
"""A line width that cannot be negative; points or any unit."""


PATTERN_MEANINGS: dict[str, str] = {}  # a pattern -> what it asks for, in a designer's words


def text_like(pattern: str, meaning: str) -> Any:
    """A text field that must match `pattern`; a mismatch is reported as `meaning` (never the regex)."""
    PATTERN_MEANINGS[pattern] = meaning
    return Field(pattern=pattern)


class Strict(BaseModel):
    """Every schema refuses unknown keys and is immutable once loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def describe(error: ErrorDetails) -> str:
    """One pydantic error as a sentence for a person (which key, what was wrong)."""
    kind = error["type"]
    loc = [part for part in error["loc"] if not _union_member(part)]  # ('title', 'str') -> ('title',)
    field = loc[-1] if loc else None
    shown = _shown(error.get("input"))
    if kind == "string_type":
        return f"{field}: expected text, got {shown}" if field is not None else f"expected text, got {shown}"
    if kind == "string_pattern_mismatch":
        pattern = str((error.get("ctx") or {}).get("pattern", ""))
        what = PATTERN_MEANINGS.get(pattern, "a value of the documented form (docs/yaml.md)")
        hint = _colour_name_hint(error.get("input")) if what.startswith("a colour") else ""
        return f"{field}: expected {what}, got {shown}{hint}" if field is not None else f"expected {what}, got {shown}{hint}"
    if kind == "extra_forbidden":
        return f"unknown key '{field}'"
    if kind == "missing":
        return f"missing required key '{field}'"
    message = error["msg"]
    if message.startswith("Value error, "):
        message = message[len("Value error, "):]
    if kind == "literal_error":
        return f"'{error.get('input')}' is not allowed: {message.lower()}"
    if field is not None and not isinstance(field, int):
        return f"{field}: {message}"
    return message


_TYPE_TAGS = frozenset({"str", "int", "float", "bool", "list", "dict", "none", "tuple", "set"})


def _union_member(part: Any) -> bool:
    """pydantic names the member of a union it tried ('str', 'list[str]', 'function-after[...]'): not a key."""
    return isinstance(part, str) and (part in _TYPE_TAGS or "[" in part)


def _colour_name_hint(value: Any) -> str:
    """Colours are written as hex only (one spelling for the PDF, the preview and every export): a CSS
    colour name is told in hex rather than refused with no hint."""
    if not isinstance(value, str):
        return ""
    from PIL import ImageColor  # its table is CSS's named colours

    name = value.strip().lower()
    if name not in ImageColor.colormap:
        return ""
    red, green, blue = ImageColor.getrgb(name)[:3]
    return f": a CSS colour name; write it as #{red:02x}{green:02x}{blue:02x}"


def _shown(value: Any) -> str:
    return quoted(value)
