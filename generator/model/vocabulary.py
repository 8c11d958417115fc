"""The vocabularies simulated players may know (--vocabulary, words.vocabulary): names and SCOWL levels.

Plain data, read by the command line's help without loading any word list (docs/simulate.md).
"""

from __future__ import annotations

VOCABULARIES = {"casual": 35, "everyday": 50, "expert": 70, "all": None}  # docs/simulate.md

HELP = (f"the words players know: {', '.join(f'{k} (SCOWL {v})' for k, v in VOCABULARIES.items() if v)}, "
        "all, or a SCOWL level 10-95 (default: all; English list only)")


def vocabulary_level(value: str) -> int | None:
    """A --vocabulary value as a SCOWL level (None: every word): a name of VOCABULARIES or a SCOWL level 10-95."""
    name = value.strip().lower()
    if name in VOCABULARIES:
        return VOCABULARIES[name]
    if name.isdigit() and 10 <= int(name) <= 95:
        return int(name)
    raise ValueError(f"expected {', '.join(VOCABULARIES)} or a SCOWL level from 10 to 95, got {value!r}")


def known_words_note(level: int | None) -> str:
    """How a report says which words its players knew."""
    return ("Words known: every word of the list." if level is None else
            f"Words known: only those up to SCOWL level {level} (--vocabulary).")
