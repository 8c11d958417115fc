"""Argument types for the command line: a bad value is a usage error (exit 2) that says the allowed range."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from spellpress.units import UnitError, parse_length


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number from {low:,} to {high:,}, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low:,} to {high:,}, got {value:,}")
        return value

    parse.__name__ = "whole number"
    return parse


def length(text: str) -> float:
    """A length of 0 or more: mm unless a unit is given (3mm, 0.125in)."""
    try:
        value = parse_length(text)
    except UnitError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if value < 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return value


def offset(text: str) -> tuple[float, float]:
    """X,Y: two lengths, either may be negative."""
    parts = text.split(",")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError("expected X,Y such as 0.5,-0.3 or 0.5mm,-0.3mm")
    try:
        return parse_length(parts[0]), parse_length(parts[1])
    except UnitError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
