"""Tune's verification judges a proposal by simulate's rule (issue 40, simulate.api.Decision): a miss by every
interval the verdict reads, over all its targets, at the quantile that shares the 5% error among them; a hold
by each interval one-sided at 5%. A verified verdict is then wrong at most 5% of the time, at the band's edge
too: with a plain 95% interval a seat, 4 seats just inside the +/-3 band were called "not balanced" about 7%
of the time.

The games are drawn, seeded, as the outcomes of a game whose seats win at known rates, and fed to
tune's own `verify` in place of the played games."""

from __future__ import annotations

from collections import Counter

import numpy
import pytest

from spellpress.load.game import load_game
from spellpress.rules.plugins import rules_for
from spellpress.simulate.api import Decision, Tally
from spellpress.tune import study as tune_study
from spellpress.tune.command import plan_for
from spellpress.tune.options import TuneOptions
from tests.conftest import FIXTURES

GAMES = 2000
RUNS = 1500


def verdicts(monkeypatch, rates: tuple[float, ...], seed: int) -> list[dict]:
    """Tune's verification of RUNS candidates, each on GAMES games whose seats win at these true rates."""
    rng = numpy.random.default_rng(seed)
    tallies = [Tally(len(rates), games=GAMES, finished=GAMES, seat_wins=[float(w) for w in wins], lengths=Counter({10: GAMES}))
               for wins in rng.multinomial(GAMES, rates, size=RUNS)]
    monkeypatch.setattr(tune_study, "run_chunks", lambda *args, **kwargs: tallies)
    game = load_game(FIXTURES / "toy-game")
    rules = rules_for(game)
    options = TuneOptions(game="toy", vary=("rules.turns_each=2..7",), target=("seats=3",), players=len(rates))
    return tune_study.verify(game, rules, plan_for(game, rules, options), [()] * RUNS, GAMES, None, 1)


@pytest.mark.parametrize("rates, wrong", [
    ((0.279, 0.279, 0.221, 0.221), "not balanced"),  # every seat 2.9 points off: inside the band, at its edge
    ((0.25, 0.25, 0.25, 0.25), "not balanced"),  # fair
    ((0.281, 0.281, 0.219, 0.219), "balanced"),  # every seat 3.1 points off: outside
    ((0.529, 0.471), "not balanced"),
    ((0.531, 0.469), "balanced"),
])
def test_a_decided_verification_is_wrong_at_most_5_percent_of_the_time(monkeypatch, rates, wrong):
    rows = verdicts(monkeypatch, rates, seed=len(rates) * 100 + round(1000 * rates[0]))
    called = Counter(row["verdict"] for row in rows)
    assert called[wrong] / RUNS <= 0.05, called
    judged = 1 if len(rates) == 2 else len(rates)  # two seats that share every game are one interval
    decision = Decision(judged, (1,))
    assert {(row["judged"], row["z"], row["z_inside"]) for row in rows} == {(judged, decision.z, decision.z_inside)}


def test_the_verdict_reads_every_target_s_intervals_together(monkeypatch):
    rows = verdicts(monkeypatch, (0.25, 0.25, 0.25, 0.25), seed=7)[:1]
    assert rows[0]["judged"] == 4 and rows[0]["z"] > 2.49  # a miss: 5% shared by 4 seats, 0.625% a side each
    assert rows[0]["z_inside"] == pytest.approx(1.645, abs=0.001)  # a hold: each seat's own 5%, one side
    assert rows[0]["verdict"] == "balanced"
    low, high = rows[0]["targets"][0]["worst"]["interval"]  # the interval its "held" read
    worst = rows[0]["targets"][0]["worst"]["what"]
    seat = rows[0]["figures"]["seats"][int(worst.split()[-1]) - 1]
    low95, high95 = seat["ci95"]
    assert high - low == pytest.approx(100 * (high95 - low95) * 1.645 / 1.96, rel=0.02)  # narrower than the 95%
