"""Magic Spell's chance draws, made without listing the outcomes: the same outcome for the same
random number as `spellpress.rules.chance.draw_chance` picks from `chance_outcomes()`."""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from itertools import accumulate
from typing import Any

from spellpress.rules.chance import draw_counted, near_whole_draw, uniform_index, whole_position


def draw_uniform(draws: Sequence[Any], items: Sequence[int], rng: random.Random) -> Any:
    """draw_counted([draws[i] for i in items], [1] * n, n, rng), n = len(items), without the lists:
    one of `items` (a spell in the deck, a tile in a cabinet) with the same chance each (chance.uniform_index)."""
    return draws[items[uniform_index(len(items), rng)]]


def draw_by_sizes(draws: Sequence[Any], sizes: Iterable[int], total: int, rng: random.Random) -> Any:
    """draw_counted(draws, counts, total, rng) for counts that are sizes (never negative: the laboratory's
    unseen tiles of each letter), from their running sums: no checks of their signs, and two or more
    kinds left read off the sums (the first kind with any has fewer than all)."""
    sums = list(accumulate(sizes))
    if not (total > 0 and sums[-1] == total and sums[bisect_left(sums, 1)] < total):
        return draw_counted(draws, _counts(sums), total, rng)  # one kind left (no number drawn), or nothing
    r = rng.random()
    at = whole_position(r, total, len(sums))
    if at is not None:
        return draws[bisect_right(sums, at)]
    return near_whole_draw(draws, _counts(sums), total, r)


def _counts(sums: list[int]) -> list[int]:
    return [b - a for a, b in zip([0, *sums], sums, strict=False)]
