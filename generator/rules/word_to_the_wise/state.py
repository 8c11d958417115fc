"""The state of A Word to the Wise: the round, its race and its scoring.

Everything about the cards (letters, points, counts) and the dice (faces) is
read from the game's YAML; the scoring numbers from game.yaml `rules:`. This
package holds the rules and the race model only. See
cards/word-to-the-wise/README.md for the choices made where the rulebook is
silent, and for the race model in words.

One round, as the state runs it:

1. ROLL: one chance event per die (its faces, WILD included).
2. CHOOSE: every seat, starter first and clockwise, picks in secret what it
   goes for: a word its cards and the dice make, a risked non-word (a bluff,
   when challenges are on), or nothing ("pass").
3. TIME: one chance event per seat with a target: its search time is
   `speed * base * growth ** (letters - 2) * q`, q one of `steps` equally
   likely quantiles of a log-normal with sigma `spread`. Longer words take
   longer to find; the draw is the luck of the search.
4. Race: targets are placed in time order (equal times: a chance event picks
   who was first). A seat whose word another seat already placed looks again
   (RECHOOSE, then a new TIME draw added to its time). When only one seat has
   not placed and nobody passed, that seat is the last: it plays no word and
   scores `last_player_points`. Seats that passed are last instead.
5. CHALLENGE (when challenges are on): every seat names the placed words of
   others it challenges; the first challenger clockwise from the word's player
   settles each one by the dictionary.
6. Scoring, discards, the next starter (the player of the round's first
   standing word), both end checks, and the refill, one card at a time from
   the starter clockwise (one chance event per card drawn).
"""

from __future__ import annotations

import math
from collections import Counter
from enum import IntEnum
from itertools import chain, combinations
from typing import Any, NamedTuple

from spellpress.errors import Option, UserError
from spellpress.rules.chance import Counted, draw_chance, draw_counted, draw_from_table, near_whole_draw, whole_position
from spellpress.rules.moves import LazyMoves
from spellpress.rules.observation import CardRef, Observation, Zone, hand_zone, to_move
from spellpress.rules.protocol import CHANCE, TERMINAL, IllegalAction, InvariantError, Outcome, State, redeal
from spellpress.rules.word_to_the_wise.actions import (
    KINDS,
    NO_CHALLENGE,
    PASS,
    Bluff,
    Challenge,
    Die,
    Draw,
    First,
    Pass,
    Time,
    Word,
    typed,
)
from spellpress.rules.word_to_the_wise.content import Definitions
from spellpress.words.index import sub_multisets


class Phase(IntEnum):
    DEAL = 0
    ROLL = 1
    CHOOSE = 2
    TIME = 3
    TIEBREAK = 4
    RECHOOSE = 5
    CHALLENGE = 6
    OVER = 7


DEAL, ROLL, CHOOSE, TIME, TIEBREAK, RECHOOSE, CHALLENGE, OVER = Phase
PHASE_NAMES = tuple(phase.name.lower() for phase in Phase)
# who acts in each phase: chance, a seat (the state's _actor: None here) or nobody (the game is over)
_ACTS_IN: tuple[int | None, ...] = tuple({CHOOSE: None, RECHOOSE: None, CHALLENGE: None, OVER: TERMINAL}.get(phase, CHANCE)
                                         for phase in Phase)


class Placed(NamedTuple):
    """A word on the table (immutable: a tuple, which is also quick to make)."""

    seat: int
    word: str
    cards: tuple[str, ...]
    letters_value: int
    valid: bool
    bluff: bool
    first_bonus: int = 0
    all_bonus: int = 0
    challenger: int | None = None

    @property
    def value(self) -> int:
        return self.letters_value + self.first_bonus + self.all_bonus


class RoundLog(NamedTuple):
    """A scored round, immutable: a past round cannot change, so check_invariants replays each once."""

    number: int
    starter: int
    roll: tuple[str, ...]
    placed: tuple[Placed, ...]
    last: tuple[int, ...]
    rechosen: int = 0


def _fold_new(memo: tuple[list, list[int]], items: list, players: int, step) -> tuple[list, list[int]]:
    """(the items, per-seat totals folded over them by `step(item, totals)`), reusing `memo`'s
    totals while `items` still begins with exactly `memo`'s items (else folding from zero)."""
    done, totals = memo
    if items[:len(done)] != done:
        done, totals = [], [0] * players
    if len(items) == len(done):
        return done, totals
    totals = list(totals)
    for item in items[len(done):]:
        step(item, totals)
    return list(items), totals


def _add_ledger_entry(entry: tuple[int, int, int, str], sums: list[int]) -> None:
    _, seat, points, _ = entry
    sums[seat] += points


class ChooseMoves(LazyMoves):
    """A seat's choices in the race: pass, a word its hand and the dice make that nobody has
    taken, or (with challenges) a bluff with some of its cards. Read as a list, every word is
    listed; asked about one action (as --check asks), only that action is looked at."""

    def __init__(self, defs: Definitions, hand_key: str, roll: tuple[str, ...], taken: frozenset[str]):
        super().__init__()
        self.defs, self.hand_key, self.roll, self.taken = defs, hand_key, roll, taken

    def build(self) -> list:
        p = self.defs.p
        actions: list[Pass | Word | Bluff] = [PASS]
        actions.extend(Word("word", w) for _, _, w in sorted(self.defs.all_words(self.hand_key, self.roll),
                                                         key=lambda row: row[2]) if w not in self.taken)
        if p.challenges:
            actions.extend(Bluff("bluff", sub) for sub in sub_multisets(self.hand_key) if sub and len(sub) + 1 >= p.min_length)
        return actions

    def size(self) -> int:
        bluffs = self.defs.bluffs(self.hand_key) if self.defs.p.challenges else 0
        return 1 + self.defs.count_words(self.hand_key, self.roll, self.taken) + bluffs

    def allows(self, action) -> bool:
        move = named(action)
        if isinstance(move, Pass):
            return True
        if isinstance(move, Word) and isinstance(move.word, str):
            return move.word not in self.taken and self.defs.build(move.word, self.hand_key, self.roll) is not None
        if isinstance(move, Bluff) and isinstance(move.cards, str):
            cards = move.cards
            return (self.defs.p.challenges and bool(cards) and len(cards) + 1 >= self.defs.p.min_length
                    and cards == "".join(sorted(cards)) and not Counter(cards) - Counter(self.hand_key))
        return False


class ChallengeMoves(LazyMoves):
    """Every set of the other seats' placed words to challenge (the empty set first); counted
    without listing them (the runner's move counts)."""

    def __init__(self, others: list[int]):
        super().__init__()
        self.others = others

    def build(self) -> list:
        return [Challenge("challenge", combo) for size in range(len(self.others) + 1)
                for combo in combinations(self.others, size)]

    def size(self) -> int:
        return 2 ** len(self.others)

    def allows(self, action) -> bool:
        move = named(action)
        return (isinstance(move, Challenge) and isinstance(move.seats, tuple)
                and list(move.seats) == sorted(set(move.seats)) and set(move.seats) <= set(self.others))


def named(action) -> Any:
    """The action's named tuple, or None when it is no action of this game."""
    try:
        return typed(action)
    except IllegalAction:
        return None


def _places(move: Any, placed: Placed) -> bool:
    """Whether the word or bluff `move` is the one `placed` (by its seat)."""
    if isinstance(move, Word):
        return placed.word == move.word
    return isinstance(move, Bluff) and placed.bluff and "".join(sorted(placed.cards)) == move.cards


class View:
    """What one seat may see: its own hand, the dice, the words placed, the scores and card counts.
    Read when asked: a view serves one decision, made before the state moves on."""

    __slots__ = ("seat", "players", "phase", "challenges", "_state")

    def __init__(self, state: WiseState, seat: int):
        self.seat, self.players, self._state = seat, state.players, state
        self.phase = state.phase
        self.challenges = state.p.challenges

    @property
    def hand(self) -> tuple[str, ...]:
        return tuple(self._state.hands[self.seat])

    @property
    def hand_key(self) -> str:
        """The hand's letters, sorted."""
        return "".join(sorted(self._state.hands[self.seat]))

    @property
    def roll(self) -> tuple[str, ...]:
        return tuple(self._state.roll)

    @property
    def placed(self) -> tuple[tuple[int, str], ...]:
        """(seat, word) of the words placed this round, in order."""
        return tuple([(p.seat, p.word) for p in self._state.placed])

    @property
    def taken(self) -> frozenset[str]:
        return frozenset(self._state.taken)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._state.scores)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(hand) for hand in self._state.hands)

    @property
    def deck_size(self) -> int:
        return self._state.deck_size

    @property
    def starter(self) -> int:
        return self._state.starter


class WiseState(State):
    def __init__(self, defs: Definitions, players: int):
        self.defs, self.p = defs, defs.p
        if self.p.speeds is not None and len(self.p.speeds) != players:
            raise UserError.at(Option("--option speeds"),
                               f"one speed per seat ({players}), got {len(self.p.speeds)}")
        self.players = players
        self._orders = tuple(tuple((start + i) % players for i in range(players)) for start in range(players))
        self.turns = 0
        self.deck = dict(defs.totals)
        self.deck_size = defs.deck_cards
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.discard: Counter = Counter()
        self.scores = [0] * players
        self.ledger: list[tuple[int, int, int, str]] = []  # (round, seat, points, why)
        self.logs: list[RoundLog] = []
        self._all_cards = dict(defs.totals)
        self._checked_logs: tuple[list[RoundLog], list[int]] = ([], [0] * players)  # check_invariants' memo
        self._checked_ledger: tuple[list, list[int]] = ([], [0] * players)
        self.starter = 0
        self.roll: list[str] = []
        self.ended_by = ""
        self.dry_rounds = 0  # rounds in a row with the deck empty and no word standing
        self.deducted = [0] * players
        self.played_letters: dict[str, set[int]] = {}
        self._reset_round()
        self.phase = DEAL
        self._draw_from = 0
        self._drawer = self._next_drawer()
        if self._drawer is None:
            self._after_refill()

    # -- protocol -------------------------------------------------------------
    def current_player(self) -> int:
        who = _ACTS_IN[self.phase]
        return self._actor if who is None else who

    def chance_outcomes(self):
        phase = self.phase
        if phase == DEAL:
            return Counted(self.defs.deck_draws, list(self.deck.values()), self.deck_size)
        if phase == ROLL:
            return self.defs.die_outcomes[len(self.roll)]
        if phase == TIME:
            return self.defs.time_outcomes
        if phase == TIEBREAK:
            share = 1.0 / len(self._tied)
            return [(First("first", seat), share) for seat in self._tied]
        raise IllegalAction(f"no chance event in the {PHASE_NAMES[phase]} phase")

    @property
    def deck(self) -> dict[str, int]:
        """letter -> cards of it left in the deck, in the game's order of letters (draws are listed in it)."""
        return self._deck

    @deck.setter
    def deck(self, counts: dict[str, int]) -> None:
        self._deck = counts
        self._pile: list[Draw] | None = None  # made again from the counts when next drawn from

    def _deck_pile(self) -> list[Draw]:
        """The deck's cards as their draw actions, letter by letter in the deck's order: the card at
        whole position k is the one the k-th unit of the counts' running sums falls on."""
        actions = self.defs.draw_actions
        self._pile = [actions[letter] for letter, n in self._deck.items() for _ in range(n)]
        return self._pile

    def sample_chance(self, rng):
        """chance_outcomes()'s draw (State.sample_chance), the deck's drawn from its counts, no list made."""
        phase = self.phase
        if phase == DEAL:
            # draw_counted's pick, read off the deck's cards in order: the card at int(r * total) is the
            # one whose running count first exceeds r * total, where that is not near a whole number
            pile = self._pile if self._pile is not None else self._deck_pile()
            total = self.deck_size
            if len(pile) == total and total and pile[0] != pile[-1]:  # two letters or more left
                r = rng.random()
                at = whole_position(r, total, len(self._deck))
                if at is not None:
                    return pile[at]
                return near_whole_draw(self.defs.deck_draws, list(self._deck.values()), total, r)
            return draw_counted(self.defs.deck_draws, list(self._deck.values()), total, rng)
        if phase == ROLL:
            table = self.defs.die_sums[len(self.roll)]
        elif phase == TIME:
            table = self.defs.time_sums
        else:
            return draw_chance(self.chance_outcomes(), rng)
        if table is None:  # one outcome: no number drawn
            return self.chance_outcomes()[0][0]
        return draw_from_table(table, rng)

    def legal_actions(self):
        phase = self.phase
        if phase in (DEAL, ROLL, TIME, TIEBREAK):
            return [action for action, _ in self.chance_outcomes()]
        if phase in (CHOOSE, RECHOOSE):
            return ChooseMoves(self.defs, "".join(sorted(self.hands[self._actor])), tuple(self.roll), frozenset(self.taken))
        if phase == CHALLENGE:
            return ChallengeMoves(sorted(p.seat for p in self.placed if p.seat != self._actor))
        return []

    def chance_seat(self) -> int | None:
        """The seat a chance event is about: who draws (deal, refill) or whose search is timed."""
        if self.phase == DEAL:
            return self._drawer
        if self.phase == TIME:
            return self._queue[0]
        return None

    def view(self, seat: int) -> View:
        """What the heuristic reads: the seat's hand, the dice, the words placed, scores and counts."""
        return View(self, seat)

    def returns(self) -> list[float]:
        return [float(s) for s in self.scores]

    def apply(self, action) -> None:
        if self.phase == OVER:
            raise IllegalAction("the game is over")
        found = _MOVE_OF_KIND.get(type(action))  # a typed action: its verb's method at once
        if found is None:
            move = typed(action)  # IllegalAction for an unknown verb or a wrong number of fields
            found = _MOVES[move.verb]
        else:
            move = action
        apply, phases = found
        if self.phase not in phases:
            raise IllegalAction(f"no {move.verb} in the {PHASE_NAMES[self.phase]} phase: {move!r}")
        apply(self, move)

    # One method per verb (the _MOVES table at the end, with the phases each is played in).
    def _break_tie(self, move: First) -> None:
        if move.seat not in self._tied:
            raise IllegalAction(f"not a tie-break among {self._tied}: {move!r}")
        if self._place_or_rechoose(move.seat):
            self._race()

    # -- dealing and refilling ---------------------------------------------------
    def _next_drawer(self) -> int | None:
        """The next seat to draw, one card at a time clockwise from the starter, or None when done."""
        if not self.deck_size:
            return None
        size, hands = self.p.hand_size, self.hands
        for seat in self._clockwise(self._draw_from):
            if len(hands[seat]) < size:
                return seat
        return None

    def _draw(self, move: Draw) -> None:
        letter = self.defs.drawn_letter.get(move)
        if letter is None:
            raise IllegalAction(f"not a card draw: {move!r}")
        deck = self._deck
        left = deck[letter]
        if not left:
            raise IllegalAction(f"no {letter!r} card left to draw")
        deck[letter] = left - 1
        self.deck_size -= 1
        if self._pile is not None:
            self._pile.remove(self.defs.draw_actions[letter])
        seat = self._drawer
        assert seat is not None  # the deal goes on only while a seat is to draw
        self.hands[seat].append(letter)
        self._draw_from = (seat + 1) % self.players
        self._drawer = self._next_drawer()
        if self._drawer is None:
            self._after_refill()

    def _after_refill(self) -> None:
        if not all(self.hands):  # a seat with no card
            self._finish("no card to begin a round")
            return
        self.phase = ROLL
        self.roll = []

    # -- the round -------------------------------------------------------------------
    def _reset_round(self) -> None:
        n = self.players
        self.targets: list[Any] = [None] * n
        self.pending: list[tuple[str, tuple[str, ...], int, bool, bool] | None] = [None] * n
        self.times = [math.inf] * n
        self.placed: list[Placed] = []
        self.placed_seats: set[int] = set()
        self.passed: set[int] = set()
        self.taken: set[str] = set()
        self.last: list[int] = []
        self.flags: dict[int, tuple[int, ...]] = {}
        self.first_bonus_given = False
        self.rechosen = 0
        self._queue: list[int] = []
        self._tied: list[int] = []
        self._actor = -1

    def _clockwise(self, start: int) -> tuple[int, ...]:
        """Every seat, clockwise from `start`."""
        return self._orders[start]

    def _roll_die(self, move: Die) -> None:
        if move.face not in self.defs.dice[len(self.roll)]:
            raise IllegalAction(f"not a face of die {len(self.roll) + 1}: {move!r}")
        self.roll.append(move.face)
        if len(self.roll) == len(self.defs.dice):
            self._reset_round()
            self._queue = list(self._clockwise(self.starter))
            self.phase = CHOOSE
            self._actor = self._queue.pop(0)

    # A target is (word, cards, letter points, valid, bluff); a pass has none.
    def _pass(self, move: Pass) -> None:
        self._go_for(move, None)

    def _go_for_word(self, move: Word) -> None:
        self._go_for(move, self._word_target(self._actor, move))

    def _word_target(self, seat: int, move: Word) -> tuple[str, tuple[str, ...], int, bool, bool]:
        text = move.word
        if not isinstance(text, str):
            raise IllegalAction(f"not a word, bluff or pass: {move!r}")
        hand, roll = self.hands[seat], tuple(self.roll)
        built = self.defs.build(text, hand, roll)
        if built is None:
            raise IllegalAction(f"seat {seat} cannot make {text!r} from {''.join(sorted(hand))} and {roll}")
        if text in self.taken:
            raise IllegalAction(f"{text!r} was already played this round")
        return text, built[0], built[1], True, False

    def _bluff(self, move: Bluff) -> None:
        seat, text = self._actor, move.cards
        if not isinstance(text, str):
            raise IllegalAction(f"not a word, bluff or pass: {move!r}")
        if not self.p.challenges:
            raise IllegalAction(f"not a legal target: {move!r}")
        hand, roll = self.hands[seat], tuple(self.roll)
        if not text or text != "".join(sorted(text)) or Counter(text) - Counter(hand) or len(text) + 1 < self.p.min_length:
            raise IllegalAction(f"seat {seat} cannot bluff with cards {text!r}")
        word = self.defs.bluff_word(text, roll)
        worth = self.defs.letters_value(word, list(text), roll)
        assert worth is not None  # its own cards and a rolled vowel (or a WILD as one) always make it
        _, value = worth
        valid = self.defs.build(word, hand, roll) is not None
        self._go_for(move, (word, tuple(text), value, valid, True))

    def _go_for(self, move: Pass | Word | Bluff, target: tuple[str, tuple[str, ...], int, bool, bool] | None) -> None:
        """The seat to choose goes for `target` (None: it passes)."""
        seat = self._actor
        self.pending[seat] = target
        if self.phase == RECHOOSE:
            self.rechosen += 1
            if target is None:
                self.passed.add(seat)
                self.times[seat] = math.inf
                self._race()
            else:
                self._queue = [seat]
                self.phase = TIME
            return
        self.targets[seat] = move
        if target is None:
            self.passed.add(seat)
        if self._queue:
            self._actor = self._queue.pop(0)
            return
        self._queue = [s for s in self._clockwise(self.starter) if self.pending[s] is not None]
        self.times = [0.0 if self.pending[s] is not None else math.inf for s in range(self.players)]
        self.phase = TIME
        if not self._queue:
            self._race()

    def _time(self, move: Time) -> None:
        step = self.defs.time_step.get(move)
        if step is None:
            raise IllegalAction(f"not a search time: {move!r}")
        seat = self._queue.pop(0)
        target = self.pending[seat]
        assert target is not None  # the seats timed are those with a target
        speeds = self.p.speeds
        if speeds:
            self.times[seat] += speeds[seat] * self.defs.search_seconds(len(target[0])) * self.defs.quantiles[step]
        else:  # speed 1.0: 1.0 * seconds is seconds, so seconds * quantile, as kept for the word's length
            self.times[seat] += self.defs.step_times(len(target[0]))[step]
        if not self._queue:
            self._race()

    def _race(self) -> None:
        """Place words in time order until the round's last player is known."""
        placed, passed, times = self.placed_seats, self.passed, self.times
        # the seats still racing, soonest first; equal times in clockwise order (the sort is stable)
        racing = sorted([s for s in self._clockwise(self.starter) if s not in placed and s not in passed],
                        key=times.__getitem__)
        at = 0
        while True:
            left = len(racing) - at
            if not left or (left == 1 and not passed):
                self.last = sorted(racing[at:] if not passed else passed)
                self._end_race()
                return
            soonest = times[racing[at]]
            tied = at + 1
            while tied < len(racing) and times[racing[tied]] == soonest:
                tied += 1
            if tied - at > 1:
                self._tied = racing[at:tied]
                self.phase = TIEBREAK
                return
            if not self._place_or_rechoose(racing[at]):
                return
            at += 1

    def _place_or_rechoose(self, seat: int) -> bool:
        """Place the seat's word; False when it was taken and the seat must look again."""
        target = self.pending[seat]
        assert target is not None  # the seats racing are those with a target
        word, cards, value, valid, bluff = target
        if word in self.taken:
            self._actor = seat
            self.phase = RECHOOSE
            return False
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        first = 0
        if not self.first_bonus_given and len(word) >= self.p.first_word_min_length:
            first = self.p.first_word_bonus
            self.first_bonus_given = True
        every = self.p.all_cards_bonus if len(cards) == self.p.hand_size else 0
        self.placed.append(Placed(seat, word, cards, value, valid, bluff, first, every))
        self.placed_seats.add(seat)
        self.taken.add(word)
        return True

    def _end_race(self) -> None:
        if self.p.challenges and self.placed:
            self._queue = list(self._clockwise(self.starter))
            self.phase = CHALLENGE
            self._actor = self._queue.pop(0)
        else:
            self._score_round()

    def _challenge(self, move: Challenge) -> None:
        seat = self._actor
        if move != NO_CHALLENGE:  # challenging nobody is always allowed
            others = {p.seat for p in self.placed if p.seat != seat}
            if not (isinstance(move.seats, tuple) and set(move.seats) <= others
                    and list(move.seats) == sorted(set(move.seats))):
                raise IllegalAction(f"seat {seat} cannot challenge {move!r}")
        self.flags[seat] = move.seats
        if self._queue:
            self._actor = self._queue.pop(0)
            return
        if any(self.flags.values()):
            for index, placed in enumerate(self.placed):
                for challenger in self._clockwise(placed.seat)[1:]:
                    if placed.seat in self.flags.get(challenger, ()):
                        self.placed[index] = placed._replace(challenger=challenger)
                        break
        self._score_round()

    def _score_round(self) -> None:
        number = self.turns + 1
        standing = []
        for placed in self.placed:
            if placed.challenger is not None:
                if placed.valid:
                    self._score(placed.challenger, -placed.value, "wrong challenge", number)
                else:
                    self._score(placed.seat, -placed.value, "invalid word", number)
                    self.hands[placed.seat].extend(placed.cards)  # the word is taken back
                    continue
            self._score(placed.seat, placed.value, "word", number)
            standing.append(placed)
            played = self.played_letters
            self.discard.update(placed.cards)
            for c in dict.fromkeys(placed.cards):
                seats = played.get(c)
                if seats is None:
                    played[c] = {placed.seat}
                else:
                    seats.add(placed.seat)
        if self.placed:
            for seat in self.last:
                self._score(seat, self.p.last_player_points, "last", number)
        else:
            self.last = []
        self.logs.append(RoundLog(number, self.starter, tuple(self.roll), tuple(self.placed), tuple(self.last), self.rechosen))
        if standing:
            self.starter = standing[0].seat
        self.turns = number
        self.placed = []  # the table is cleared (the log keeps the words)
        self.placed_seats = set()
        if not self.deck_size and not all(self.hands):
            self._finish("deck empty and a player out of cards")
            return
        self.dry_rounds = 0 if standing or self.deck_size else self.dry_rounds + 1
        if self.dry_rounds >= self.p.dry_rounds:
            self._finish(f"no word for {self.dry_rounds} rounds with the deck empty")
            return
        self.phase = DEAL
        self._draw_from = self.starter
        self._drawer = self._next_drawer()
        if self._drawer is None:
            self._after_refill()

    def _score(self, seat: int, points: int, why: str, number: int) -> None:
        if points:
            self.scores[seat] += points
            self.ledger.append((number, seat, points, why))

    def _finish(self, why: str) -> None:
        self.ended_by = why
        for seat, hand in enumerate(self.hands):
            left = sum(self.defs.points[c] for c in hand)
            self.deducted[seat] = left
            self._score(seat, -left, "cards left in hand", self.turns)
        self.phase = OVER

    # -- for the search player: what a seat cannot see ----------------------------------
    def determinize(self, seat: int, rng) -> WiseState:
        """A clone with the other hands and the deck re-dealt; the cards of a word a player has
        already chosen this round (and not yet placed) stay in its hand."""
        s = self.clone()
        others = [o for o in range(s.players) if o != seat]
        kept = {o: list(target[1]) if (target := s.pending[o]) is not None and o not in s.placed_seats else []
                for o in others}
        hidden = {}
        for o in others:
            rest_of_hand = list(s.hands[o])
            for card in kept[o]:
                rest_of_hand.remove(card)
            hidden[o] = rest_of_hand
        pool = [letter for letter, n in s.deck.items() for _ in range(n)] + [c for o in others for c in hidden[o]]
        hands, rest = redeal(rng, pool, [len(hidden[o]) for o in others])
        for o, hand in zip(others, hands, strict=False):
            s.hands[o] = kept[o] + hand
        counts = dict.fromkeys(s.deck, 0)
        for letter in rest:
            counts[letter] = counts.get(letter, 0) + 1
        s.deck = counts
        return s
    # -- what a seat sees (spellpress play) -----------------------------------------------
    def card(self, letter: str) -> CardRef:
        return CardRef(self.defs.component, self.defs.card_ids[letter])

    def observation(self, seat: int) -> Observation:
        back = self.defs.component
        zones = [Zone("deck", "deck", "pile", None, (), self.deck_size, back)]
        for other in range(self.players):
            zones.append(hand_zone(other, seat, [self.card(c) for c in sorted(self.hands[other])], back))
        for index, placed in enumerate(self.placed):
            zones.append(Zone(f"word:{index}", f"seat {placed.seat + 1}: {placed.word.upper()}", "row", placed.seat,
                              tuple(self.card(c) for c in placed.cards)))
        discarded = sorted(self.discard.elements())
        zones.append(Zone("discard", "used cards", "pile", None, tuple(self.card(c) for c in discarded)))
        facts = [f"round {self.turns + 1}, seat {self.starter + 1} starts"]
        if self.roll:
            facts.append("dice: " + " ".join(face.upper() for face in self.roll))
        if self.phase in (CHOOSE, RECHOOSE, CHALLENGE) and self._actor >= 0:
            facts.append(f"seat {self._actor + 1} is choosing in secret" if self.phase != CHALLENGE
                         else f"seat {self._actor + 1} decides on challenges")
        if seat in self.passed:
            facts.append("you passed")
        elif (target := self.pending[seat]) is not None and self.phase not in (DEAL, OVER):
            facts.append(f"you go for {target[0].upper()}")
        if self.logs:
            log = self.logs[-1]
            words = ", ".join(f"seat {p.seat + 1} {p.word.upper()}" + (" (challenged)" if p.challenger is not None else "")
                              for p in log.placed) or "no words"
            facts.append(f"last round: {words}")
        if self.ended_by:
            facts.append(f"game over: {self.ended_by}")
        return Observation(seat, to_move(self.current_player()), PHASE_NAMES[self.phase],
                           tuple(self.returns()), tuple(zones), tuple(facts))

    def action_to_string(self, action) -> str:
        move = named(action)
        if isinstance(move, Pass):
            return "pass (play no word)"
        if isinstance(move, Word):
            return f"play {move.word.upper()}"
        if isinstance(move, Bluff):
            return f"risk a non-word with {''.join(self.defs.units.get(c, c) for c in move.cards).upper()}"
        if isinstance(move, Challenge):
            return ("challenge " + ", ".join(f"seat {s + 1}" for s in move.seats)) if move.seats else "challenge nobody"
        return super().action_to_string(action)

    def action_cards(self, action) -> tuple[CardRef, ...]:
        move, seat = named(action), self._actor
        if isinstance(move, Word) and seat >= 0:
            built = self.defs.letters_value(move.word, self.hands[seat], tuple(self.roll))
            return tuple(self.card(c) for c in built[0]) if built else ()
        if isinstance(move, Bluff):
            return tuple(self.card(c) for c in move.cards)
        return ()

    def action_word(self, action, typed: str | None = None) -> str | None:
        move = named(action)
        return move.word if isinstance(move, Word) else None

    def choices_hidden(self) -> bool:
        return self.phase in (CHOOSE, TIME, TIEBREAK, RECHOOSE)

    def takes_word(self) -> bool:
        return self.phase in (CHOOSE, RECHOOSE)

    def action_revealed(self, action, seat: int) -> str | None:
        """A pass, and a word or bluff the seat placed, are told; a word it never placed (the round's
        last player's, one another seat placed first) stays secret: it would tell its cards."""
        placed = self.placed or (self.logs[-1].placed if self.logs else ())
        move = named(action)
        if isinstance(move, Pass) or any(p.seat == seat and _places(move, p) for p in placed):
            return self.action_to_string(action)
        return None

    def round_number(self) -> int | None:
        return self.turns + 1

    def score_items(self, before: State, action) -> list[tuple[int, float, str]] | None:
        """The ledger's new entries, a word's with the word (paired in the order the round scored them)."""
        assert isinstance(before, WiseState)
        new = self.ledger[len(before.ledger):]
        if not new:
            return []
        said = []
        for placed in self.logs[-1].placed if self.logs and self.logs[-1].number == new[0][0] else ():
            word = placed.word.upper()
            bonus = ("first word" if placed.first_bonus else "") + (" all cards" if placed.all_bonus else "")
            if placed.challenger is None:
                said.append((placed.seat, "word", word + (f" (with the {bonus.strip()} bonus)" if bonus else "")))
            elif placed.valid:
                said.append((placed.challenger, "wrong challenge", f"wrong challenge of {word}"))
            else:
                said.append((placed.seat, "invalid word", f"{word} is no word"))
        items = []
        for _, seat, points, why in new:
            match = next((i for i, (s, w, _) in enumerate(said) if s == seat and w == why), None)
            plain = {"last": "the last player's points", "cards left in hand": "cards left in hand at the end"}
            items.append((seat, float(points), said.pop(match)[2] if match is not None else plain.get(why, why)))
        return items

    def time_taken(self, seconds: float):
        """The search-time chance outcome ("time", j) nearest to `seconds` of a person's real search, for
        the seat being timed now (spellpress play's timed race); None when no seat is being timed. The
        time is the model's nearest (on a log scale): a search faster or slower than every step of
        the model takes its first or last step."""
        if self.phase != TIME or not self._queue:
            return None
        seat = self._queue[0]
        speed = self.p.speeds[seat] if self.p.speeds else 1.0
        target = self.pending[seat]
        assert target is not None  # the seat timed now has a target
        wanted = math.log(max(seconds, 1e-3) / (speed * self.p.seconds(len(target[0]))))
        quantiles = self.defs.quantiles
        return Time("time", min(range(len(quantiles)), key=lambda j: abs(math.log(quantiles[j]) - wanted)))

    # -- invariants --------------------------------------------------------------------
    def check_invariants(self) -> None:
        defs = self.defs
        self._check_deck()
        # every consonant card is in exactly one place: deck, a hand, the table, the discard pile
        if max(map(len, self.hands)) > self.p.hand_size:
            seat = next(seat for seat, hand in enumerate(self.hands) if len(hand) > self.p.hand_size)
            raise InvariantError(f"seat {seat} holds {len(self.hands[seat])} cards")
        # counted on a plain copy of the deck (this runs after every action): every letter of the game
        # is a key of the deck, 0 once drawn, so a letter it lacks is a card from nowhere
        where = dict(self.deck)
        try:
            for hand in self.hands:
                for c in hand:
                    where[c] += 1
            for placed in self.placed:
                for c in placed.cards:
                    where[c] += 1
            for letter, n in self.discard.items():
                where[letter] += n
            accounted = where == self._all_cards
        except KeyError:
            accounted = False
        if not accounted:
            where = Counter(self.deck)
            where.update(chain(chain.from_iterable(self.hands), chain.from_iterable(p.cards for p in self.placed)))
            where.update(self.discard)
            lost = Counter(defs.totals) - where
            extra = where - Counter(defs.totals)
            problems = ([f"lost {dict(lost)}"] if lost else []) + ([f"duplicated {dict(extra)}"] if extra else [])
            raise InvariantError("cards " + " and ".join(problems) + " (deck, hands, table and discard pile checked)")
        # scores change only by the rules: replay the round logs
        expected = self._logged_points()
        if self.phase == OVER:
            expected = [points - sum(defs.points[c] for c in hand) for points, hand in zip(expected, self.hands, strict=False)]
        if expected != self.scores:
            raise InvariantError(f"scores {self.scores} but the rules give {expected}")
        if self._ledger_sums() != self.scores:
            raise InvariantError("scores disagree with the score ledger")

    def _check_deck(self) -> None:
        defs = self.defs
        counts = self.deck.values()
        if min(counts, default=0) < 0:
            letter, n = min(self.deck.items(), key=lambda item: item[1])
            raise InvariantError(f"{n} {letter} cards in the deck")
        if sum(counts) != self.deck_size:
            raise InvariantError(f"deck size {self.deck_size} but {sum(counts)} cards in it")
        if tuple(self.deck) != defs.deck_letters:  # draws are listed in this order
            raise InvariantError(f"the deck holds letters {''.join(self.deck)}, not the game's {''.join(defs.totals)}")
        if self._pile is not None and self._pile != [defs.draw_actions[c] for c, n in self.deck.items() for _ in range(n)]:
            raise InvariantError("the deck's cards, as drawn from, differ from its counts")

    def _logged_points(self) -> list[int]:
        """What the rules give each seat over the logged rounds (the kept totals: not to be changed).
        Logs are frozen, so rounds replayed at an earlier check are not replayed again (replaying
        every round after every action made --check cost 9x a run)."""
        self._checked_logs = _fold_new(self._checked_logs, self.logs, self.players, self._check_round)
        return self._checked_logs[1]

    def _ledger_sums(self) -> list[int]:
        """Each seat's total in the score ledger (the kept totals: not to be changed)."""
        self._checked_ledger = _fold_new(self._checked_ledger, self.ledger, self.players, _add_ledger_entry)
        return self._checked_ledger[1]

    def _check_round(self, log: RoundLog, expected: list[int]) -> None:
        p, defs = self.p, self.defs
        words = [placed.word for placed in log.placed]
        if len(set(words)) != len(words):
            raise InvariantError(f"round {log.number}: a word played twice: {words}")
        first_given = False
        for placed in log.placed:
            if len(placed.word) < p.min_length:
                raise InvariantError(f"round {log.number}: {placed.word!r} is shorter than {p.min_length}")
            counted = defs.letters_value(placed.word, placed.cards, log.roll)
            if counted is None or counted != (placed.cards, placed.letters_value):
                raise InvariantError(f"round {log.number}: {placed.word!r} from {placed.cards} is worth {counted}, "
                                     f"scored {placed.letters_value}")
            if placed.valid != (placed.word in defs.words):
                raise InvariantError(f"round {log.number}: {placed.word!r} marked valid={placed.valid}")
            first = 0
            if not first_given and len(placed.word) >= p.first_word_min_length:
                first, first_given = p.first_word_bonus, True
            every = p.all_cards_bonus if len(placed.cards) == p.hand_size else 0
            if (placed.first_bonus, placed.all_bonus) != (first, every):
                raise InvariantError(f"round {log.number}: wrong bonuses on {placed.word!r}")
            value = placed.letters_value + first + every
            if placed.challenger is None:
                expected[placed.seat] += value
            elif placed.word in defs.words:
                expected[placed.seat] += value
                expected[placed.challenger] -= value
            else:
                expected[placed.seat] -= value
        if log.placed:
            for seat in log.last:
                expected[seat] += p.last_player_points
            if any(placed.seat in log.last for placed in log.placed):
                raise InvariantError(f"round {log.number}: the last player played a word")

    # -- results ---------------------------------------------------------------------------
    def outcome(self, stalled: bool = False) -> Outcome:
        result = super().outcome(stalled)
        result.played = {f"letter:{letter.upper()}": set(seats) for letter, seats in sorted(self.played_letters.items())}
        figures: dict[str, float] = {"rounds": float(self.turns)}
        for seat in range(self.players):
            figures[f"first_words_seat{seat + 1}"] = 0.0
        words = letters = first_bonus = all_bonus = challenges = upheld = bluffs = lasts = rechosen = 0
        for log in self.logs:
            rechosen += log.rechosen
            lasts += len(log.last) if log.placed else 0
            for i, placed in enumerate(log.placed):
                if i == 0:
                    figures[f"first_words_seat{placed.seat + 1}"] += 1
                words += 1
                letters += len(placed.word)
                first_bonus += bool(placed.first_bonus)
                all_bonus += bool(placed.all_bonus)
                bluffs += placed.bluff and not placed.valid
                if placed.challenger is not None:
                    challenges += 1
                    upheld += not placed.valid
        figures.update({
            "words": float(words), "letters_per_word": letters / words if words else 0.0,
            "first_word_bonuses": float(first_bonus), "all_five_bonuses": float(all_bonus),
            "last_player_points": float(lasts), "duplicate_words_rechosen": float(rechosen),
            "bluffs": float(bluffs), "challenges": float(challenges), "challenges_upheld": float(upheld),
            "points_left_in_hands": float(sum(self.deducted)),
            "ended_deck_empty": float(self.ended_by.startswith("deck")),
            "ended_no_card_to_begin": float(self.ended_by.startswith("no card")),
        })
        result.figures = figures
        return result


# WiseState.apply's method for each verb, and the phases it is played in
_MOVES: dict[str, tuple[Any, tuple[Phase, ...]]] = {
    "draw": (WiseState._draw, (DEAL,)), "die": (WiseState._roll_die, (ROLL,)), "time": (WiseState._time, (TIME,)),
    "first": (WiseState._break_tie, (TIEBREAK,)), "pass": (WiseState._pass, (CHOOSE, RECHOOSE)),
    "word": (WiseState._go_for_word, (CHOOSE, RECHOOSE)), "bluff": (WiseState._bluff, (CHOOSE, RECHOOSE)),
    "challenge": (WiseState._challenge, (CHALLENGE,)),
}
_MOVE_OF_KIND = {KINDS[verb]: entry for verb, entry in _MOVES.items()}  # by the named tuple's type
