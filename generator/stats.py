"""Interval maths for balance verdicts: Wilson intervals, the difference of two rates, and the
three-way verdict (balanced, not balanced, undecided) that `simulate`, `report` and the tuner share.

A verdict never comes from a point estimate alone: a seat is judged by its 95% interval
against a band of +/- `band_points` around its fair share. Every interval inside the band:
balanced. Some interval wholly outside it: not balanced. Anything else: undecided, and
more games will tell.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054

BALANCED = "balanced"
NOT_BALANCED = "not balanced"
UNDECIDED = "undecided"

STRONG = "strong"   # an effect whose interval lies wholly above zero
WEAK = "weak"       # ... wholly below zero
NOISE = "noise"     # an interval that holds zero: no effect can be claimed


def wilson(successes: float, trials: float) -> tuple[float, float]:
    """95% Wilson score interval for a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def difference_interval(successes_a: float, trials_a: float, successes_b: float, trials_b: float) -> tuple[float, float]:
    """95% interval for rate a minus rate b (Newcombe's hybrid score interval, from the two Wilson intervals)."""
    p_a = successes_a / trials_a if trials_a else 0.0
    p_b = successes_b / trials_b if trials_b else 0.0
    low_a, high_a = wilson(successes_a, trials_a)
    low_b, high_b = wilson(successes_b, trials_b)
    difference = p_a - p_b
    return (difference - math.sqrt((p_a - low_a) ** 2 + (high_b - p_b) ** 2),
            difference + math.sqrt((high_a - p_a) ** 2 + (p_b - low_b) ** 2))


def effect(interval: tuple[float, float]) -> str:
    """STRONG or WEAK only when the interval of a difference excludes zero, else NOISE."""
    low, high = interval
    return STRONG if low > 0 else WEAK if high < 0 else NOISE


def verdict(wins: Sequence[float], games: int | Sequence[int], band_points: float = 3.0,
            fair: float | None = None) -> str:
    """BALANCED, NOT_BALANCED or UNDECIDED for seats (or teams) with these wins out of `games`
    (one count for all, or one each), judged by each 95% Wilson interval against the band of
    +/- band_points percentage points around the fair share (default: one over the seats)."""
    if not wins:
        raise ValueError("a verdict needs at least one seat")
    counts = [games] * len(wins) if isinstance(games, int) else list(games)
    share = 1 / len(wins) if fair is None else fair
    band = band_points / 100
    low_edge, high_edge = share - band, share + band
    intervals = [wilson(w, n) for w, n in zip(wins, counts)]
    if any(high < low_edge or low > high_edge for low, high in intervals):
        return NOT_BALANCED
    if all(low_edge <= low and high <= high_edge for low, high in intervals):
        return BALANCED
    return UNDECIDED
