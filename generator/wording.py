"""Counts and values said as a person says them."""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """'1 card', '2 cards', '1,000 cards' ('1 die', '2 dice' with nouns='dice')."""
    return f"{count:,} {noun if count == 1 else nouns or noun + 's'}"


def listed_files(files, shown: int = 4) -> list[str]:
    """The lines a build summary gives its written files: the first `shown`, then how many more."""
    lines = [f"  {path}" for path in files[:shown]]
    if len(files) > shown:
        lines.append(f"  ... and {plural(len(files) - shown, 'more file')}")
    return lines


SHOWN_CHARACTERS = 40


def quoted(value: object, limit: int = SHOWN_CHARACTERS) -> str:
    """A value as a message shows it: its repr, a long text cut to `limit` characters with its length
    said ("'xxxx...' (131,072 characters)"), so one huge cell or name does not flood the terminal."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit] + '...'!r} ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit + 2 else f"{text[:limit]}... ({len(text):,} characters)"
