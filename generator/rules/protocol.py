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

import copy
import random
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar

from spellpress.model.game import Game
from spellpress.rules.chance import draw_chance
from spellpress.rules.observation import CardRef, Observation

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
    # (seat, word, points) of every word that scored, as the engine keeps them; None: it keeps no such
    # record (simulate.word_records fills it in; the vocabulary dependence figure reads it)
    words: list[tuple[int, str, float]] | None = None


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

    def count_legal_actions(self) -> int:
        """How many legal actions there are: len(legal_actions()), which the runner's move figures count
        at every decision of a measured game. An engine may override it with a cheaper count (without
        making the actions); it must equal len(legal_actions()) at every state."""
        return len(self.legal_actions())

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        """(action, probability) pairs when CHANCE is to act."""
        raise NotImplementedError

    def sample_chance(self, rng: random.Random) -> Action:
        """The chance outcome the runner plays, from `rng`: draw_chance(chance_outcomes(), rng). An engine
        may draw it without listing the outcomes, from the same random numbers."""
        return draw_chance(self.chance_outcomes(), rng)

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Apply a legal action; raise IllegalAction for any other."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    @abstractmethod
    def returns(self) -> list[float]:
        """Final score per seat (valid once terminal)."""

    def check_invariants(self) -> None:  # noqa: B027 - a default that checks nothing: engines override it
        """Raise InvariantError if any component is lost or duplicated, or a score is off."""

    # -- what a seat sees, for a page (`spellpress play`) and for heuristics ------------------
    def observation(self, seat: int) -> Observation:
        """What `seat` may see: zones of cards, counts of hidden ones, scores, whose turn.

        Never a card the seat cannot see (spellpress.rules.observation). The default shows the
        scores only: an engine that does not describe its table still plays, by its moves' names.
        """
        player = self.current_player()
        return Observation(seat, player if player >= 0 else None, "", tuple(self.returns()))

    def action_to_string(self, action: Action) -> str:
        """The action as a player would say it ("discard Q", "draw from the deck")."""
        if isinstance(action, tuple):
            return " ".join(str(part) for part in action)
        return str(action)

    def action_cards(self, action: Action) -> tuple[CardRef, ...]:
        """The printed cards the action uses (played, discarded, taken), so a page can offer it on them."""
        return ()

    def action_word(self, action: Action, typed: str | None = None) -> str | None:
        """The word a move plays, lowercase; None when no word stands for it. Cards that spell
        several words (anagrams) play the one `typed` names when it is one of them, so a typed
        word matches any arrangement of cards that spells it."""
        return None

    def action_revealed(self, action: Action, seat: int) -> str | None:
        """Asked once choices are no longer hidden, of a move `seat` made in secret: how every seat may
        now be told it (None: it stays secret, as a word that was never placed)."""
        return self.action_to_string(action)

    def takes_word(self) -> bool:
        """May the seat to move type a word now (whether or not its hand makes one: a page must not
        tell)? The default: when a legal move has a word."""
        return any(self.action_word(action) is not None for action in self.legal_actions())

    def action_news(self, action: Action, seat: int) -> str | None:
        """Asked just after `seat`'s move was applied: what it did that the table does not show ("nobody
        had FERN: seat 1 misses its next turn"), for every seat to read; None when nothing."""
        return None

    def round_number(self) -> int | None:
        """The round being played (1 on), for a page's round summaries; None: the game has no rounds."""
        return None

    def score_items(self, before: State, action: Action) -> list[tuple[int, float, str]] | None:
        """(seat, points, why) of the points `action` scored (`before`: a clone of the state it was
        applied to), what every seat may know; None: a page says each seat's change of returns()."""
        return None

    def choices_hidden(self) -> bool:
        """True while moves are chosen in secret and not yet revealed (a race's words): a page shows
        another seat such a move only once this is False again."""
        return False

    # -- for the search player and `spellpress check-engine` --------------------------
    def clone(self) -> Self:
        """An independent copy to play on: applying actions to either never changes the other.

        The default deep-copies the state but shares any attribute that is not a plain
        container (a catalog, a definitions table, a word list) and that object's own
        attributes: such objects are the game's static data. Override it to copy faster, or
        when the state keeps what changes inside such an object.
        """
        memo: dict[int, Any] = {}
        for value in vars(self).values():
            if value is None or isinstance(value, (State, str, int, float, bool, *CONTAINERS)):
                continue
            memo[id(value)] = value
            for inner in getattr(value, "__dict__", {}).values():
                memo[id(inner)] = inner
        return copy.deepcopy(self, memo)

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A clone in which everything `seat` cannot see is re-dealt at random with `rng`.

        Other players' hidden cards and the unseen deck are shuffled together and dealt back
        in the same numbers (`redeal`); everything the seat sees (its own cards, hand sizes,
        the table, scores) stays. The result must depend only on what the seat sees and on
        `rng`: never on where the hidden cards really are. The search player
        (`--agents ismcts`) needs it; `spellpress check-engine` tests it.
        """
        raise NotImplementedError(f"{type(self).__name__} does not define determinize(seat, rng)")

    def outcome(self, stalled: bool = False) -> Outcome:
        scores = self.returns()
        best = max(scores)
        winners = [] if stalled else [seat for seat, score in enumerate(scores) if score == best]
        return Outcome(scores=scores, winners=winners, turns=self.turns, stalled=stalled)


CONTAINERS = (list, dict, set, frozenset, tuple, deque)


def can_determinize(state: State) -> bool:
    """Does the engine say how to re-deal what a seat cannot see (`State.determinize`)?"""
    return type(state).determinize is not State.determinize


def redeal(rng: random.Random, pool: Sequence, sizes: Sequence[int]) -> tuple[list[list], list]:
    """Shuffle the hidden cards and cut hands of these sizes; returns (hands, the rest).

    The pool is sorted first, so the deal depends only on which cards are hidden and on `rng`,
    never on where they were (a determinization that leaks nothing).
    """
    shuffled = sorted(pool)
    rng.shuffle(shuffled)
    hands, start = [], 0
    for size in sizes:
        hands.append(shuffled[start:start + size])
        start += size
    return hands, shuffled[start:]


StateT = TypeVar("StateT", bound=State, contravariant=True)


class Player(ABC, Generic[StateT]):
    """A policy: any player can sit in any seat of any game it understands. An engine's heuristic
    is a Player[ItsState]: it reads that state's own fields."""

    name: str = "player"

    @abstractmethod
    def act(self, state: StateT, seat: int, rng: random.Random) -> Action: ...


class RandomPlayer(Player[State]):
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
    # finding the word is the play (a race): a page never lists the words a hand can make
    words_typed: bool = False

    @abstractmethod
    def new_state(self, game: Game, players: int, options: dict[str, Any] | None = None) -> State: ...

    @abstractmethod
    def heuristic_player(self, skill: float = 1.0) -> Player:
        """A sensible player; skill in [0, 1] (1 plays its best, 0 close to random)."""

    def playout_player(self) -> Player:
        """The player of the search player's playouts with playout="fast" (simulate/ismcts.py): an engine
        may give a cheaper one than its heuristic; by default the skill-1 heuristic."""
        return self.heuristic_player(1.0)

    def players_allowed(self, game: Game) -> range:
        return range(game.spec.players.min, game.spec.players.max + 1)
