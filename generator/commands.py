"""Commands beyond printing (letter analysis, simulation) register themselves here."""

from __future__ import annotations


def register_extra(commands) -> None:
    """Add the analysis and simulation sub-commands, when their packages are present."""
