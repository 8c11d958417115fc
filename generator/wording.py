"""Counts said as a person says them."""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """'1 card', '2 cards', '1,000 cards' ('1 die', '2 dice' with nouns='dice')."""
    return f"{count:,} {noun if count == 1 else nouns or noun + 's'}"
