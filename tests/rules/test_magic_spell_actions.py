"""Magic Spell's typed actions: one named tuple per kind, one method per verb, and records of plain
tuples (JSON lists, as game records and records made before the types hold them) still replay."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from spellpress.load.game import load_game
from spellpress.play.records import load
from spellpress.play.table import replay
from spellpress.rules.action_json import from_json_value, to_json_value
from spellpress.rules.magic_spell import RULES, MagicSpellPlayer
from spellpress.rules.magic_spell.actions import DRAW_TYPES, MOVE_TYPES, typed
from spellpress.rules.magic_spell.state import _MOVES
from spellpress.rules.protocol import CHANCE, TERMINAL, IllegalAction, RandomPlayer

ROOT = Path(__file__).resolve().parents[2]
# made by `spellpress play` before actions had types: a human seat playing at random, two heuristics
OLD_RECORD = ROOT / "tests" / "fixtures" / "play-records" / "magic-spell-tuple-actions.json"


@pytest.fixture(scope="module")
def game():
    return load_game(ROOT / "cards" / "magic-spell")


def positions(game, games: int = 3):
    """Every decision and chance point of seeded games (a random seat among heuristics), with what was chosen."""
    for seed in range(games):
        rng = random.Random(seed)
        players = [MagicSpellPlayer(None), RandomPlayer(), MagicSpellPlayer(6)]
        state = RULES.new_state(game, 3, {"stones": seed == 1})
        while (seat := state.current_player()) != TERMINAL:
            if seat == CHANCE:
                outcomes = state.chance_outcomes()
                action = outcomes[int(rng.random() * len(outcomes))][0]
            else:
                action = players[seat].act(state, seat, rng)
            yield state, action
            state.apply(action)


def test_every_verb_has_its_named_tuple_and_its_own_method():
    assert set(_MOVES) == set(MOVE_TYPES)
    assert len({method for method, _ in _MOVES.values()}) == len(_MOVES)


def test_actions_are_typed_equal_to_plain_tuples_and_print_as_them(game):
    kinds = set()
    for state, action in positions(game, games=2):
        kinds.add(type(action).__name__)
        plain = tuple(action)
        assert action == plain and hash(action) == hash(plain) and repr(action) == repr(plain)
        assert type(typed(plain, DRAW_TYPES if state.current_player() == CHANCE else MOVE_TYPES)) is type(action)
    assert {"Weave", "Take", "Choice", "LabDraw", "SpellDraw"} <= kinds


def test_every_legal_action_comes_back_from_json_and_applies_as_a_plain_tuple(game):
    checked = 0
    for index, (state, _) in enumerate(positions(game, games=1)):
        if state.current_player() == CHANCE or index % 4:
            continue
        legal = state.legal_actions()
        for action in legal:
            back = from_json_value(to_json_value(action))
            assert back == action and type(back) is tuple
        plain, named = state.clone(), state.clone()
        action = legal[len(legal) // 2]
        plain.apply(tuple(action))
        named.apply(action)
        assert plain.observation(plain.seat) == named.observation(named.seat)
        checked += 1
    assert checked > 40


@pytest.mark.parametrize("bad", [("weave", 1, 2), ("cast",), ("fly", 1), (), "rest", ["rest"], ([1], 2), None])
def test_an_unknown_verb_or_a_wrong_number_of_fields_is_illegal(game, bad):
    state = RULES.new_state(game, 3, {})
    while state.current_player() == CHANCE:
        state.apply(state.chance_outcomes()[0][0])
    with pytest.raises(IllegalAction):
        state.apply(bad)


def test_a_play_record_from_before_typed_actions_replays_to_its_scores(game):
    record = load(OLD_RECORD)
    assert record.game == "magic-spell" and all(type(action) is tuple for action in record.actions)
    state = replay(RULES, game, len(record.seats), record.actions)
    assert state.is_terminal() and state.returns() == record.scores


def test_the_cheap_count_of_legal_actions_is_their_number_at_every_decision(game):
    """count_legal_actions() (the runner's move figures read it) counts without making the actions: it
    must give len(legal_actions()) at every decision, in every phase, stones and all."""
    phases, stone_weaves, decisions = set(), 0, 0
    for seed in range(16):
        rng = random.Random(seed)
        players = [MagicSpellPlayer(None), RandomPlayer(), MagicSpellPlayer(6), RandomPlayer()][:2 + seed % 3]
        state = RULES.new_state(game, len(players), {"stones": seed % 2 == 1})
        while (seat := state.current_player()) != TERMINAL:
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            assert state.count_legal_actions() == len(legal), (seed, state.turns, state.phase, legal)
            phases.add(state.phase)
            stone_weaves += any(action.verb == "weave" and state.cat.stone[action.tile] for action in legal)
            decisions += 1
            state.apply(players[seat].act(state, seat, rng))
    assert {"action", "extra", "scrounged", "scrounge", "pick", "transmute", "trim_tiles", "trim_spells"} <= phases
    assert stone_weaves > 20 and decisions > 4000
