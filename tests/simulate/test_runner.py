"""The simulation framework on a toy game: determinism, seat rotation, invariants, metrics."""

import pytest

from spellpress.load.game import load_game
from spellpress.rules.protocol import RandomPlayer
from spellpress.simulate.metrics import summary, wilson
from spellpress.simulate.play import play_game
from spellpress.simulate.runner import RunSpec, Seat, batches, run
from tests.conftest import FIXTURES

TOY = FIXTURES / "toy-game"


def spec(**kw):
    base = dict(folder=str(TOY), players=3, games=300, seed=7, check=True, engine="tests.simulate.toy")
    base.update(kw)
    return RunSpec(**base)


def flat(result):
    return [(r.index, r.outcome.scores, r.outcome.winners, r.outcome.turns) for r in result.records]


def test_same_seed_same_games_whatever_the_workers():
    one = run(spec(), workers=1, keep_records=True)
    two = run(spec(), workers=2, keep_records=True)
    assert flat(one) == flat(two)
    assert len(one.records) == 300


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_games():
    pytest.importorskip("dask.distributed")
    assert flat(run(spec(games=120), workers=2, dask="local", keep_records=True)) == flat(run(spec(games=120), workers=1,
                                                                                              keep_records=True))


def test_a_different_seed_gives_different_games():
    assert flat(run(spec(seed=8), workers=1, keep_records=True)) != flat(run(spec(seed=7), workers=1, keep_records=True))


def test_batches_cover_every_game_once_and_are_not_tiny():
    chunks = list(batches(1003, 2))
    covered = [i for start, stop in chunks for i in range(start, stop)]
    assert covered == list(range(1003))
    assert min(stop - start for start, stop in chunks[:-1]) >= 25


def test_every_lineup_member_visits_every_seat():
    lineup = (Seat("heuristic", 1.0), Seat("random"), Seat("random"))
    result = run(spec(lineup=lineup, games=30), workers=1, keep_records=True)
    offsets = {r.lineup_offset for r in result.records}
    assert offsets == {0, 1, 2}


def test_invariants_hold_after_every_action():
    from tests.simulate.toy import RULES

    game = load_game(TOY)
    for seed in range(50):
        play_game(RULES, game, [RandomPlayer(), RandomPlayer()], seed, check=True)


def test_a_broken_engine_is_caught_by_the_invariant_check(monkeypatch):
    from spellpress.rules.protocol import InvariantError
    from tests.simulate import toy

    original = toy.ToyState.apply

    def leaky(self, action):
        original(self, action)
        if self.discard:
            self.discard.pop()  # loses a card

    monkeypatch.setattr(toy.ToyState, "apply", leaky)
    with pytest.raises(InvariantError):
        play_game(toy.RULES, load_game(TOY), [RandomPlayer(), RandomPlayer()], 3, check=True)


def test_a_game_past_the_turn_cap_is_a_stall(monkeypatch):
    from tests.simulate import toy

    monkeypatch.setattr(toy.RULES, "turn_cap", 3)
    outcome = play_game(toy.RULES, load_game(TOY), [RandomPlayer(), RandomPlayer()], 1)
    assert outcome.stalled and outcome.winners == []
    report = summary(run(spec(games=40), workers=1))
    assert report["stalls"] == 40


def test_metrics_add_up():
    result = run(spec(games=400), workers=1)
    report = summary(result)
    rates = [seat["win_rate"] for seat in report["seats"]]
    assert sum(rates) == pytest.approx(1.0)
    for seat in report["seats"]:
        low, high = seat["ci95"]
        assert low <= seat["win_rate"] <= high
    assert report["length"]["mean"] == 12  # 4 turns each for 3 players
    nine = next(row for row in report["components"] if row["key"] == "card:numbers-004")
    # the single 9 decides games: keeping it must raise the win rate a lot
    assert nine["win_rate_difference"] > 0.3
    assert report["figures"]["kept"] > 0


def test_the_luck_figure_credits_the_better_player_wherever_it_sits():
    lineup = (Seat("heuristic", 1.0), Seat("random"), Seat("random"))
    result = run(spec(lineup=lineup, games=600), workers=1)
    report = summary(result, result)
    assert report["luck"]["better_player_win_rate"] > 0.45  # well above a third


def test_wilson_interval_matches_known_values():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0


def test_a_user_error_in_a_worker_reaches_the_parent_whole():
    import pickle

    from spellpress.errors import Location, UserError

    error = UserError.at(Location(TOY / "game.yaml", 3, 4), "bad option")
    copy = pickle.loads(pickle.dumps(error))
    assert copy.problems == error.problems and str(copy) == str(error)


def test_common_random_numbers_deal_each_rotation_of_a_block_the_same_cards():
    from spellpress.simulate.runner import play_batch

    lineup = (Seat("heuristic", 1.0), Seat("random"), Seat("random"))
    records = play_batch(spec(lineup=lineup, games=6, common_random_numbers=True), 0, 6)
    # the toy's first chance event is the first card; a block of 3 rotations shares it
    firsts = [record.outcome.figures.get("first_card") for record in records]
    assert firsts[0] == firsts[1] == firsts[2] and firsts[3] == firsts[4] == firsts[5]
    assert [r.lineup_offset for r in records] == [0, 1, 2, 0, 1, 2]
    plain = play_batch(spec(lineup=lineup, games=6), 0, 6)
    assert len({r.outcome.figures.get("first_card") for r in plain}) > 1


def test_a_difference_needs_enough_seat_games_on_both_sides():
    report = summary(run(spec(games=40), workers=1))
    for row in report["components"]:
        played = row["play_rate"] * 40 * 3
        if min(played, 120 - played) < 30:
            assert row["win_rate_difference"] is None
        else:
            assert row["win_rate_difference"] is not None


def test_a_team_mode_is_judged_per_team_not_per_seat():
    from spellpress.rules.protocol import Outcome
    from spellpress.simulate.runner import GameRecord, RunResult

    result, teamless = RunResult(spec(games=200)), RunResult(spec(games=200))
    for index in range(200):  # seats 1+3 against seat 2, each side winning half the games
        winners = [0, 2] if index % 2 else [1]
        result.add(GameRecord(index, 0, Outcome([1.0, 0.0, 1.0], winners, 10, teams=[[0, 2], [1]])))
        teamless.add(GameRecord(index, 0, Outcome([1.0, 0.0, 1.0], winners, 10)))
    report = summary(result)
    assert [round(row["win_rate"], 3) for row in report["seats"]] == [0.25, 0.5, 0.25]  # per seat: lopsided
    assert report["judged_by"] == "teams" and [row["win_rate"] for row in report["teams"]] == [0.5, 0.5]
    assert report["max_seat_deviation_points"] == 0.0
    assert summary(teamless)["judged_by"] == "seats" and summary(teamless)["max_seat_deviation_points"] > 8


def test_a_run_of_any_length_keeps_a_fixed_amount_of_memory(monkeypatch):
    """Tasks are submitted a few at a time and folded as they finish; no game is kept."""
    import pickle
    from concurrent.futures import Future

    from spellpress.simulate import runner

    outstanding, most = [0], [0]

    class CountingExecutor:  # runs each task when submitted; counts the ones not yet folded
        def __init__(self, workers, dask):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass

        def submit(self, fn, *args):
            outstanding[0] += 1
            most[0] = max(most[0], outstanding[0])
            future = Future()
            future.set_result(fn(*args))
            real_result = future.result

            def result(timeout=None):
                outstanding[0] -= 1
                return real_result(timeout)

            future.result = result
            return future

    monkeypatch.setattr(runner, "_executor", CountingExecutor)
    monkeypatch.setattr(runner, "BATCH_MOST", 30)  # many tasks, from few games
    sizes = {}
    for games in (600, 3000):
        result = run(spec(games=games, check=False), workers=2)
        assert result.records == [] and result.tally.games == games
        sizes[games] = len(pickle.dumps(result.tally))
    assert most[0] <= 4 * 2, f"{most[0]} tasks were waiting at once"
    assert sizes[3000] < 1.2 * sizes[600], sizes  # five times the games, the same totals


def test_batches_of_a_huge_run_are_made_as_needed_and_stay_small():
    chunks = batches(10**12, 2)
    first = [next(chunks) for _ in range(3)]
    assert first == [(0, 500), (500, 1000), (1000, 1500)]
