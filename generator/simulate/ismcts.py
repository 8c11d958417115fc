"""A reference player that searches: single-observer information-set MCTS (SO-ISMCTS).

Written once against the rules protocol, so it plays every engine, a game folder's
own included. Each playout of a move:

1. determinizes: the engine's `State.determinize(seat, rng)` copies the state and
   re-deals what the searching seat cannot see (other players' hands, the unseen deck)
   consistently with what it can; an engine without it is refused (`CannotSearch`);
2. descends the tree with UCB1 over the actions legal in that determinization
   (availability counts, as in Cowling, Powley & Whitehouse 2012), sampling chance
   events as it goes (open loop: chance is not a tree edge);
3. expands one new action (the game's heuristic's choice first, then untried ones
   at random) and plays on with the heuristic for `rollout_turns` turns;
4. scores the position for every seat (a win share when the game is over, else the
   share of opponents it is ahead of by `returns()`) and backs that up, each node
   counting the reward of the seat that chose it.

The move played is the heuristic's, unless another root action was visited more and its mean
reward beats the heuristic's by Z_DEVIATE standard errors (`choose`): picking the best-looking of
many noisy estimates made the player weaker with a larger budget (more candidates, more lucky
ones), 8% against the heuristic at 16 playouts and 0% at 256 in Spelled. All randomness comes from the
game's seeded generator, so a game gives the same moves on any worker.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from spellpress.rules.protocol import CHANCE, TERMINAL, Player, Rules, State, can_determinize


class CannotSearch(ValueError):
    """The engine does not say what a seat cannot see, so a search would look at every card."""


def refuse_unless_determinizable(rules: Rules, state: State) -> None:
    if not can_determinize(state):
        raise CannotSearch(
            f"the search player (ismcts) cannot play the {rules.id} engine: its {type(state).__name__} does not define "
            f"determinize(seat, rng), so a search would see every player's hidden cards; add it (docs/rules.md) "
            f"and run `spellpress check-engine` on the game")


# -- the search -----------------------------------------------------------------------
class Node:
    __slots__ = ("seat", "children", "visits", "available", "reward", "squares")

    def __init__(self, seat: int):
        self.seat = seat  # who chose the action leading here (whose reward this node counts)
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.squares = 0.0  # sum of squared rewards: the spread of a mean

    def mean(self) -> float:
        return self.reward / self.visits

    def standard_error(self) -> float:
        variance = max(self.squares / self.visits - self.mean() ** 2, MIN_VARIANCE)
        return math.sqrt(variance / self.visits)


MIN_VARIANCE = 0.04  # a few equal rewards do not make a mean certain (a coin flip has 0.25)
Z_DEVIATE = 3.0  # how many standard errors better a move must look to overrule the heuristic
MIN_VISITS_TO_DEVIATE = 12
# a short rollout's score is biased, and a bias does not shrink with more playouts: a move must also
# be better by this much reward, not merely significantly
MIN_MARGIN = 0.1


def choose(root: Node, default, allowed: set):
    """The heuristic's move, unless another has been tried enough and is clearly better.

    Picking the best-looking of several noisy estimates favours lucky moves (more so with more
    candidates, which a larger budget brings); a move only replaces the heuristic's when its mean
    reward beats it by Z_DEVIATE standard errors of the difference and the search visited it more.
    Without the heuristic's move
    among the children, the most visited."""
    tried = [(a, c) for a, c in root.children.items() if a in allowed and c.visits]  # insertion order: deterministic
    if not tried:
        return None
    base = root.children.get(default)
    if base is None or not base.visits:
        return max(tried, key=lambda ac: (ac[1].visits, ac[1].reward))[0]
    best, margin = default, 0.0
    for action, child in tried:
        if action == default or child.visits < max(MIN_VISITS_TO_DEVIATE, base.visits):
            continue  # the search itself must have preferred it (more visits), and tried it enough
        spread = math.sqrt(child.standard_error() ** 2 + base.standard_error() ** 2)
        lead = child.mean() - base.mean() - max(Z_DEVIATE * spread, MIN_MARGIN)
        if lead > margin:
            best, margin = action, lead
    return best


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


class ISMCTSPlayer(Player):
    """SO-ISMCTS with `budget` playouts a move (see the module doc)."""

    def __init__(self, rules: Rules, budget: int = 64, rollout_turns: int = 2, exploration: float = 0.7,
                 seconds: float | None = None):
        if budget < 1:
            raise ValueError("an IS-MCTS budget is at least 1 playout a move")
        self.rules, self.budget = rules, budget
        self.rollout_turns, self.exploration = rollout_turns, exploration
        self.policy = rules.heuristic_player(1.0)
        # a time limit a move (spellpress play: a person is waiting); then the search stops after at
        # most `budget` playouts or once `seconds` have passed, and a game no longer replays from its seed
        self.seconds = seconds
        self.name = f"ismcts-{budget}"
        self.moves = 0
        self.forced = 0

    def act(self, state: State, seat: int, rng: random.Random):
        legal = list(state.legal_actions())
        self.moves += 1
        if len(legal) == 1:
            self.forced += 1
            return legal[0]
        refuse_unless_determinizable(self.rules, state)
        default = self.policy.act(state, seat, rng)
        root = Node(seat)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        for _ in range(self.budget):
            self._playout(root, legal, state.determinize(seat, rng), rng, default)
            root.visits += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        best = choose(root, default, set(legal))
        return default if best is None else best

    def _playout(self, root: Node, root_legal: list, s: State, rng: random.Random, default) -> None:
        node, path = root, []
        cap = self.rules.turn_cap
        while True:
            player = self._settle_chance(s, rng)
            if player == TERMINAL or s.turns >= cap:
                break
            # the searching seat's own moves at the root do not depend on what is hidden from it
            legal = root_legal if node is root else s.legal_actions()
            allowed = set(legal)
            for action, child in node.children.items():
                if action in allowed:
                    child.available += 1
            # progressive widening: a node visited n times has at most 1 + sqrt(n) children, so a
            # small budget refines a few moves (the heuristic's first) instead of sampling many once
            widen = len(node.children) < 1 + math.isqrt(node.visits) or not any(a in allowed for a in node.children)
            untried = [a for a in legal if a not in node.children] if widen else []
            if untried:
                action = default if node is root and default in untried else self._expansion(s, player, untried, rng)
                child = node.children[action] = Node(player)
                child.available = 1
                s.apply(action)
                path.append(child)
                self._rollout(s, rng)
                break
            log_n = {id(c): math.log(max(1, c.available)) for c in node.children.values()}
            action, node = max(((a, c) for a, c in node.children.items() if a in allowed),
                               key=lambda ac: ac[1].reward / ac[1].visits
                               + self.exploration * math.sqrt(log_n[id(ac[1])] / ac[1].visits))
            s.apply(action)
            path.append(node)
        values = evaluate(s)
        for n in path:
            n.visits += 1
            n.reward += values[n.seat]
            n.squares += values[n.seat] ** 2

    def _expansion(self, s: State, player: int, untried: list, rng: random.Random):
        """The heuristic's choice when it is untried, else an untried action at random."""
        try:
            preferred = self.policy.act(s, player, rng)
        except Exception:  # a heuristic may not handle every position a search reaches
            preferred = None
        if preferred is not None and preferred in untried:
            return preferred
        return untried[int(rng.random() * len(untried))]

    def _settle_chance(self, s: State, rng: random.Random) -> int:
        player = s.current_player()
        while player == CHANCE:
            outcomes = s.chance_outcomes()
            actions = [a for a, _ in outcomes]
            s.apply(rng.choices(actions, weights=[p for _, p in outcomes])[0] if len(actions) > 1 else actions[0])
            player = s.current_player()
        return player

    def _rollout(self, s: State, rng: random.Random) -> None:
        stop = min(self.rules.turn_cap, s.turns + self.rollout_turns)
        while s.turns < stop:
            player = self._settle_chance(s, rng)
            if player == TERMINAL:
                return
            s.apply(self.policy.act(s, player, rng))
