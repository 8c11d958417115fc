"""The IS-MCTS reference player: determinization, strength against random, reproducibility."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from spellpress.cli import main
from spellpress.load.game import load_game
from spellpress.rules.plugins import rules_for
from spellpress.rules.protocol import CHANCE, TERMINAL, RandomPlayer
from spellpress.simulate.ismcts import ISMCTSPlayer, clone, determinize, evaluate
from spellpress.simulate.play import play_game
from spellpress.simulate.runner import RunSpec, Seat, run
from tests.conftest import FIXTURES

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["evocabulary", "lost-words", "magic-spell", "spelled", "word-to-the-wise"]


@pytest.fixture(scope="module")
def loaded():
    cache = {}

    def get(gid):
        if gid not in cache:
            game = load_game(ROOT / "cards" / gid)
            cache[gid] = (game, rules_for(game))
        return cache[gid]
    return get


def midgame(game, rules, seed: int, decisions: int = 25):
    """A state some way into a heuristic game, at a player's decision."""
    rng = random.Random(seed)
    players = [rules.heuristic_player(1.0) for _ in range(game.spec.players.min)]
    state = rules.new_state(game, len(players))
    made = 0
    while state.current_player() != TERMINAL:
        seat = state.current_player()
        if seat == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        if made >= decisions:
            return state
        state.apply(players[seat].act(state, seat, rng))
        made += 1
    raise AssertionError("the game ended before the position was reached")


def hidden_cards(state, seat):
    """What other seats hold (hands, cabinets), by engine, as one multiset per seat."""
    for name in ("hands", "hand", "cabinet"):
        places = getattr(state, name, None)
        if isinstance(places, list) and len(places) == state.players:
            return [Counter(map(str, p)) for p in places]
    raise AssertionError("no hands")


@pytest.mark.parametrize("gid", GAMES)
def test_determinize_redeals_only_what_the_seat_cannot_see(loaded, gid):
    game, rules = loaded(gid)
    state = midgame(game, rules, seed=3)
    seat = state.current_player()
    before = hidden_cards(state, seat)
    legal = list(state.legal_actions())
    changed = False
    for k in range(6):
        d = determinize(rules, state, seat, random.Random(k))
        d.check_invariants()  # every card still in exactly one place
        after = hidden_cards(d, seat)
        assert after[seat] == before[seat]  # the seat's own cards are what it sees
        assert [sum(c.values()) for c in after] == [sum(c.values()) for c in before]  # hand sizes are public
        assert list(d.legal_actions()) == legal  # its own choices do not depend on what it cannot see
        changed |= any(after[o] != before[o] for o in range(state.players) if o != seat)
    assert changed, "other players' cards were never re-dealt"
    assert hidden_cards(state, seat) == before  # the real state is untouched


def test_clone_shares_static_tables_and_copies_the_rest(loaded):
    game, rules = loaded("spelled")
    state = midgame(game, rules, seed=1)
    copy = clone(state)
    assert copy.cat is state.cat and copy.defs is state.defs
    assert copy.hand is not state.hand and copy.hand == state.hand
    copy.hand[0].clear()
    assert state.hand[0]


def test_evaluate_is_a_win_share_at_the_end(loaded):
    game, rules = loaded("lost-words")
    out = None
    rng = random.Random(2)
    state = rules.new_state(game, 2)
    players = [rules.heuristic_player(1.0)] * 2
    while state.current_player() != TERMINAL:
        seat = state.current_player()
        if seat == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply(players[seat].act(state, seat, rng))
    out = state.outcome()
    values = evaluate(state)
    assert sum(values) == pytest.approx(1.0) and all(values[s] > 0 for s in out.winners)


@pytest.mark.parametrize("gid, games", [("spelled", 6), ("lost-words", 6)])
def test_ismcts_beats_random(loaded, gid, games):
    game, rules = loaded(gid)
    wins = 0.0
    for g in range(games):
        seat = g % 2
        seats = [ISMCTSPlayer(rules, 8) if s == seat else RandomPlayer() for s in range(2)]
        out = play_game(rules, game, seats, 40 + g, check=g == 0)
        wins += seat in out.winners
    assert wins >= games - 1


@pytest.mark.slow
def test_ismcts_plays_a_game_folders_own_engine_the_same_on_any_worker_and_on_dask():
    spec = RunSpec(str(FIXTURES / "toy-game"), 2, 8, seed=4, lineup=(Seat("ismcts", budget=6), Seat("random")),
                   engine="tests.simulate.toy")
    flat = lambda result: [(r.index, r.outcome.scores, r.outcome.winners, r.outcome.turns) for r in result.records]  # noqa: E731
    one = run(spec, workers=1, keep_records=True)
    assert flat(one) == flat(run(spec, workers=2, keep_records=True))
    pytest.importorskip("dask.distributed")
    assert flat(one) == flat(run(spec, workers=2, dask="local", keep_records=True))


def test_simulate_agents_reports_each_players_win_rate(capsys):
    toy = str(FIXTURES / "toy-game")
    assert main(["simulate", toy, "--agents", "ismcts,random", "--budget", "4", "--games", "8",
                 "--workers", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = {row["agent"]: row for row in report["agents"]}
    assert set(rows) == {"ismcts-4", "random"} and rows["ismcts-4"]["seat_games"] == 8
    assert rows["ismcts-4"]["win_rate"] + rows["random"]["win_rate"] == pytest.approx(1.0, abs=1e-9) or report["stalls"]
    assert "luck" not in report


@pytest.mark.parametrize("args, words", [
    (["--agents", "ismcts,genius"], "unknown player 'genius'"),
    (["--agents", "ismcts", "--budget", "0"], "at least 1 playout"),
])
def test_simulate_agents_errors(capsys, args, words):
    assert main(["simulate", str(FIXTURES / "toy-game"), "--games", "2", *args]) == 2
    assert words in capsys.readouterr().err
