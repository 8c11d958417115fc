"""The words a finished game scored, read from what each engine already keeps (docs/simulate.md).

Only an engine that keeps every scored word with its points is read; for the others
`scored_words` says None ("not recorded") rather than guess the points from score changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from spellpress.rules.protocol import State

if TYPE_CHECKING:  # named, not imported: every simulation imports this module, and most are of other engines
    from spellpress.rules.word_to_the_wise.state import WiseState

ScoredWords = list[tuple[int, str, float]]  # (seat, word, points)


def _wise_words(state: WiseState) -> ScoredWords:
    """A Word to the Wise's round logs: every real word placed scores its value (bonuses included),
    challenged or not (a bluff too, when its letters happen to spell one); a word not on the list is
    left out."""
    return [(placed.seat, placed.word, float(placed.value))
            for log in state.logs for placed in log.placed if placed.valid]


READERS: dict[str, Callable] = {"spellpress.rules.word_to_the_wise.state.WiseState": _wise_words}  # by the state's class
RECORDING_ENGINES = ("word-to-the-wise",)  # the engines READERS reads, for the docs and the table's note


def scored_words(state: State) -> ScoredWords | None:
    kind = type(state)
    reader = READERS.get(f"{kind.__module__}.{kind.__qualname__}")
    return reader(state) if reader is not None else None
