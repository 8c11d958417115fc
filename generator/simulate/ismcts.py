"""The search player: information-set Monte Carlo search that leaves the heuristic's move only for a better one.

Written once against the rules protocol, so it plays every engine, a game folder's own included.
A move (docs/simulate.md, "The search player"):

1. The game's heuristic proposes its move (the default).
2. A *world* is one determinization, the engine's `State.determinize(seat, rng)` (what the seat
   cannot see re-dealt at random; an engine without it is refused, `CannotSearch`), and one
   rollout seed. A move's value in a world: play it, then let the heuristic play every seat to
   the end of the game, and take the seat's win share. Every move tried in a world is played
   from the same deal with the same seed (common random numbers), so two moves are compared on
   the same hidden cards and the same luck.
3. Selection, half the budget: sequential halving (Karnin, Koren & Somekh 2013) over the default
   and a few other legal moves drawn at random, on shared worlds; the default is never dropped.
   The best other survivor is the challenger if it beat the default there.
4. Confirmation, the other half, on fresh worlds: the challenger is played only when its mean
   win-share difference to the default exceeds Z standard errors. The fresh worlds are what
   keep the luckiest of many candidates from being played for its luck.

Why (measured in bench/ismcts.py and the games' READMEs): the earlier player scored positions
after two heuristic turns by who led on `returns()`. That score is biased, in Spelled towards
damage now over buying, and a bias does not shrink with more playouts, so the earlier player
lost more often with a larger budget. A rollout to the end has no such bias against an
opponent that plays like the heuristic, and the paired confirmation keeps noise from choosing.
All randomness comes from the game's seeded generator, so a game gives the same moves on any
worker.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from spellpress.rules.protocol import CHANCE, TERMINAL, Player, Rules, State, can_determinize
from spellpress.simulate.engine_faults import MAX_ACTIONS_PER_GAME, progress


class CannotSearch(ValueError):
    """The engine does not say what a seat cannot see, so a search would look at every card."""


def refuse_unless_determinizable(rules: Rules, state: State) -> None:
    if not can_determinize(state):
        raise CannotSearch(
            f"the search player (ismcts) cannot play the {rules.id} engine: its {type(state).__name__} does not define "
            f"determinize(seat, rng), so a search would see every player's hidden cards; add it (docs/rules.md) "
            f"and run `spellpress check-engine` on the game")


# A challenger is played when its mean win-share difference beats 0 by Z standard errors of fresh,
# paired worlds. A challenger no better than the default costs nothing when played; the test only has
# to keep out moves that are worse, and one standard error of an unbiased difference does that.
Z = 1.0
# the spread of a win-share difference is at least this (a coin flip's): four worlds that agree do not
# make a difference certain
MIN_VARIANCE = 0.25
SELECTION_SHARE = 0.5  # of the budget, to choose a challenger; the rest confirms it
MIN_WORLDS = 2  # each candidate's worlds in a selection round, at least


def candidates_for(budget: int, legal: int) -> int:
    """How many moves (the default among them) sequential halving can try with `budget` playouts,
    giving each at least MIN_WORLDS worlds in its first round."""
    count = legal
    while count > 2 and budget // math.ceil(math.log2(count)) // count < MIN_WORLDS:
        count -= 1
    return count


def confirmed(differences: list[float]) -> bool:
    """Do these paired win-share differences (challenger minus default) say the challenger is better?"""
    n = len(differences)
    if n < 2:
        return False
    mean = sum(differences) / n
    variance = max(sum((d - mean) ** 2 for d in differences) / (n - 1), MIN_VARIANCE)
    return mean > Z * math.sqrt(variance / n)


def evaluate(state: State) -> list[float]:
    """Per seat in [0, 1]: the win share when the game is over, else the share of opponents it leads."""
    players = state.players
    if state.current_player() == TERMINAL:
        winners = state.outcome().winners
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
    scores = state.returns()
    if players == 1:
        return [0.5]
    out = []
    for s in range(players):
        ahead = sum(1.0 if scores[s] > scores[o] else 0.5 if scores[s] == scores[o] else 0.0
                    for o in range(players) if o != s)
        out.append(ahead / (players - 1))
    return out


# the playouts' player: the game's skill-1 heuristic, or its engine's cheaper Rules.playout_player()
PLAYOUTS = ("heuristic", "fast")


def search_label(budget: int, horizon: int | None = None, playout: str = "heuristic") -> str:
    """A search player's name in reports: 'ismcts-64', 'ismcts-64-h4', 'ismcts-64-h4-fast'."""
    return f"ismcts-{budget}" + (f"-h{horizon}" if horizon else "") + ("" if playout == "heuristic" else f"-{playout}")


class OutOfTime(Exception):
    """The time limit of a move passed (spellpress play)."""


class ISMCTSPlayer(Player):
    """The search player with `budget` playouts a move (see the module doc). With a `horizon`, a
    playout stops that many turns after the move and scores the position by `evaluate` (the share
    of opponents the seat leads): cheaper, but a lead is not a win (docs/simulate.md)."""

    def __init__(self, rules: Rules, budget: int = 64, seconds: float | None = None, horizon: int | None = None,
                 playout: str = "heuristic"):
        if budget < 1:
            raise ValueError("an IS-MCTS budget is at least 1 playout a move")
        if horizon is not None and horizon < 1:
            raise ValueError("an IS-MCTS horizon is at least 1 turn")
        if playout not in PLAYOUTS:
            raise ValueError(f"an IS-MCTS playout player is one of {', '.join(PLAYOUTS)}, not {playout!r}")
        self.rules, self.budget, self.horizon = rules, budget, horizon
        # the default move is the heuristic's; the playouts' player is the heuristic or the engine's cheaper one
        self.default_policy = rules.heuristic_player(1.0)
        self.policy = self.default_policy if playout == "heuristic" else rules.playout_player()
        # a time limit a move (spellpress play: a person is waiting); then the search stops after at
        # most `budget` playouts or once `seconds` have passed, and a game no longer replays from its seed
        self.seconds = seconds
        self.name = search_label(budget, horizon, playout)
        self.moves = 0
        self.forced = 0
        self.changed = 0  # moves on which it played another move than the heuristic's
        self._deadline: float | None = None

    def act(self, state: State, seat: int, rng: random.Random):
        legal = list(state.legal_actions())
        self.moves += 1
        if len(legal) == 1:
            self.forced += 1
            return legal[0]
        refuse_unless_determinizable(self.rules, state)
        default = self.default_policy.act(state, seat, rng)
        self._deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        others = [a for a in legal if a != default]
        challenger: Any = None
        differences: list[float] = []
        try:
            if len(others) == 1:  # nothing to choose between: the whole budget confirms
                challenger, confirming = others[0], self.budget
            else:
                selecting = int(self.budget * SELECTION_SHARE)
                confirming = self.budget - selecting
                challenger = self._select(state, seat, rng, default, others, selecting)
            for _ in range(confirming // 2 if challenger is not None else 0):
                world = self._world(state, seat, rng)
                differences.append(self._playout(world, challenger, seat) - self._playout(world, default, seat))
        except OutOfTime:  # a selection cut short names no challenger; a confirmation judges what it has
            pass
        if challenger is not None and confirmed(differences):
            self.changed += 1
            return challenger
        return default

    def _select(self, state: State, seat: int, rng: random.Random, default, others: list, budget: int):
        """Sequential halving on shared worlds: the best other move left if it beat the default, else None."""
        rng.shuffle(others)
        alive = [default, *others[:candidates_for(budget, len(others) + 1) - 1]]
        if len(alive) < 2:
            return None
        totals = dict.fromkeys(alive, 0.0)
        rounds = math.ceil(math.log2(len(alive)))
        for _ in range(rounds):
            for _ in range(max(1, budget // rounds // len(alive))):
                world = self._world(state, seat, rng)
                for action in alive:
                    totals[action] += self._playout(world, action, seat)
            if len(alive) > 2:  # the better half goes on (every move left has seen the same worlds)
                ranked = sorted(alive, key=lambda a: -totals[a])
                alive = ranked[:max(2, math.ceil(len(alive) / 2))]
                if default not in alive:
                    alive[-1] = default
        best = max((a for a in alive if a != default), key=lambda a: totals[a])
        return best if totals[best] > totals[default] else None

    def _world(self, state: State, seat: int, rng: random.Random) -> tuple[State, int]:
        return state.determinize(seat, rng), rng.getrandbits(64)

    def _playout(self, world: tuple[State, int], action, seat: int) -> float:
        """`action` in this world, then the heuristic for every seat to the end: the seat's win share."""
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise OutOfTime()
        progress()  # a long search is not a hung engine (the runner's watchdog)
        deal, seed = world
        s = deal.clone()
        rng = random.Random(seed)
        s.apply(action)
        cap = self.rules.turn_cap if self.horizon is None else min(self.rules.turn_cap, s.turns + self.horizon)
        for _ in range(MAX_ACTIONS_PER_GAME):
            player = s.current_player()
            if player == TERMINAL or s.turns >= cap:
                break
            s.apply(s.sample_chance(rng) if player == CHANCE else self.policy.act(s, player, rng))
        return evaluate(s)[seat]
