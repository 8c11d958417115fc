"""What a seat sees (State.observation): never a card it cannot see, every card a printed one.

For every shipped engine a seeded game is played by its heuristic; at every decision, for every
seat, what that seat cannot see is re-dealt (the search player's determinization: other hands,
the deck's order and contents) and the observation must not change. The same observation must
show the seat's own cards (it is not empty), and every card it or a move names must be a card
of the game's YAML, so the page can draw its rendered face.
"""

from __future__ import annotations

import json
import random

import pytest

from spellpress.load.game import load_game
from spellpress.rules.plugins import rules_for
from spellpress.rules.protocol import CHANCE, TERMINAL
from tests.conftest import ROOT
from tests.rules.test_example_engine import own_game  # noqa: F401 - the fixture

GAMES = ["word-rummy", "lost-words", "word-to-the-wise", "evocabulary", "spelled", "magic-spell"]
DECISIONS = 60  # decisions sampled a game (every one of the first ones)


def determinize(rules, state, seat: int, rng: random.Random):
    """What `seat` cannot see, re-dealt: the state's own determinize, else the search player's."""
    own = getattr(state, "determinize", None)
    if callable(own):
        return own(seat, rng)
    from spellpress.simulate import ismcts

    return ismcts.determinize(rules, state, seat, rng)


def printed(game) -> set[tuple[str, str]]:
    return {(component.id, card.id) for component in game.components for card in component.cards}


def refs(observation: dict):
    for zone in observation["zones"]:
        for card in zone["cards"]:
            yield card["component"], card["card"]
        if zone["hidden"]:
            yield zone["back"], None


def play(rules, game, players: int, seed: int):
    """Yield every decision point of a seeded game played by the heuristic (chance drawn from `seed`)."""
    rng = random.Random(seed)
    state = rules.new_state(game, players)
    bot = rules.heuristic_player(1.0)
    for _ in range(5000):
        seat = state.current_player()
        if seat == TERMINAL:
            return
        if seat == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            yield state
            action = bot.act(state, seat, rng)
        state.apply(action)


@pytest.mark.parametrize("game_id", [pytest.param(g, marks=pytest.mark.slow) if g in ("evocabulary",
                                                                                      "word-rummy") else g for g in GAMES])
def test_an_observation_never_shows_what_the_seat_cannot_see(game_id):
    game = load_game(ROOT / "cards" / game_id)
    rules = rules_for(game)
    cards = printed(game)
    components = {component.id for component in game.components}
    players = 3 if 3 in rules.players_allowed(game) else min(rules.players_allowed(game))
    own_cards_seen = [False] * players
    for decisions, state in enumerate(play(rules, game, players, seed=7)):
        if decisions >= DECISIONS:
            break
        for seat in range(players):
            seen = state.observation(seat).to_json()
            json.dumps(seen)  # the page receives it as JSON
            for component, card in refs(seen):
                assert (component, card) in cards if card else component in components, (component, card)
            own = [z for z in seen["zones"] if z["owner"] == seat and z["cards"]]
            own_cards_seen[seat] |= bool(own)
            for k in range(3):
                redealt = determinize(rules, state, seat, random.Random(k)).observation(seat).to_json()
                assert redealt == seen, f"seat {seat} sees a hidden card at decision {decisions} of {game_id}"
        mover = state.current_player()
        for action in list(state.legal_actions())[:50]:
            assert state.action_to_string(action)
            for card in state.action_cards(action):
                assert (card.component, card.card) in cards
    assert all(own_cards_seen), "an observation shows a seat none of its own cards"
    assert mover is not None


def test_the_starter_engine_shows_a_seat_its_own_hand_only(own_game):  # noqa: F811 - the fixture
    folder = own_game  # the starter engine (docs/rules.md's example) in a copy of the toy game
    game = load_game(folder)
    rules = rules_for(game)
    cards = printed(game)
    checked, own_cards_seen = 0, set()
    for state in play(rules, game, 3, seed=3):
        for seat in range(3):
            seen = state.observation(seat).to_json()
            if any(z["cards"] for z in seen["zones"] if z["name"] == f"hand:{seat}"):
                own_cards_seen.add(seat)
            for component, card in refs(seen):
                assert (component, card) in cards if card else component == "numbers"
            for k in range(3):  # re-deal the other hands and the deck
                other = [o for o in range(3) if o != seat]
                pool = sorted(state.deck + [c for o in other for c in state.hands[o]])
                random.Random(k).shuffle(pool)
                redealt = type(state).__new__(type(state))
                redealt.__dict__.update(state.__dict__, hands=[list(h) for h in state.hands])
                for o in other:
                    size = len(state.hands[o])
                    redealt.hands[o], pool = pool[:size], pool[size:]
                redealt.deck = pool
                assert redealt.observation(seat).to_json() == seen
            checked += 1
    assert checked >= 6 and own_cards_seen == {0, 1, 2}
