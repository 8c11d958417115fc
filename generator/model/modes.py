"""The print modes, in one place: the YAML schema, the command line's choices and the sheet
planner all read these, and a value outside them is refused wherever it comes in."""

from __future__ import annotations

from typing import Literal, get_args

Paper = Literal["a4", "letter", "a3", "legal", "tabloid"]
CalibrationPaper = Literal["a4", "letter"]
BackMode = Literal["none", "duplex-long", "duplex-short", "fold"]
DuplexMode = Literal["duplex-long", "duplex-short"]  # the back modes that print backs on the other side
MarkMode = Literal["crop", "lines", "cutter", "none"]
CutMode = Literal["shared", "gutter"]
ColorMode = Literal["rgb", "cmyk"]


def choices(mode: object) -> list[str]:
    """The values of a mode, in their order: an argparse `choices` list."""
    return list(get_args(mode))


def checked(mode: object, value: str, what: str) -> str:
    """`value` when it is one of the mode's values; a ValueError naming `what` and the values otherwise."""
    allowed = get_args(mode)
    if value not in allowed:
        raise ValueError(f"unknown {what} {value!r}: expected one of {', '.join(allowed)}")
    return value
