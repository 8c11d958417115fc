"""Repeated looks: `simulate` judges its verdict after 200, 400, 800... games and stops once decided.
A Monte Carlo of that very rule (the batch plan, spellpress.stats' intervals and verdict: a miss read at
the quantile shared by the seats, a hold at the one-sided one) on seats of known win rates: a decided
verdict is wrong at most 5% of the time, at the band's edge too."""

from __future__ import annotations

import numpy as np
import pytest

from spellpress.simulate.command import BALANCE_TOLERANCE_POINTS, batch_plan
from spellpress.stats import BALANCED, ERROR_RATE, UNDECIDED, inside_z, judged_intervals, sequential_z, verdict

RUNS = 2000
MOST = 20_000  # simulate's default --max-games


def sequential_run(counts: np.ndarray, looks: list[int]) -> str:
    """The verdict the batches reach for one run: counts[k] are the seats' wins after looks[k] games."""
    found = UNDECIDED
    for look, games in enumerate(looks):
        wins = [float(w) for w in counts[look]]
        found = verdict(wins, games, BALANCE_TOLERANCE_POINTS, z=sequential_z(looks, look, judged_intervals(wins, games)),
                        z_inside=inside_z(looks, look))
        if found != UNDECIDED:
            break
    return found


def wrong_share(rates: list[float], seed: int) -> tuple[float, float]:
    """(share of runs whose decided verdict is wrong, share decided) over RUNS runs of one game."""
    looks = [stop for _, stop in batch_plan(None, MOST)]
    sizes = np.diff([0, *looks])
    rng = np.random.default_rng(seed)
    batches = np.stack([rng.multinomial(size, rates, size=RUNS) for size in sizes], axis=1)  # run, look, seat
    counts = np.cumsum(batches, axis=1)
    fair = 1 / len(rates)
    truly_balanced = all(abs(rate - fair) <= BALANCE_TOLERANCE_POINTS / 100 for rate in rates)
    found = [sequential_run(counts[run], looks) for run in range(RUNS)]
    decided = [v for v in found if v != UNDECIDED]
    wrong = sum((v == BALANCED) != truly_balanced for v in decided)
    return wrong / RUNS, len(decided) / RUNS


@pytest.mark.slow
@pytest.mark.parametrize("rates", [
    [0.5, 0.5],                        # fair
    [0.529, 0.471],                    # inside the band, 0.1 points from its edge (9.5% wrong before)
    [0.531, 0.469],                    # outside it by 0.1 points (5.7% wrong before)
    [0.25, 0.25, 0.25, 0.25],
    [0.279, 0.24, 0.24, 0.241],        # inside, at the edge
    [0.281, 0.2397, 0.2397, 0.2396],   # just outside (2.4% wrong before)
    [0.2801, 0.2401, 0.2399, 0.2399],  # a hair outside: a hold's worst case, its one-sided error nearly all spent
    [0.5301, 0.4699],
], ids=["2-fair", "2-inside-edge", "2-outside-edge", "4-fair", "4-inside-edge", "4-outside-edge", "4-on-edge",
        "2-on-edge"])
def test_a_decided_verdict_is_wrong_at_most_five_percent_of_the_time(rates):
    wrong, decided = wrong_share(rates, seed=7)
    assert wrong <= ERROR_RATE, f"{wrong:.1%} of {RUNS} runs decided wrongly ({decided:.1%} decided)"


@pytest.mark.slow
def test_a_fair_game_is_still_decided_within_the_default_most_games():
    for rates in ([0.5, 0.5], [0.25] * 4):
        wrong, decided = wrong_share(rates, seed=11)
        assert decided >= 0.95 and wrong == 0


def test_a_hold_reads_one_sided_intervals_spent_over_the_looks_only():
    looks = [200, 400, 800, 1000]
    assert inside_z([1000], 0) == pytest.approx(1.644854, abs=1e-5)  # one look: the one-sided 95% bound
    assert inside_z(looks, 2) == pytest.approx(2.053749, abs=1e-5)  # 400 of 1,000 games: 2% on one side
    assert inside_z(looks, 2) < sequential_z(looks, 2, 4)  # a miss also shares the look's 2% among 4 seats
    wins = [1060.0, 980.0, 980.0, 980.0]  # seat 1 at 26.5% of 4,000: +/-1.15 points one-sided, +/-1.75 shared
    assert verdict(wins, 4000, z=sequential_z([4000], 0, 4)) == UNDECIDED
    assert verdict(wins, 4000, z=sequential_z([4000], 0, 4), z_inside=inside_z([4000], 0)) == BALANCED


def test_the_error_rate_is_spent_over_the_looks_and_the_seats():
    looks = [200, 400, 800, 1000]
    z_first, z_third, z_last = (sequential_z(looks, look, 4) for look in (0, 2, 3))
    assert z_first == z_last > z_third > 1.96  # a look spends its games' share of 5%, split over four seats
    assert sequential_z([1000], 0, 1) == pytest.approx(1.959964, abs=1e-5)  # one look, one interval: the 95% interval
    assert judged_intervals([60.0, 40.0], 100) == 1 and judged_intervals([60.0, 30.0], 100) == 2
    with pytest.raises(ValueError):
        sequential_z([400, 200], 0, 1)
