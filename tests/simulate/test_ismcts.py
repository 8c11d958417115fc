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
from spellpress.simulate.ismcts import CannotSearch, ISMCTSPlayer, evaluate
from spellpress.simulate.play import play_game
from spellpress.simulate.runner import RunSpec, Seat, run
from tests.conftest import FIXTURES

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["evocabulary", "lost-words", "magic-spell", "spelled", "word-rummy", "word-to-the-wise"]


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


@pytest.mark.parametrize("gid", [pytest.param(g, marks=pytest.mark.slow) if g == "evocabulary" else g for g in GAMES])
def test_determinize_redeals_only_what_the_seat_cannot_see(loaded, gid):
    game, rules = loaded(gid)
    state = midgame(game, rules, seed=3, decisions=5 if gid == "word-rummy" else 25)  # rummy: before anyone lays down
    seat = state.current_player()
    before = hidden_cards(state, seat)
    legal = list(state.legal_actions())
    changed = False
    for k in range(6):
        d = state.determinize(seat, random.Random(k))
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
    copy = state.clone()
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
@pytest.mark.slow
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


def test_an_engine_that_cannot_determinize_is_refused_not_searched_with_every_card_visible(tmp_path, capsys):
    import re
    import shutil

    import yaml

    from tests.rules.test_example_engine import example_engine

    folder = tmp_path / "open-hands"
    shutil.copytree(FIXTURES / "toy-game", folder)
    spec = yaml.safe_load((folder / "game.yaml").read_text())
    spec.update(rules={"engine": "rules.py", "deck": "numbers", "points": "value"})
    (folder / "game.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    source, removed = re.subn(r"\n    def determinize\(self.*?return copy\n", "\n", example_engine(), flags=re.S)
    assert removed == 1
    (folder / "rules.py").write_text(source)
    assert main(["simulate", str(folder), "--agents", "ismcts,random", "--budget", "4", "--games", "2", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert "rules.py:" in err and "does not define determinize(seat, rng)" in err and "cannot play" in err
    game = load_game(folder)
    rules = rules_for(game)
    state = rules.new_state(game, 2)
    with pytest.raises(CannotSearch):
        while state.current_player() == CHANCE:
            state.apply(state.chance_outcomes()[0][0])
        ISMCTSPlayer(rules, 4).act(state, state.current_player(), random.Random(1))


class _AlwaysDiscard:
    name = "always-discard"

    def act(self, state, seat, rng):
        return "discard"


def _toy_rules(**changes):
    """The toy engine (draw a card, keep or discard it; the highest kept total wins) with a changed state or heuristic."""
    from tests.simulate.toy import ToyRules, ToyState

    state_class = type("ChangedToyState", (ToyState,), changes.pop("state", {}))

    class Changed(ToyRules):
        def new_state(self, game, players, options=None):
            return state_class(game, players)

        def heuristic_player(self, skill: float = 1.0):
            return changes.get("heuristic") or super().heuristic_player(skill)

    return Changed()


def _decisions(rules, player, count: int):
    """The search player's choice and the drawn card at `count` first decisions of seeded toy games."""
    game = load_game(FIXTURES / "toy-game")
    seen = []
    for seed in range(count):
        rng = random.Random(seed)
        state = rules.new_state(game, 2)
        state.apply(state.chance_outcomes()[int(rng.random() * 4)][0])
        seen.append((state.drawn, player.act(state, state.current_player(), rng)))
    return seen


def test_the_search_finds_the_better_move_the_heuristic_misses():
    rules = _toy_rules(heuristic=_AlwaysDiscard())
    player = ISMCTSPlayer(rules, 32)
    seen = _decisions(rules, player, 12)
    assert {action for _, action in seen} == {"keep"}  # any card kept wins against a player who keeps none
    assert player.changed == len(seen)


def test_the_search_keeps_the_heuristics_move_where_moves_do_not_matter():
    """Keep or discard, the card is kept: the outcome is the deal's luck alone. Every move tried in a world
    meets the same luck (common random numbers), so no playout's luck makes another move look better."""
    def apply(self, action):
        from tests.simulate.toy import ToyState

        ToyState.apply(self, "keep" if action == "discard" else action)

    rules = _toy_rules(heuristic=_AlwaysDiscard(), state={"apply": apply})
    player = ISMCTSPlayer(rules, 64)
    assert {action for _, action in _decisions(rules, player, 12)} == {"discard"} and player.changed == 0


def test_a_challenger_needs_paired_differences_clearly_above_zero():
    from spellpress.simulate.ismcts import confirmed

    assert not confirmed([])
    assert not confirmed([1.0])  # one world says nothing
    assert not confirmed([1.0, 0.0, 0.0, 0.0])  # one lucky world of four
    assert not confirmed([0.0] * 40)  # as good is not better
    assert confirmed([1.0] * 4)  # four of four
    assert confirmed([1.0, 0.0] * 20)  # +0.5 over 40 worlds
    assert not confirmed([1.0, -1.0, 0.0] * 10 + [1.0])  # +0.03 over 31 worlds: noise


@pytest.mark.parametrize("budget, legal, expected", [(8, 40, 2), (32, 40, 5), (128, 40, 16), (128, 3, 3), (2, 10, 2)])
def test_sequential_halving_tries_as_many_moves_as_the_budget_gives_two_worlds_each(budget, legal, expected):
    from spellpress.simulate.ismcts import candidates_for

    assert candidates_for(budget, legal) == expected


def test_a_horizon_cuts_each_playout_that_many_turns_after_the_move(loaded, monkeypatch):
    """With a horizon a playout stops that many turns after the move and scores who leads; without
    one it plays to the game's end."""
    import spellpress.simulate.ismcts as ismcts

    game, rules = loaded("evocabulary")
    state = midgame(game, rules, seed=4)
    seat = state.current_player()
    ended: list = []
    monkeypatch.setattr(ismcts, "evaluate", lambda s: ended.append((s.turns, s.current_player())) or [0.5] * s.players)
    for horizon in (3, None):
        ended.clear()
        player = ISMCTSPlayer(rules, 4, horizon=horizon)
        world = player._world(state, seat, random.Random(7))
        action = rules.heuristic_player(1.0).act(state, seat, random.Random(7))
        after = world[0].clone()
        after.apply(action)
        player._playout(world, action, seat)
        turns, to_move = ended[0]
        if horizon:
            assert turns == after.turns + horizon and to_move != TERMINAL
        else:
            assert to_move == TERMINAL and turns > after.turns + 3
    assert ISMCTSPlayer(rules, 4, horizon=3).name == "ismcts-4-h3" == Seat("ismcts", budget=4, horizon=3).label
    with pytest.raises(ValueError, match="horizon"):
        ISMCTSPlayer(rules, 4, horizon=0)


def test_fast_playouts_are_played_by_the_engines_playout_player(loaded, monkeypatch):
    """playout="fast": the playouts' moves are the engine's playout player's (Evocabulary's own, the
    heuristic where an engine has none); the default move stays the heuristic's."""
    from spellpress.rules.evocabulary.playout import PlayoutPlayer

    game, rules = loaded("evocabulary")
    state = midgame(game, rules, seed=4)
    seat = state.current_player()
    player = ISMCTSPlayer(rules, 4, playout="fast")
    asked: list = []
    heuristic = rules.heuristic_player(1.0)
    monkeypatch.setattr(PlayoutPlayer, "act", lambda self, s, who, rng: asked.append(who) or heuristic.act(s, who, rng))
    world = player._world(state, seat, random.Random(7))
    player._playout(world, rules.heuristic_player(1.0).act(state, seat, random.Random(7)), seat)
    assert sorted(set(asked)) == [0, 1]  # every seat's moves in the playout
    asked.clear()
    player.default_policy.act(state, seat, random.Random(7))
    assert not asked and not isinstance(player.default_policy, PlayoutPlayer)
    assert player.name == "ismcts-4-fast" == Seat("ismcts", budget=4, playout="fast").label
    spelled = loaded("spelled")[1]
    assert type(ISMCTSPlayer(spelled, 4, playout="fast").policy) is type(spelled.heuristic_player(1.0))
    with pytest.raises(ValueError, match="playout"):
        ISMCTSPlayer(rules, 4, playout="quick")
