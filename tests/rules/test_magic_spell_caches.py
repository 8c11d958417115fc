"""Magic Spell's kept results follow every change to what they were worked out from, even a change
made by hand: the scores (returns), the trade views, the known letters and the laboratory's counts."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from spellpress.load.game import load_game
from spellpress.rules.chance import draw_chance
from spellpress.rules.magic_spell import RULES, MagicSpellPlayer
from spellpress.rules.protocol import CHANCE, InvariantError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def game():
    return load_game(ROOT / "cards" / "magic-spell")


def test_returns_follow_the_spellbooks_however_they_change(game):
    state = RULES.new_state(game, 3, {})
    credits = state.cat.spell_credits
    assert state.returns() == [0.0, 0.0, 0.0]
    cheap, dear = min(range(len(credits)), key=credits.__getitem__), max(range(len(credits)), key=credits.__getitem__)
    state.spellbook[1].append(cheap)
    assert state.returns() == [0.0, float(credits[cheap]), 0.0]
    state.spellbook[1][0] = dear  # the same length, another spell
    assert state.returns() == [0.0, float(credits[dear]), 0.0]
    scores = state.returns()
    scores[1] = -5.0  # a caller's list is its own
    assert state.returns()[1] == float(credits[dear])


def view(state, seat):
    """The spare and wanted letters, counted plainly."""
    held = [state.cat.letters[t] for t in state.cabinet[seat]]
    needs = state.needs(seat)
    return ({letter for letter in held if held.count(letter) > needs.get(letter, 0)},
            {letter for letter, n in needs.items() if n > held.count(letter)})


def test_a_trade_view_follows_the_cabinet_and_the_needs(game):
    state = RULES.new_state(game, 3, {})
    while state.current_player() == CHANCE:  # the deal
        state.apply(state.chance_outcomes()[0][0])
    seat = 1
    assert state._trade_view(seat) == view(state, seat) and state.cabinet[seat]
    for tile in list(state.cabinet[seat]):  # by hand, one tile after another: counted again each time
        state.cabinet[seat].remove(tile)
        assert state._trade_view(seat) == view(state, seat)
    state.cabinet[seat] += [t for tiles in state.mixed.values() for t in tiles][:8]
    assert state._trade_view(seat) == view(state, seat)
    sid = state.homework[seat][0]
    letter = next(iter(state.remaining(sid)))
    state._recount(seat, sid, letter, -1)  # the homework needs one letter fewer: new needs
    assert state._trade_view(seat) == view(state, seat)


def test_the_known_letters_follow_every_return_and_take_and_a_change_by_hand(game):
    state, rng, seen = RULES.new_state(game, 4, {}), random.Random(4), 0
    players = [MagicSpellPlayer(None) for _ in range(4)]
    while not state.is_terminal() and state.turns < 400:
        before = list(state.known)
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(players[state.current_player()].act(state, state.current_player(), rng))
        if list(state.known) != before:  # in the order the tiles were returned, each with its letter
            seen += 1
            assert list(state.known_letters().items()) == [(t, state.cat.letters[t]) for t in state.known]
    assert seen > 20
    tile = next(iter(state.known))
    del state.known[tile]  # by hand: made anew
    assert list(state.known_letters()) == list(state.known)
    state.known[tile] = 0
    assert list(state.known_letters().items())[-1] == (tile, state.cat.letters[tile])


def test_the_laboratory_counts_follow_a_change_by_hand(game):
    def draws_as_listed(state, seed):
        return state.sample_chance(random.Random(seed)) == draw_chance(state.chance_outcomes(), random.Random(seed))

    state = RULES.new_state(game, 3, {})
    assert state.chance[0] == "lab" and all(draws_as_listed(state, seed) for seed in range(50))
    for letter in "etaoinsh":  # by hand, the count told: counted anew
        state.cabinet[0].append(state.mixed[letter].pop())
        state.mixed_count -= 1
    assert all(draws_as_listed(state, seed) for seed in range(50))
    back = next(t for t in state.cabinet[0] if state.cat.letters[t] == "e")  # the same count: stale ...
    state.cabinet[0].remove(back)
    state.mixed["e"].append(back)
    state.cabinet[0].append(state.mixed["t"].pop())
    with pytest.raises(InvariantError, match="cached counts of the unseen laboratory"):
        state.check_invariants()
    state.drop_caches()  # ... as with the other kept counts
    assert all(draws_as_listed(state, seed) for seed in range(50))


def test_the_weave_counts_follow_the_needs_and_a_stale_one_is_caught(game):
    state, rng = RULES.new_state(game, 3, {}), random.Random(2)
    players = [MagicSpellPlayer(None) for _ in range(3)]
    while state.turns < 12 or not any(state.woven.get(sid) for sid in state.homework[state.seat]):
        seat = state.current_player()
        state.apply(state.sample_chance(rng) if seat == CHANCE else players[seat].act(state, seat, rng))
    seat = state.seat
    table = state._weave_table(seat)
    assert table[1:] == state._count_weave_table(seat) and table[2] > 0  # a woven tile may move to another spell
    sid = next(sid for sid in state.homework[seat] if state.woven.get(sid))
    letter = next(iter(state.remaining(sid)))
    state._recount(seat, sid, letter, -1)  # the homework needs one letter fewer: new needs, counted anew
    assert state._weave_table(seat) is not table and state._weave_table(seat)[1:] == state._count_weave_table(seat)
    state._recount(seat, sid, letter, +1)
    state._weave_table(seat)[1][letter] += 1  # a stale count
    state._last_caches = None
    with pytest.raises(InvariantError, match="weave counts of seat"):
        state.check_invariants()
    state.drop_caches()
    state.check_invariants()
