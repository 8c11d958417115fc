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

The move played is the most visited root action. All randomness comes from the
game's seeded generator, so a game gives the same moves on any worker.
"""

from __future__ import annotations

import math
import random
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
    __slots__ = ("seat", "children", "visits", "available", "reward")

    def __init__(self, seat: int):
        self.seat = seat  # who chose the action leading here (whose reward this node counts)
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


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

    def __init__(self, rules: Rules, budget: int = 64, rollout_turns: int = 2, exploration: float = 0.7):
        if budget < 1:
            raise ValueError("an IS-MCTS budget is at least 1 playout a move")
        self.rules, self.budget = rules, budget
        self.rollout_turns, self.exploration = rollout_turns, exploration
        self.policy = rules.heuristic_player(1.0)
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
        root = Node(seat)
        for _ in range(self.budget):
            self._playout(root, legal, state.determinize(seat, rng), rng)
            root.visits += 1
        allowed = set(legal)
        best = None
        for action, child in root.children.items():  # insertion order breaks ties: deterministic
            if action in allowed and (best is None or (child.visits, child.reward) > (best[1].visits, best[1].reward)):
                best = (action, child)
        return best[0] if best else self.policy.act(state, seat, rng)

    def _playout(self, root: Node, root_legal: list, s: State, rng: random.Random) -> None:
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
                action = self._expansion(s, player, untried, rng)
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
