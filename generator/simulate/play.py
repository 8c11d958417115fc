"""Play one game to the end with the given players, from one seed."""

from __future__ import annotations

import random

from spellpress.model.deck import Game
from spellpress.rules.protocol import CHANCE, TERMINAL, IllegalAction, Outcome, Player, Rules
from spellpress.simulate.game_metrics import Tracker


def play_game(
    rules: Rules,
    game: Game,
    seats: list[Player],
    seed: int,
    *,
    check: bool = False,
    options: dict | None = None,
    measure_moves: bool = False,
) -> Outcome:
    """Play to the end or to the turn cap (a stall); the same seed gives the same game.

    With `check`, every action is checked for legality and the state's
    invariants are verified after each one. The outcome's `metrics` say how the
    game unfolded; with `measure_moves` they also count the legal actions at every
    decision (costly in games with long move lists, so the runner samples games).
    """
    rng = random.Random(seed)
    state = rules.new_state(game, len(seats), options)
    if check:
        state.check_invariants()
    tracker = Tracker(measure_moves)
    while True:
        seat = state.current_player()
        if seat == TERMINAL or state.turns >= rules.turn_cap:
            outcome = state.outcome(stalled=seat != TERMINAL)
            outcome.metrics = tracker.finish(state, outcome)
            return outcome
        tracker.before_action(state, seat)
        if seat == CHANCE:
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            action = rng.choices(actions, weights=[p for _, p in outcomes])[0] if len(actions) > 1 else actions[0]
        else:
            action = seats[seat].act(state, seat, rng)
            if check and action not in state.legal_actions():
                raise IllegalAction(f"{seats[seat].name} in seat {seat} chose an illegal action {action!r}")
        state.apply(action)
        if check:
            state.check_invariants()
