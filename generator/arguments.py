"""Argument types for the command line: a bad value is a usage error (exit 2) that says the allowed range."""

from __future__ import annotations

import argparse
from typing import Callable


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
