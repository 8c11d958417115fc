"""A Word to the Wise's chance draws: deck draws read off the deck's cards in order, the same card as
draw_counted picks from the counts for the same random number, whatever the deck went through (draws, a new
deck); dice and search times from kept running sums, as draw_chance draws them."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from spellpress.load.game import load_game
from spellpress.rules import word_to_the_wise as W
from spellpress.rules.chance import draw_chance, draw_counted
from spellpress.rules.protocol import CHANCE, TERMINAL, RandomPlayer
from tests.rules.test_chance import Fixed

GAME_DIR = Path(__file__).resolve().parents[2] / "cards" / "word-to-the-wise"


@pytest.fixture(scope="module")
def game():
    return load_game(GAME_DIR)


def counted_draw(state, rng_state):
    """The card draw_counted picks from the state's counts, with a generator in `rng_state`, and its state after."""
    rng = random.Random()
    rng.setstate(rng_state)
    action = draw_counted(state.defs.deck_draws, list(state.deck.values()), state.deck_size, rng)
    return action, rng.getstate()


@pytest.mark.parametrize("seed", range(6))
def test_every_chance_event_of_a_game_is_the_listed_outcomes_draw(game, seed):
    """Deck draws as draw_counted from the counts, dice and search times as draw_chance from their outcomes."""
    rng, player = random.Random(seed), RandomPlayer()
    state = W.RULES.new_state(game, 3 + seed % 3, None)
    seen: Counter = Counter()
    while (seat := state.current_player()) != TERMINAL:
        if seat != CHANCE:
            state.apply(player.act(state, seat, rng))
            continue
        if state.phase == W.DEAL:
            want, after = counted_draw(state, rng.getstate())
        else:
            copy = random.Random()
            copy.setstate(rng.getstate())
            want, after = draw_chance(state.chance_outcomes(), copy), copy.getstate()
        action = state.sample_chance(rng)
        assert action == want and rng.getstate() == after
        seen[state.phase] += 1
        state.apply(action)
    assert seen[W.DEAL] > 40 and seen[W.ROLL] > 10 and seen[W.TIME] > 10  # the deal, refills, rounds


def test_a_new_deck_is_drawn_from_its_own_counts(game):
    state = W.RULES.new_state(game, 4, None)
    rng = random.Random(3)
    for _ in range(5):
        state.apply(state.sample_chance(rng))
    size = state.deck_size  # as many cards as before, other letters: only the counts tell them apart
    state.deck = {letter: {"t": size // 2, "z": size - size // 2}.get(letter, 0) for letter in state.deck}
    seen = set()
    for seed in range(40):
        rng = random.Random(seed)
        want, _ = counted_draw(state, rng.getstate())
        assert state.sample_chance(rng) == want
        seen.add(want)
    assert seen == {("draw", "t"), ("draw", "z")}


def test_one_letter_left_draws_no_number(game):
    state = W.RULES.new_state(game, 4, None)
    state.deck = {letter: (3 if letter == "k" else 0) for letter in state.deck}
    state.deck_size = 3
    rng = random.Random(5)
    before = rng.getstate()
    assert state.sample_chance(rng) == ("draw", "k") and rng.getstate() == before


@pytest.mark.parametrize("whole", [1, 17, 50, 107])
def test_a_number_at_a_whole_card_sums_fractions_as_before(game, whole):
    """r * total at (or a hair from) a whole number of cards: the fractions' way, as draw_counted takes it."""
    state = W.RULES.new_state(game, 4, None)
    total = state.deck_size
    for r in (whole / total, whole / total - 2.0 ** -52, whole / total + 2.0 ** -52):
        want = draw_counted(state.defs.deck_draws, list(state.deck.values()), total, Fixed([r]))
        assert state.sample_chance(Fixed([r])) == want
