"""Magic Spell's chance draws, made without listing the outcomes: the same outcome for the same
random number as `spellpress.rules.chance.draw_chance` picks from `chance_outcomes()`."""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from typing import Any


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
