"""Game metrics beyond win rates: lead changes, decisiveness, drama, moves (docs/simulate.md)."""

import pytest

from spellpress.rules.protocol import Outcome
from spellpress.simulate.game_metrics import aggregate, per_game
from spellpress.simulate.metrics import summary
from spellpress.simulate.play import play_game
from spellpress.simulate.runner import RunSpec, run
from tests.conftest import FIXTURES
from tests.simulate.toy import RULES as TOY_RULES


def test_lead_changes_decisiveness_and_drama_of_one_game():
    trace = [[0, 0], [1, 0], [1, 2], [3, 2], [3, 5], [4, 6]]  # seat 2 wins after swapping the lead 3 times
    figures = per_game(trace, Outcome([4.0, 6.0], [1], 5))
    assert figures["lead_changes"] == 3 and figures["lead_change_rate"] == pytest.approx(3 / 5)
    assert figures["decided_at"] == pytest.approx(4 / 5)  # the winner leads for good from the 5th snapshot
    assert figures["winner_trailed"] == pytest.approx(2 / 6)
    assert figures["drama"] == pytest.approx(1.0) and figures["winner_max_deficit"] == 1.0
    assert figures["draw"] == 0.0 and figures["timeout"] == 0.0


def test_a_wire_to_wire_win_has_no_drama_and_is_decided_at_once():
    figures = per_game([[0, 0], [2, 1], [5, 1]], Outcome([5.0, 1.0], [0], 2))
    assert figures["lead_changes"] == 0 and figures["decided_at"] == 0.0
    assert figures["winner_trailed"] == 0.0 and figures["drama"] == 0.0


def test_team_mates_share_a_lead_and_draws_and_timeouts_are_counted():
    trace = [[5, 6, 5], [7, 6, 7], [7, 9, 7], [8, 0, 8]]  # seats 1+3 against seat 2
    figures = per_game(trace, Outcome([8.0, 0.0, 8.0], [0, 2], 3, teams=[[0, 2], [1]]))
    assert figures["lead_changes"] == 3 and figures["winner_trailed"] == pytest.approx(2 / 4)
    assert figures["draw"] == 0.0  # a team's win is not a draw
    assert per_game(trace, Outcome([8.0, 0.0, 8.0], [0, 1, 2], 3))["draw"] == 1.0
    stalled = per_game(trace, Outcome([8.0, 0.0, 8.0], [], 3, stalled=True))
    assert stalled["timeout"] == 1.0 and "decided_at" not in stalled


def test_move_counts_come_from_the_legal_actions_at_each_decision():
    from spellpress.load.game import load_game

    game = load_game(FIXTURES / "toy-game")
    players = [TOY_RULES.heuristic_player(1.0)] * 2
    measured = play_game(TOY_RULES, game, players, 3, measure_moves=True).metrics
    plain = play_game(TOY_RULES, game, players, 3).metrics
    assert measured["decisions"] >= measured["forced"] and measured["choices"] >= measured["decisions"] > 0
    assert "decisions" not in plain and plain["lead_changes"] == measured["lead_changes"]
    from spellpress.rules.protocol import Outcome
    from spellpress.simulate.tally import Tally

    tally = Tally(2)
    for metrics in (measured, plain):
        tally.add(Outcome([0.0, 0.0], [0], 1, metrics=metrics), 0)
    figures = aggregate(tally)
    assert figures["move_sample_games"] == 1
    assert figures["branching_factor"] == measured["choices"] / measured["decisions"]
    assert figures["forced_share"] == measured["forced"] / measured["decisions"]


def test_move_counts_ask_the_engines_own_count(monkeypatch):
    """An engine may count its legal actions without listing them (State.count_legal_actions): the
    tracker asks that count, never the list."""
    from spellpress.load.game import load_game
    from tests.simulate.toy import ToyState

    game = load_game(FIXTURES / "toy-game")
    players = [TOY_RULES.heuristic_player(1.0)] * 2
    monkeypatch.setattr(ToyState, "count_legal_actions", lambda self: 5)
    measured = play_game(TOY_RULES, game, players, 3, measure_moves=True).metrics
    assert measured["choices"] == 5 * measured["decisions"] > 0 and measured["forced"] == 0


def test_simulate_reports_the_metrics_the_same_on_any_worker():
    spec = RunSpec(str(FIXTURES / "toy-game"), 3, 120, seed=2, engine="tests.simulate.toy")
    one, two = summary(run(spec, workers=1)), summary(run(spec, workers=2))
    assert one["game_metrics"] == two["game_metrics"]
    figures = one["game_metrics"]
    assert figures["games"] == 120 and figures["move_sample_games"] == 12
    assert 0 <= figures["decided_at"] <= 1 and figures["branching_factor"] >= 1 and figures["timeouts"] == 0
