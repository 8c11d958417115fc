"""Magic Spell's chance draws, made without listing the outcomes: the same outcome for the same
random number as `spellpress.rules.chance.draw_chance` picks from `chance_outcomes()`."""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from itertools import accumulate
from typing import Any

from spellpress.rules.chance import draw_counted


def draw_uniform(draws: Sequence[Any], items: Sequence[int], rng: random.Random) -> Any:
    """draw_counted([draws[i] for i in items], [1] * n, n, rng), n = len(items), without the lists:
    one of `items` (a spell in the deck, a tile in a cabinet) with the same chance each.

    With counts of one, the running counts are 1..n, so the whole-number draw is item int(r * n);
    near a whole number it sums the fractions 1/n as random.choices does (see chance.py)."""
    n = len(items)
    if n == 1:  # no number drawn, as for a single outcome
        return draws[items[0]]
    r = rng.random()
    x = r * n
    margin = n * (n + 2) * 2.0 ** -50  # draw_counted's margin, for n kinds and a total of n
    if margin < x % 1.0 < 1.0 - margin:
        return draws[items[int(x)]]
    sums = list(accumulate([1 / n] * n))
    return draws[items[bisect_right(sums, r * (sums[-1] + 0.0), 0, n - 1)]]


def draw_by_sizes(draws: Sequence[Any], sizes: Iterable[int], total: int, rng: random.Random) -> Any:
    """draw_counted(draws, counts, total, rng) for counts that are sizes (never negative: the laboratory's
    unseen tiles of each letter), from their running sums: no checks of their signs, and two or more
    kinds left read off the sums (the first kind with any has fewer than all)."""
    sums = list(accumulate(sizes))
    if not (total > 0 and sums[-1] == total and sums[bisect_left(sums, 1)] < total):
        return draw_counted(draws, _counts(sums), total, rng)  # one kind left (no number drawn), or nothing
    r = rng.random()
    x = r * total
    margin = total * (len(sums) + 2) * 2.0 ** -50  # draw_counted's margin
    if margin < x % 1.0 < 1.0 - margin:
        return draws[bisect_right(sums, x)]
    # near a whole number: the fractions summed as random.choices sums them (see chance.py)
    kinds = [(draws[i], n / total) for i, n in enumerate(_counts(sums)) if n]
    fractions = list(accumulate(fraction for _, fraction in kinds))
    return kinds[bisect_right(fractions, r * (fractions[-1] + 0.0), 0, len(kinds) - 1)][0]


def _counts(sums: list[int]) -> list[int]:
    return [b - a for a, b in zip([0, *sums], sums, strict=False)]
