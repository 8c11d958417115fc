"""Magic Spell's own chance draws (MagicSpellState.sample_chance) pick what the runner always
picked from the listed outcomes, draw_chance(chance_outcomes(), rng), for the same random number."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from spellpress.load.game import load_game
from spellpress.rules.chance import Counted, draw_chance
from spellpress.rules.magic_spell import RULES, MagicSpellPlayer
from spellpress.rules.magic_spell.draws import draw_by_sizes, draw_uniform
from spellpress.rules.protocol import CHANCE, IllegalAction, RandomPlayer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def game():
    return load_game(ROOT / "cards" / "magic-spell")


class Fixed(random.Random):
    """A generator whose next random() is the number given."""

    def __init__(self, r: float):
        super().__init__(0)
        self.r = r

    def random(self) -> float:
        return self.r


def test_every_chance_event_of_random_games_draws_as_the_listed_outcomes(game):
    kinds, seen = set(), 0
    for seed in range(12):
        rng = random.Random(seed)
        players = [RandomPlayer(), MagicSpellPlayer(None), MagicSpellPlayer(3), MagicSpellPlayer(None)]
        state = RULES.new_state(game, 2 + seed % 3, {"stones": seed % 2 == 1})
        while not state.is_terminal() and state.turns < 300:
            if state.current_player() == CHANCE:
                kinds.add(state.chance[0])
                listed, own = random.Random(seed * 1000 + seen), random.Random(seed * 1000 + seen)
                want = draw_chance(state.chance_outcomes(), listed)
                assert state.sample_chance(own) == want
                assert own.random() == listed.random()  # as many numbers drawn
                seen += 1
                state.apply(want)
            else:
                state.apply(players[state.current_player()].act(state, state.current_player(), rng))
    assert kinds == {"lab", "spell", "pick"} and seen > 1000


@pytest.mark.parametrize("n", [2, 3, 7, 49])
def test_uniform_draws_agree_at_and_near_every_boundary(n):
    items = list(range(10, 10 + n))
    draws = [f"draw {i}" for i in range(10 + n)]
    outcomes = [(draws[i], 1 / n) for i in items]
    for k in range(n):
        for r in (k / n, (k + 1) / n - 1e-17, k / n + 2.0 ** -52, (k + 1) / n - 2.0 ** -52, (k + 0.5) / n):
            if 0.0 <= r < 1.0:
                assert draw_uniform(draws, items, Fixed(r)) == draw_chance(outcomes, Fixed(r)), (n, k, r)


@pytest.mark.parametrize("sizes", [[0, 3, 0, 1, 5, 0], [2, 2], [1] * 30, [0, 0, 7, 1], [9, 0, 0, 0, 1, 0, 14, 0, 2]])
def test_draws_by_sizes_agree_at_and_near_every_boundary(sizes):
    total = sum(sizes)
    draws = [f"letter {i}" for i in range(len(sizes))]
    outcomes = list(Counted(draws, sizes, total))
    bounds = [sum(sizes[:i]) for i in range(len(sizes) + 1)]
    for k in bounds:
        for r in (k / total, k / total - 1e-17, k / total + 2.0 ** -52, k / total - 2.0 ** -52, (k + 0.5) / total):
            if 0.0 <= r < 1.0:
                mine, listed = Fixed(r), Fixed(r)
                assert draw_by_sizes(draws, iter(sizes), total, mine) == draw_chance(outcomes, listed), (sizes, k, r)


def test_draws_by_sizes_with_one_kind_left_draw_no_number():
    rng = random.Random(5)
    assert draw_by_sizes(["a", "b", "c"], iter([0, 4, 0]), 4, rng) == "b"
    assert rng.random() == random.Random(5).random()


def test_a_single_item_draws_no_number():
    rng = random.Random(5)
    assert draw_uniform(["a", "b"], [1], rng) == "b"
    assert rng.random() == random.Random(5).random()


def test_a_refused_draw_leaves_the_draw_still_to_make(game):
    state = RULES.new_state(game, 4, None)
    assert state.current_player() == CHANCE
    outcomes = [action for action, _ in state.chance_outcomes()]
    wrong = [("lab", "#"), ("spell", -1), ("tile", -1)]
    for action in wrong:  # a letter with no tile left, and draws of another kind
        with pytest.raises(IllegalAction):
            state.apply(action)
        assert state.current_player() == CHANCE
        assert [a for a, _ in state.chance_outcomes()] == outcomes
    state.apply(outcomes[0])  # and the right one is still taken
