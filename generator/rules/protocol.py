"""The game protocol, in the spirit of OpenSpiel.

A `Rules` object builds the initial `State` from the loaded game definitions.
A state says whose move it is (a seat number, or CHANCE), lists the legal
actions, applies one, and says when the game is over and what each seat scored.

Chance is an explicit actor: when `current_player()` is CHANCE,
`chance_outcomes()` lists (action, probability) pairs and the runner picks one
with the run's seeded generator. A state never draws random numbers itself, so
a game is fully determined by its seed and its players' choices.

Actions are any hashable values (small tuples or strings); `legal_actions()`
returns them in a deterministic order. Players receive the state and may only
read what their seat can see (`observation(seat)`); heuristics are trusted to
stay within it, and the random player uses only `legal_actions()`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Hashable, Mapping, Sequence

from spellpress.model.deck import Game

if TYPE_CHECKING:
    from spellpress.rules.settings import EngineSettings

CHANCE = -1
TERMINAL = -2

Action = Hashable


class InvariantError(AssertionError):
    """A rules engine broke its own invariants (a card lost or duplicated, a wrong score)."""


class IllegalAction(ValueError):
    pass


@dataclass
class Outcome:
    """What one game produced: the runner aggregates these into the balance report."""

    scores: list[float]
    winners: list[int]  # seats with the best result (ties share the win)
    turns: int  # player turns taken (or rounds, as the game's `length_unit` says)
    stalled: bool = False
    # per-component statistics: component/card key -> seats that played it at least once
    played: dict[str, set[int]] = field(default_factory=dict)
    # game-specific figures (totals for this game); summed or averaged by the report
    figures: dict[str, float] = field(default_factory=dict)
    # seats that win and lose together (team modes), or None: balance is then judged per team
    teams: list[list[int]] | None = None
    # how the game unfolded (lead changes, drama, moves): simulate.game_metrics fills it in
    metrics: dict[str, float] = field(default_factory=dict)


class State(ABC):
    """One position of one game."""

    players: int
    turns: int  # completed player turns (or rounds); the stall cap counts these

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, CHANCE for a random event, TERMINAL when the game is over."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """Legal actions for the current seat, in a deterministic order (never empty unless terminal)."""

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        """(action, probability) pairs when CHANCE is to act."""
        raise NotImplementedError

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Apply a legal action; raise IllegalAction for any other."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    @abstractmethod
    def returns(self) -> list[float]:
        """Final score per seat (valid once terminal)."""

    def check_invariants(self) -> None:
        """Raise InvariantError if any component is lost or duplicated, or a score is off."""

    def observation(self, seat: int) -> Any:
        """What `seat` may see; heuristic players read only this (default: the state itself)."""
        return self

    def outcome(self, stalled: bool = False) -> Outcome:
        scores = self.returns()
        best = max(scores)
        winners = [] if stalled else [seat for seat, score in enumerate(scores) if score == best]
        return Outcome(scores=scores, winners=winners, turns=self.turns, stalled=stalled)


class Player(ABC):
    """A policy: any player can sit in any seat of any game it understands."""

    name: str = "player"

    @abstractmethod
    def act(self, state: State, seat: int, rng: random.Random) -> Action: ...


class RandomPlayer(Player):
    """Picks uniformly among the legal actions."""

    name = "random"

    def act(self, state: State, seat: int, rng: random.Random) -> Action:
        return rng.choice(list(state.legal_actions()))


class Rules(ABC):
    """A game's rules: builds states and names its heuristic players."""

    id: str
    length_unit: str = "turns"
    turn_cap: int = 1000  # a game still running after this many turns is a stall
    seconds_per_turn: float = 30.0  # for the minutes estimate; each game documents its model
    # the `rules:` keys and components this engine reads (a spellpress.rules.settings.EngineSettings
    # subclass); `spellpress check` and `simulate` validate a game against it before any play
    settings: type[EngineSettings] | None = None
    # run options (`simulate --option NAME=VALUE`) that are not `rules:` keys: the engine's own
    # what-ifs, name -> what it does. Any other option name is refused before a game is played.
    run_options: Mapping[str, str] = {}

    @abstractmethod
    def new_state(self, game: Game, players: int, options: dict[str, Any] | None = None) -> State: ...

    @abstractmethod
    def heuristic_player(self, skill: float = 1.0) -> Player:
        """A sensible player; skill in [0, 1] (1 plays its best, 0 close to random)."""

    def players_allowed(self, game: Game) -> range:
        return range(game.spec.players.min, game.spec.players.max + 1)
