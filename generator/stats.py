"""Interval maths for balance verdicts: Wilson intervals, the difference of two rates, and the
three-way verdict (balanced, not balanced, undecided) that `simulate`, `report` and the tuner share.

A verdict never comes from a point estimate alone: a seat is judged by its interval against a
band of +/- `band_points` around its fair share. Every interval inside the band: balanced. Some
interval wholly outside it: not balanced. Anything else: undecided, and more games will tell.

A run that looks at its verdict after several batches (`simulate` without --games) spends its
5% error over the looks: a decided verdict is then wrong at most 5% of the time, however close the
game is to the band's edge. The two decided verdicts need different widths:

- "not balanced" claims that some seat lies outside the band, any of them: each seat's interval is
  drawn at a quantile that shares the error among the seats (`sequential_z`, two-sided Bonferroni).
- "balanced" claims that every seat lies inside. It is wrong only when some seat truly lies outside,
  and then that seat's own interval must have missed its rate on that one side: each seat alone
  bounds the error, so the intervals are one-sided and not shared (`inside_z`; an intersection-union
  test, Berger 1982). Deciding "balanced" takes fewer games the more seats or cards are judged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

Z95 = 1.959963984540054

BALANCED = "balanced"
NOT_BALANCED = "not balanced"
UNDECIDED = "undecided"

STRONG = "strong"   # an effect whose interval lies wholly above zero
WEAK = "weak"       # ... wholly below zero
NOISE = "noise"     # an interval that holds zero: no effect can be claimed


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: 95% by default, or for the normal quantile z."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z**2 / trials
    centre = (p + z**2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z**2 / (4 * trials**2)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def difference_interval(successes_a: float, trials_a: float, successes_b: float, trials_b: float,
                        z: float = Z95) -> tuple[float, float]:
    """Interval for rate a minus rate b (Newcombe's hybrid score interval, from the two Wilson
    intervals): 95% by default, or for the normal quantile z."""
    p_a = successes_a / trials_a if trials_a else 0.0
    p_b = successes_b / trials_b if trials_b else 0.0
    low_a, high_a = wilson(successes_a, trials_a, z)
    low_b, high_b = wilson(successes_b, trials_b, z)
    difference = p_a - p_b
    return (difference - math.sqrt((p_a - low_a) ** 2 + (high_b - p_b) ** 2),
            difference + math.sqrt((high_a - p_a) ** 2 + (p_b - low_b) ** 2))


def effect(interval: tuple[float, float]) -> str:
    """STRONG or WEAK only when the interval of a difference excludes zero, else NOISE."""
    low, high = interval
    return STRONG if low > 0 else WEAK if high < 0 else NOISE


def verdict(wins: Sequence[float], games: int | Sequence[int], band_points: float = 3.0,
            fair: float | None = None, z: float = Z95, z_inside: float | None = None) -> str:
    """BALANCED, NOT_BALANCED or UNDECIDED for seats (or teams) with these wins out of `games`
    (one count for all, or one each), judged by each Wilson interval against the band of
    +/- band_points percentage points around the fair share (default: one over the seats): wholly
    outside at the normal quantile z (95% by default), all inside at z_inside (default z)."""
    if not wins:
        raise ValueError("a verdict needs at least one seat")
    counts = [games] * len(wins) if isinstance(games, int) else list(games)
    share = 1 / len(wins) if fair is None else fair
    band = band_points / 100
    low_edge, high_edge = share - band, share + band
    outer = [wilson(w, n, z) for w, n in zip(wins, counts, strict=False)]
    if any(high < low_edge or low > high_edge for low, high in outer):
        return NOT_BALANCED
    inner = outer if z_inside is None else [wilson(w, n, z_inside) for w, n in zip(wins, counts, strict=False)]
    if all(low_edge <= low and high <= high_edge for low, high in inner):
        return BALANCED
    return UNDECIDED


ERROR_RATE = 0.05  # the most often a decided verdict may be wrong, over every look at a run


def spent_error(looks: Sequence[int], look: int, error_rate: float = ERROR_RATE) -> float:
    """The share of the error rate spent at look number `look` of a run judged after `looks` games
    (a rising list, known before the first game): in proportion to the games that look adds
    (a linear alpha-spending function). The shares add up to the error rate."""
    if not looks or any(b <= a for a, b in zip(looks, looks[1:], strict=False)) or looks[0] <= 0:
        raise ValueError("looks must be a rising list of game counts")
    added = looks[look] - (looks[look - 1] if look else 0)
    return error_rate * added / looks[-1]


def sequential_z(looks: Sequence[int], look: int, judged: int, error_rate: float = ERROR_RATE) -> float:
    """The normal quantile of the intervals of which one lying wholly outside the band decides "not
    balanced" at this look, so that all the intervals of all the looks hold their true rates together
    at least 1 - error_rate of the time (Bonferroni over the `judged` intervals and the looks: valid
    whatever their correlation). A game truly balanced is called not balanced only when some interval
    misses its true rate, so at most error_rate of the time."""
    if judged < 1:
        raise ValueError("a verdict judges at least one interval")
    return NormalDist().inv_cdf(1 - spent_error(looks, look, error_rate) / judged / 2)


def inside_z(looks: Sequence[int], look: int, error_rate: float = ERROR_RATE) -> float:
    """The normal quantile of the intervals that must all lie inside the band for a decided "balanced"
    (or "held") at this look: one-sided, spending the look's share of the error and not sharing it
    among the intervals. A seat truly outside is called inside only when its own interval misses its
    rate on the side of the band, at most the spent error at each look (see the module's note)."""
    return NormalDist().inv_cdf(1 - spent_error(looks, look, error_rate))


def judged_intervals(wins: Sequence[float], games: int) -> int:
    """How many intervals a verdict really judges: two seats whose shares of every game add up to
    one are one interval seen from both sides (Wilson's interval is symmetric), else one each."""
    return 1 if len(wins) == 2 and math.isclose(sum(wins), games) else len(wins)


def family_z(judged: int, error_rate: float = ERROR_RATE) -> float:
    """The normal quantile of each of `judged` intervals read together (cards' effects), so that any
    of them is called clear of zero wrongly at most error_rate of the time (Bonferroni)."""
    return NormalDist().inv_cdf(1 - error_rate / max(judged, 1) / 2)
