"""Play one game to the end with the given players, from one seed."""

from __future__ import annotations

import random

from spellpress.model.game import Game
from spellpress.rules.chance import draw_chance
from spellpress.rules.protocol import CHANCE, TERMINAL, IllegalAction, Outcome, Player, Rules
from spellpress.simulate.engine_faults import MAX_ACTIONS_PER_GAME, BadScores, EngineStall, finite_scores
from spellpress.simulate.game_metrics import Tracker
from spellpress.simulate.word_records import scored_words


def play_game(
    rules: Rules,
    game: Game,
    seats: list[Player],
    seed: int,
    *,
    check: bool = False,
    options: dict | None = None,
    measure_moves: bool = False,
    watchdog=None,
) -> Outcome:
    """Play to the end or to the turn cap (a stall); the same seed gives the same game.

    Past MAX_ACTIONS_PER_GAME actions (whatever the engine's turn count says) it raises
    EngineStall; scores that are not finite numbers raise BadScores; `watchdog` (engine_faults)
    is told of every action, to stop a move that never ends.

    With `check`, every action is checked for legality and the state's
    invariants are verified after each one. The outcome's `metrics` say how the
    game unfolded; with `measure_moves` they also count the legal actions at every
    decision (costly in games with long move lists, so the runner samples games).
    """
    rng = random.Random(seed)
    state = rules.new_state(game, len(seats), options)
    if check:
        state.check_invariants()
    tracker = Tracker(state, measure_moves)
    turn_cap, turn = rules.turn_cap, -1  # -1: no turn started yet
    # the state's and players' methods looked up once: this loop runs for every action of every game
    current_player, apply = state.current_player, state.apply
    acts = [player.act for player in seats]
    # an engine's own sampling (State.sample_chance); a state of no State subclass lists its outcomes
    sample_chance = getattr(state, "sample_chance", None) or (lambda rng: draw_chance(state.chance_outcomes(), rng))
    counter = watchdog if watchdog is not None else _Unwatched()
    taken = 0
    while True:
        seat = current_player()
        turns = state.turns
        if turns != turn:  # a new turn: the turn cap is read only when the count moves
            if seat == TERMINAL or turns >= turn_cap:
                break
            tracker.turn_started()
            turn = turns
        elif seat == TERMINAL:
            break
        taken += 1
        if taken > MAX_ACTIONS_PER_GAME:  # the runner's own cap: an engine's turn count may never move
            raise EngineStall(state)
        if seat == CHANCE:
            action = sample_chance(rng)
        else:
            if measure_moves:
                tracker.decision()
            action = acts[seat](state, seat, rng)
            if check and action not in state.legal_actions():
                raise IllegalAction(f"{seats[seat].name} in seat {seat} chose an illegal action {action!r}")
        apply(action)
        if check:
            state.check_invariants()
        counter.moves += 1
    outcome = state.outcome(stalled=seat != TERMINAL)
    if not finite_scores(outcome.scores):
        raise BadScores(state, outcome.scores)
    outcome.metrics = tracker.finish(state, outcome)
    outcome.words = scored_words(state)
    return outcome


class _Unwatched:
    """Where the actions are counted when no watchdog is told of them."""

    moves = 0
