"""Shared by the engines' tests of State.count_legal_actions: a seeded game played to its end (or a turn
cap) that checks the count against the listed actions at every step, chance steps included."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from spellpress.rules.protocol import CHANCE, State


def play_counting(state: State, seats: Sequence[Any], rng: random.Random, turn_cap: int,
                  look: Callable[[State, int], None] = lambda state, seat: None) -> None:
    """Play `state` on with `seats` (players by seat), asserting count_legal_actions() == len(legal_actions())
    before every step and at the end; `look(state, seat)` sees each decision before the seat acts."""
    while not state.is_terminal() and state.turns < turn_cap:
        assert state.count_legal_actions() == len(state.legal_actions()), (state, list(state.legal_actions()))
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        look(state, seat)
        state.apply(seats[seat].act(state, seat, rng))
    assert state.count_legal_actions() == len(state.legal_actions())
