"""What a tune's budget can decide, said before the search (issue 40): the 95% intervals of the targets'
figures at the rungs and the verification, and the games a decision needs."""

from __future__ import annotations

import pytest

from spellpress.tune.power import power, power_lines
from spellpress.tune.targets import parse_targets


def test_seats_within_3_points_at_4_players():
    (row,) = power(parse_targets(["seats=3"]), players=4, first=200, games=1000, verify=4000, samples=2000)
    # a fair seat wins 1/4: +/-1.96 * sqrt(0.25 * 0.75 / n) -> 6.0 points at 200 games, 2.7 at 1,000 (docs/tune.md);
    # the verification (simulate's rule) calls a seat held by its one-sided interval, z = 1.645: +/-1.13 points at
    # 4,000 games; missed by the interval read with the 4 seats together, z = 2.50: +/-1.71
    assert row["half_width"]["first rung"] == pytest.approx(6.0, abs=0.05)
    assert row["half_width"]["every rung"] == pytest.approx(2.68, abs=0.01)
    assert row["verification_z"] == pytest.approx(2.498, abs=0.001)
    assert row["verification_z_inside"] == pytest.approx(1.645, abs=0.001)
    assert row["half_width"]["verification"] == pytest.approx(1.13, abs=0.01)
    assert row["half_width"]["verification (miss)"] == pytest.approx(1.71, abs=0.01)
    assert row["needed_on_aim"] == 564 and row["needed_halfway"] == 2255 and row["decidable"]  # (1.645 * 43.3 / 3)^2
    assert row["held_within"] == pytest.approx(1.87, abs=0.01) and row["missed_beyond"] == pytest.approx(4.71, abs=0.01)
    (short,) = power(parse_targets(["seats=3"]), players=4, first=200, games=1000, verify=500, samples=2000)
    assert short["half_width"]["verification"] == pytest.approx(3.19, abs=0.01) and not short["decidable"]


def test_the_verification_counts_every_interval_it_reads():
    (row,) = power(parse_targets(["cards=5"]), players=4, first=200, games=1000, verify=12000, samples=2000, cards=29)
    assert row["verification_z"] == pytest.approx(3.134, abs=0.001)  # a miss: 5% shared by 29 cards
    assert row["verification_z_inside"] == pytest.approx(1.645, abs=0.001)  # a hold: each card's own, one-sided
    (two,) = power(parse_targets(["seats=3"]), players=2, first=200, games=1000, verify=1000, samples=2000)
    assert two["verification_z"] == pytest.approx(1.96, abs=0.001)  # two seats that share every game: one interval


def test_a_budget_that_cannot_decide_says_so_and_what_would():
    rows = power(parse_targets(["seats=3", "points_rank=0.97", "length=10..20"]), players=4, first=100, games=400,
                 verify=400, samples=2000)
    lines = power_lines(rows, 4)
    assert "cannot decide even a figure exactly on the aim" in lines[0] and "takes 564 games" in lines[0]
    assert "z = 2.58, every interval it reads together" in lines[0]  # a miss: 5 intervals share the 5%
    assert "no sampling error" in lines[1] and "not foretold" in lines[2]


def test_letter_shares_are_judged_on_the_samples():
    (row,) = power(parse_targets(["going_out=0.55..0.65"]), players=2, first=0, games=0, verify=0, samples=2000)
    assert row["unit"] == "hands" and row["verification"] == 2000
    assert row["half_width"]["verification"] == pytest.approx(1.645 * (0.6 * 0.4 / 2000) ** 0.5, rel=1e-3)
    assert row["needed_on_aim"] == 260  # 1.645^2 * 0.24 / 0.05^2


def _judged(values_and_noise: list[tuple[float, float]], candidate: tuple[float, float], eta: int = 3) -> bool:
    """Whether the halving pruner stops `candidate` (score, uncertainty) at rung 0 among finished peers."""
    import optuna
    from optuna.distributions import FloatDistribution
    from optuna.trial import TrialState, create_trial

    from spellpress.tune.study import _pruner

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(pruner=_pruner(eta, min_peers=2))
    for value, noise in values_and_noise:
        study.add_trial(create_trial(state=TrialState.PRUNED, params={"x": 0.0}, distributions={"x": FloatDistribution(0, 1)},
                                     intermediate_values={0: value}, user_attrs={"uncertainty 0": noise}))
    trial = study.ask()
    trial.set_user_attr("uncertainty 0", candidate[1])
    trial.report(candidate[0], 0)
    return trial.should_prune()


def test_halving_stops_only_a_candidate_worse_beyond_the_noise():
    peers = [(1.0, 0.3), (1.2, 0.3), (2.0, 0.3), (2.5, 0.3), (3.0, 0.3)]
    assert not _judged(peers, (0.9, 0.3))  # among the best third: it goes on
    assert not _judged(peers, (1.5, 0.3))  # outside the best third, but within the noise of the last that goes on
    assert _judged(peers, (2.2, 0.3))  # worse than 1.2 + 0.3 by more than its own 0.3: stopped
    assert not _judged([(v, 2.0) for v, _ in peers], (2.2, 2.0))  # the same scores, too few games to tell: plays on
    assert _judged([(v, 0.0) for v, _ in peers], (1.3, 0.0))  # no noise (a length, a letter figure): plain halving
