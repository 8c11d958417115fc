"""Drawing a chance outcome: the one the runner has always drawn for a seed, drawn cheaply.

The runner picks among `chance_outcomes()` as `rng.choices(actions, weights)[0]` does (one
random number, mapped through the running sums of the weights), so a seed gives the same games
it always gave. `draw_chance` does exactly that, but builds the running sums of an outcome tuple
an engine keeps (a die's faces) once, and draws from `Counted` outcomes (a deck: each card kind
in proportion to its count) with whole numbers:

Counted(actions, counts, total) reads as the list [(actions[i], counts[i] / total) ...] of the
kinds with cards left. random.choices sums those fractions in floating point and compares the
running sums with r * (their sum), r the random number: with n kinds, each running sum is within
(n + 1) * 2**-53 of the exact (counts[0] + ... + counts[k]) / total, and r * (their sum) within
(n + 2) * 2**-53 of r. So where r * total is farther than (2n + 4) * 2**-53 * total from every whole
number, comparing the whole running counts with r * total picks the same kind; nearer (about once
in 10**12 draws) the fractions are summed as random.choices sums them. Either way the same random
number picks the same card.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Hashable, Sequence
from itertools import accumulate
from typing import Any, overload

Action = Hashable


class Counted(Sequence):
    """Chance outcomes in proportion to whole counts: reads as [(actions[i], counts[i] / total) for each
    i with counts[i]], in that order. `counts` is the engine's own list, copied by the engine if it changes."""

    __slots__ = ("actions", "counts", "total", "_pairs")

    def __init__(self, actions: Sequence[Action], counts: Sequence[int], total: int):
        self.actions, self.counts, self.total = actions, counts, total
        self._pairs: list[tuple[Action, float]] | None = None

    def pairs(self) -> list[tuple[Action, float]]:
        if self._pairs is None:
            total = self.total
            self._pairs = [(action, n / total) for action, n in zip(self.actions, self.counts, strict=False) if n]
        return self._pairs

    def __len__(self) -> int:
        return len(self.counts) - self.counts.count(0)

    @overload
    def __getitem__(self, index: int) -> tuple[Action, float]: ...
    @overload
    def __getitem__(self, index: slice) -> list[tuple[Action, float]]: ...
    def __getitem__(self, index):
        return self.pairs()[index]

    def __iter__(self):
        return iter(self.pairs())

    def __eq__(self, other: object) -> bool:
        return self.pairs() == (list(other) if isinstance(other, Sequence) else other)

    def __repr__(self) -> str:
        return f"Counted({self.pairs()!r})"


def draw_chance(outcomes: Sequence[tuple[Action, float]], rng: random.Random) -> Action:
    """The chance outcome the runner plays: the only one (no number drawn), else the one
    `rng.choices(actions, weights)[0]` picks, from the same random number."""
    if type(outcomes) is Counted:
        return draw_counted(outcomes.actions, outcomes.counts, outcomes.total, rng)
    if len(outcomes) <= 1:
        return outcomes[0][0]
    table = _TABLES.get(id(outcomes)) if type(outcomes) is tuple else None
    if table is None or table[0] is not outcomes:
        table = _table(outcomes)
    return _pick(table, rng.random())

def draw_counted(actions: Sequence[Action], counts: Sequence[int], total: int, rng: random.Random) -> Action:
    """draw_chance(Counted(actions, counts, total), rng), without making the Counted (an engine that
    samples its deck itself)."""
    sums = list(accumulate(counts))
    if sums and sums[-1] == total and total > 0 and min(counts) >= 0 and counts.count(0) < len(counts) - 1:
        r = rng.random()
        at = whole_position(r, total, len(counts))
        if at is not None:
            return actions[bisect_right(sums, at)]
        return near_whole_draw(actions, counts, total, r)
    # one kind left, or fractions that do not add up to 1: the general way
    return draw_chance(Counted(actions, counts, total).pairs(), rng)


def whole_position(r: float, total: int, kinds: int) -> int | None:
    """The whole position int(r * total) among `total` cards of `kinds` kinds, where comparing the whole
    running counts with r * total picks what random.choices picks (see the module doc); None where r * total
    is too near a whole number for that, and the fractions must be summed as random.choices sums them."""
    x = r * total
    margin = total * (kinds + 2) * 2.0 ** -50  # over (2n + 4) * 2**-53 * total (see the module doc)
    return int(x) if margin < x % 1.0 < 1.0 - margin else None


def outcome_table(outcomes: Sequence[tuple[Action, float]]) -> tuple[Any, tuple, list, float]:
    """The running sums draw_chance reads for fixed outcomes of two or more, made once, for an engine that
    keeps them: draw_from_table(table, rng) is draw_chance(outcomes, rng)."""
    if len(outcomes) < 2:
        raise ValueError("one outcome: draw_chance draws no number for it")
    return _table(outcomes)


def draw_from_table(table: tuple[Any, tuple, list, float], rng: random.Random) -> Action:
    return _pick(table, rng.random())


def near_whole_draw(actions: Sequence[Action], counts: Sequence[int], total: int, r: float) -> Action:
    """draw_counted's pick for a random number `r` whose r * total is too near a whole number to compare
    whole counts: the fractions summed as random.choices sums them (for an engine that draws from its
    counts its own way, with draw_counted's margin)."""
    return _pick(_table(Counted(actions, counts, total).pairs()), r)


def uniform_index(n: int, rng: random.Random) -> int:
    """The index draw_counted(actions, [1] * n, n, rng) picks among n actions alike (a shuffled pile's
    cards), without the running sums: the same random number, the same index; none drawn for n = 1.

    With counts of one the running counts are 1..n, so the whole-number draw is int(r * n); near a whole
    number the fractions 1/n are summed as random.choices sums them (Magic Spell's draws.py draws its spells
    and tiles by it)."""
    if n < 2:  # one action: no number drawn (draw_counted's general way)
        return 0
    r = rng.random()
    at = whole_position(r, n, n)  # draw_counted's, with total = len(counts) = n
    if at is not None:
        return at
    sums = list(accumulate([1 / n] * n))
    return bisect_right(sums, r * (sums[-1] + 0.0), 0, n - 1)


_TABLES: dict[int, tuple] = {}  # id of an outcome tuple -> (the tuple, kept so its id stays its own, ...)


def _table(outcomes: Sequence[tuple[Action, float]]) -> tuple[Any, tuple, list, float]:
    actions, weights = zip(*outcomes, strict=False)
    sums = list(accumulate(weights))
    total = sums[-1] + 0.0
    if total <= 0.0:  # random.choices' own errors
        raise ValueError("Total of weights must be greater than zero")
    if not math.isfinite(total):
        raise ValueError("Total of weights must be finite")
    table = (outcomes, actions, sums, total)
    if type(outcomes) is tuple:
        if len(_TABLES) >= 256:  # an engine that makes a new tuple every time: memory stays bounded
            _TABLES.clear()
        _TABLES[id(outcomes)] = table
    return table


def _pick(table: tuple[Any, tuple, list, float], r: float) -> Action:
    _, actions, sums, total = table
    return actions[bisect_right(sums, r * total, 0, len(actions) - 1)]
