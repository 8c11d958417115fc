"""A Word to the Wise: rounds of a race to spell words from consonant cards and two vowel dice.

Everything about the cards (letters, points, counts) and the dice (faces) is
read from the game's YAML; the scoring numbers from game.yaml `rules:`. This
module holds the rules and the race model only. See
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
import zlib
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from statistics import NormalDist
from typing import Any

from pydantic import Field

from generator.errors import Location, UserError
from generator.model.deck import Game
from generator.rules.settings import EngineSettings, Needs, settings_for
from generator.rules.protocol import CHANCE, TERMINAL, IllegalAction, InvariantError, Outcome, Player, Rules, State
from generator.words.finder import WordFinder, for_words
from generator.words.index import key, sub_multisets

DIE_VOWELS = frozenset("aeiou")
WILD = "*"  # a die showing WILD
PASS = ("pass",)

DEAL, ROLL, CHOOSE, TIME, TIEBREAK, RECHOOSE, CHALLENGE, OVER = range(8)
PHASE_NAMES = ("deal", "roll", "choose", "time", "tiebreak", "rechoose", "challenge", "over")

# The race model's defaults; game.yaml `rules: race:` or run options override them.
RACE_DEFAULTS = {
    "base_seconds": 3.0,  # median time to find a two-letter word
    "growth": 1.5,        # each extra letter multiplies the search time by this
    "spread": 0.6,        # sigma of the log-normal luck of the search
    "steps": 64,          # equally likely quantiles the chance event picks from
}

# What a heuristic player assumes about its opponents' targets, per player
# count: word length -> share. A fixed point of skill-1 self-play with the
# shipped deck (see the README); only the players' judgement depends on it.
OPPONENT_TARGETS = {
    2: {2: 0.013, 3: 0.96, 4: 0.022, 5: 0.005},
    3: {2: 0.006, 3: 0.917, 4: 0.042, 5: 0.007, 6: 0.029},
    4: {2: 0.006, 3: 0.62, 4: 0.2, 5: 0.015, 6: 0.05, 7: 0.11},
    5: {2: 0.004, 3: 0.224, 4: 0.411, 5: 0.136, 6: 0.062, 7: 0.149, 8: 0.016},
    6: {2: 0.006, 3: 0.133, 4: 0.467, 5: 0.164, 6: 0.061, 7: 0.138, 8: 0.032},
    7: {2: 0.006, 3: 0.096, 4: 0.294, 5: 0.313, 6: 0.112, 7: 0.131, 8: 0.048},
    8: {2: 0.005, 3: 0.096, 4: 0.221, 5: 0.374, 6: 0.127, 7: 0.121, 8: 0.054},
}


@dataclass(frozen=True)
class Params:
    hand_size: int
    vowel_points: int
    wild_points: int
    first_word_bonus: int
    first_word_min_length: int
    all_cards_bonus: int
    last_player_points: int
    min_length: int
    challenges: bool
    base_seconds: float
    growth: float
    spread: float
    steps: int
    speeds: tuple[float, ...] | None = None
    deck: str = "consonants"
    dice: str = "dice"

    def seconds(self, letters: int) -> float:
        return self.base_seconds * self.growth ** (letters - 2)


class RaceSettings(EngineSettings):
    """The simulator's speed model (not a printed rule): how long finding a word takes."""

    base_seconds: float = Field(RACE_DEFAULTS["base_seconds"], gt=0)
    growth: float = Field(RACE_DEFAULTS["growth"], gt=0)
    spread: float = Field(RACE_DEFAULTS["spread"], ge=0)
    steps: int = Field(RACE_DEFAULTS["steps"], ge=1)


class WiseSettings(EngineSettings):
    """game.yaml `rules:` for the word-to-the-wise engine (defaults: the rulebook's numbers)."""

    hand_size: int = Field(5, ge=1)
    vowel_points: int = 1
    wild_points: int = 0
    first_word_bonus: int = 3
    first_word_min_length: int = Field(3, ge=1)
    all_cards_bonus: int = 10
    last_player_points: int = 1
    challenges: bool = True
    race: RaceSettings = RaceSettings()
    deck: str = "consonants"  # the component of consonant cards (fields letter, points)
    dice: str = "dice"  # the component of vowel dice (field faces)

    def needs(self) -> list[Needs]:
        return [Needs(self.deck, {"letter": str, "points": int}, ("deck",)),
                Needs(self.dice, {"faces": list[str]}, ("dice",))]


def _params(game: Game, options: dict[str, Any]) -> Params:
    settings = settings_for(game, WiseSettings, WiseRules.id, options)
    race = settings.race.model_dump()
    for name in RACE_DEFAULTS:
        if name in options:
            race[name] = options[name]
    speeds = options.get("speeds")  # one search-speed factor per seat (1 = the model's pace)
    if isinstance(speeds, str):  # from the command line: --option speeds=1,1,0.8
        speeds = [float(x) for x in speeds.split(",")]
    elif isinstance(speeds, (int, float)):
        speeds = [float(speeds)]
    return Params(
        hand_size=settings.hand_size,
        vowel_points=settings.vowel_points,
        wild_points=settings.wild_points,
        first_word_bonus=settings.first_word_bonus,
        first_word_min_length=settings.first_word_min_length,
        all_cards_bonus=settings.all_cards_bonus,
        last_player_points=settings.last_player_points,
        min_length=game.spec.words.min_length,
        challenges=settings.challenges,
        base_seconds=float(race["base_seconds"]),
        growth=float(race["growth"]),
        spread=float(race["spread"]),
        steps=int(race["steps"]),
        speeds=tuple(float(s) for s in speeds) if speeds else None,
        deck=settings.deck,
        dice=settings.dice,
    )


# -- the dictionary, shared by every game with the same word rules -----------

_FINDERS: dict[tuple, tuple[WordFinder, dict, frozenset]] = {}


def _finder(game: Game) -> tuple[WordFinder, dict, frozenset]:
    """(finder, its table of words by consonant skeleton, the word set), built once per process."""
    words = game.spec.words
    cache_key = (words.min_length, tuple(sorted(words.allow)), tuple(sorted(words.deny)))
    if cache_key not in _FINDERS:
        lexicon, finder = for_words(words)
        # Dice vowels are reusable letters: words keyed by the letters the cards
        # must supply. One table for every roll; the roll filters its vowels.
        skeleton = finder.index.skeleton(DIE_VOWELS)
        _FINDERS[cache_key] = (finder, skeleton, frozenset(lexicon.words))
    return _FINDERS[cache_key]


class Definitions:
    """The loaded cards, dice and rule numbers, with the word caches players share."""

    def __init__(self, game: Game, params: Params):
        self.game, self.p = game, params
        deck = game.component(params.deck)
        points: dict[str, int] = {}
        totals: Counter = Counter()
        for card in deck.cards:
            letter = str(card["letter"]).lower()
            if len(letter) != 1 or not letter.isalpha() or letter in DIE_VOWELS:
                raise UserError.at(card.location, f"a consonant card must carry one letter other than A, E, I, O, U; "
                                                  f"got {letter!r}")
            if letter in points and points[letter] != int(card["points"]):
                raise UserError.at(card.location, f"two {letter.upper()} cards with different points")
            points[letter] = int(card["points"])
            totals[letter] += card.count
        self.points = points
        self.letters = tuple(sorted(totals))
        self.totals = dict(totals)
        self.deck_cards = sum(totals.values())
        dice = []
        for die in game.component(params.dice).cards:
            faces = []
            for face in die["faces"]:
                face = str(face).lower()
                if face == "wild":
                    faces.append(WILD)
                elif face in DIE_VOWELS:
                    faces.append(face)
                else:
                    raise UserError.at(die.location, f"a vowel die face must be A, E, I, O, U or WILD, got {face!r}")
            for _ in range(die.count):
                dice.append(tuple(faces))
        if not dice:
            raise UserError.at(game.location, "no vowel dice")
        self.dice = tuple(dice)
        self.die_outcomes = tuple(
            tuple((("die", face), n / len(faces)) for face, n in sorted(Counter(faces).items())) for faces in dice)
        self.draw_actions = {letter: ("draw", letter) for letter in self.letters}
        self.finder, self.skeleton, self.words = _finder(game)
        steps = params.steps
        normal = NormalDist()
        self.quantiles = tuple(math.exp(params.spread * normal.inv_cdf((j + 0.5) / steps)) for j in range(steps))
        self.time_outcomes = tuple((("time", j), 1.0 / steps) for j in range(steps))
        self._subs: dict[tuple, tuple] = {}
        self._sub_best: dict[tuple, dict[str, tuple]] = {}
        self._misses = 0
        self._choices: dict[tuple, tuple] = {}
        self._roll_keys: dict[tuple, tuple[str, int]] = {}
        self._info: dict[str, tuple] = {}
        self._hand_subs: dict[str, tuple[str, ...]] = {}
        self._hands: dict[tuple, dict] = {}
        self._rows: dict[tuple, tuple] = {}
        self._race_tables: dict[int, tuple[dict, dict]] = {}
        self._crc: dict[str, float] = {}

    # -- words a hand and a roll make ---------------------------------------
    def build(self, word: str, hand: list[str] | tuple[str, ...], roll: tuple[str, ...]) -> tuple[tuple[str, ...], int] | None:
        """(cards used, letter points) if `word` is in the dictionary and the hand and roll make it, else None.

        Consonants come from cards; every a/e/i/o/u from the dice (a rolled
        vowel any number of times, 1 point each; a WILD names one vowel, 0 points
        per use). Y comes from a Y card, or, with no Y card in hand, from a
        WILD set to Y (one Y then, as in the skeleton tables).
        """
        if word not in self.words:
            return None
        return self.letters_value(word, hand, roll)

    def letters_value(self, word: str, hand, roll) -> tuple[tuple[str, ...], int] | None:
        """Like build() but without the dictionary check (a bluff's worth is counted the same way)."""
        info = self._info.get(word)
        if info is None:
            vowels = Counter(c for c in word if c in DIE_VOWELS)
            info = self._info[word] = (tuple(c for c in word if c not in DIE_VOWELS), frozenset(vowels),
                                       tuple(vowels.items()))
            if len(self._info) > 200_000:
                self._info.clear()
        consonants, vowels, counts = info
        rolled, wilds = self.roll_key(tuple(roll))
        left = list(hand)
        cards = []
        y_wild = False
        for c in consonants:
            if c in left:
                left.remove(c)
                cards.append(c)
            elif c == "y" and wilds and not y_wild and "y" not in hand:
                y_wild = True
            else:
                return None
        if not cards or len(word) < self.p.min_length:
            return None
        if not vowels and not y_wild:
            return None  # a word uses one or more of the rolled vowels
        if len(vowels.difference(rolled)) + y_wild > wilds:
            return None
        p = self.p
        value = sum(self.points[c] for c in cards) + (p.wild_points if y_wild else 0)
        for vowel, n in counts:
            value += n * (p.vowel_points if vowel in rolled else p.wild_points)
        cards.sort()
        return tuple(cards), value

    def _sub_rows(self, sub: str, rolled: str, wilds: int, y_wild: bool) -> tuple:
        """Words whose cards are exactly `sub`, for one roll, best first: ((points, letters, word), ...).
        With y_wild (a WILD rolled, no Y card in hand), also the words whose one Y is a WILD set to Y."""
        cache_key = (sub, rolled, wilds, y_wild)
        rows = self._subs.get(cache_key)
        if rows is None:
            p = self.p
            base = sum(self.points[c] for c in sub)
            found = []
            for skeleton, y in ((sub, False), (key(sub + "y"), True)) if y_wild else ((sub, False),):
                for word, free in self.skeleton.get(skeleton, ()):
                    if len(free.difference(rolled)) + y > wilds or not (free or y):
                        continue
                    value = base + (p.wild_points * word.count("y") if y else 0)
                    for c in word:
                        if c in DIE_VOWELS:
                            value += p.vowel_points if c in rolled else p.wild_points
                    found.append((value, len(word), word))
            found.sort(key=lambda row: (-row[0], -row[1], row[2]))
            rows = self._subs[cache_key] = tuple(found)
            if len(self._subs) > 400_000:
                self._subs.clear()
        return rows

    def _best_of_sub(self, sub: str, rolled: str, wilds: int, y_wild: bool, coverage: float) -> tuple:
        """((letters, points, word), ...): the best word of each length among _sub_rows that the player knows."""
        seen: dict[int, tuple[int, int, str]] = {}
        for value, letters, word in self._sub_rows(sub, rolled, wilds, y_wild):
            if letters not in seen and (coverage >= 1.0 or self.known(word, coverage)):
                seen[letters] = (letters, value, word)
        return tuple(seen.values())

    def roll_key(self, roll: tuple[str, ...]) -> tuple[str, int]:
        """(the rolled vowels, sorted, without repeats; how many dice show WILD)."""
        found = self._roll_keys.get(roll)
        if found is None:
            found = self._roll_keys[roll] = ("".join(sorted({f for f in roll if f != WILD})),
                                             sum(1 for f in roll if f == WILD))
        return found

    def _subs_of(self, hand_key: str) -> tuple[str, ...]:
        subs = self._hand_subs.get(hand_key)
        if subs is None:
            subs = self._hand_subs[hand_key] = tuple(s for s in sub_multisets(hand_key) if s)
            if len(self._hand_subs) > 200_000:
                self._hand_subs.clear()
        return subs

    def best_by_length(self, hand_key: str, roll: tuple[str, ...], coverage: float = 1.0) -> dict[int, tuple[int, str]]:
        """For each word length, the best (points incl. the all-five bonus, word) the hand and roll make,
        among the words a player with this vocabulary coverage knows."""
        rolled, wilds = self.roll_key(roll)
        cache_key = (hand_key, rolled, wilds, coverage)
        best = self._hands.get(cache_key)
        if best is None:
            best = {}
            y_wild = bool(wilds) and "y" not in hand_key
            table_key = (rolled, wilds, y_wild, coverage)
            table = self._sub_best.get(table_key)
            if table is None:
                table = self._sub_best[table_key] = {}
            for sub in self._subs_of(hand_key):
                rows = table.get(sub)
                if rows is None:
                    rows = table[sub] = self._best_of_sub(sub, rolled, wilds, y_wild, coverage)
                    self._misses += 1
                for letters, value, word in rows:
                    old = best.get(letters)
                    if old is None or value > old[0]:
                        best[letters] = (value, word)
            if len(hand_key) == self.p.hand_size:  # the whole hand: +10
                bonus = self.p.all_cards_bonus
                for letters, value, word in table[hand_key]:
                    old = best[letters]
                    if value + bonus > old[0] or value + bonus == old[0] and word < old[1]:
                        best[letters] = (value + bonus, word)
            self._hands[cache_key] = best
            if len(self._hands) > 300_000 or self._misses > 1_000_000:
                self._hands.clear()
                self._sub_best.clear()
                self._subs.clear()
                self._misses = 0
        return best

    def choices(self, hand_key: str, roll: tuple[str, ...], coverage: float, players: int) -> tuple[str, str] | None:
        """(the word with the best expected score in the race, the quickest word to find), or None."""
        rolled, wilds = self.roll_key(roll)
        cache_key = (hand_key, rolled, wilds, coverage, players)
        found = self._choices.get(cache_key)
        if found is None:
            options = self.best_by_length(hand_key, roll, coverage)
            found = self._choices[cache_key] = self.pick(options, players) if options else ()
            if len(self._choices) > 300_000:
                self._choices.clear()
        return found or None

    def pick(self, options: dict[int, tuple[int, str]], players: int) -> tuple[str, str]:
        last, first = self.race_table(players)
        p = self.p
        best, best_ev = "", -math.inf
        for letters, (value, word) in sorted(options.items()):
            pl = last.get(letters, 1.0)
            bonus = p.first_word_bonus * first.get(letters, 0.0) if letters >= p.first_word_min_length else 0.0
            ev = (1.0 - pl) * (value + bonus) + pl * p.last_player_points
            if ev > best_ev:
                best, best_ev = word, ev
        return best, options[min(options)][1]

    def all_words(self, hand_key: str, roll: tuple[str, ...]) -> tuple[tuple[int, int, str], ...]:
        """Every (points incl. the all-five bonus, letters, word) the hand and roll make, best first."""
        rolled, wilds = self.roll_key(roll)
        cache_key = (hand_key, rolled, wilds)
        rows = self._rows.get(cache_key)
        if rows is None:
            found = []
            bonus = self.p.all_cards_bonus if len(hand_key) == self.p.hand_size else 0
            y_wild = bool(wilds) and "y" not in hand_key
            for sub in self._subs_of(hand_key):
                extra = bonus if len(sub) == len(hand_key) else 0
                found.extend((v + extra, n, w) for v, n, w in self._sub_rows(sub, rolled, wilds, y_wild))
            found.sort(key=lambda row: (-row[0], -row[1], row[2]))
            rows = self._rows[cache_key] = tuple(found)
            if len(self._rows) > 100_000:
                self._rows.clear()
        return rows

    def known(self, word: str, coverage: float) -> bool:
        """A fixed vocabulary per coverage: the word's hash falls under it."""
        h = self._crc.get(word)
        if h is None:
            h = self._crc[word] = zlib.crc32(word.encode()) / 2**32
        return h < coverage

    def bluff_word(self, cards: str, roll: tuple[str, ...]) -> str:
        """The string a bluff with these cards claims: first card, a vowel, the other cards."""
        rolled, _ = self.roll_key(roll)
        vowel = rolled[0] if rolled else "e"
        return cards[0] + vowel + cards[1:]

    # -- the race model, as the heuristic players estimate it -----------------
    def race_table(self, players: int) -> tuple[dict[int, float], dict[int, float]]:
        """For a target of each length: (chance of being last, chance of placing the first 3+ letter word),
        against players - 1 opponents whose targets follow OPPONENT_TARGETS."""
        if players not in self._race_tables:
            p, q = self.p, self.quantiles
            shares = OPPONENT_TARGETS.get(players) or OPPONENT_TARGETS[max(OPPONENT_TARGETS)]
            total = sum(shares.values())
            opponents = sorted((p.seconds(n) * x, share / total, n >= p.first_word_min_length)
                               for n, share in shares.items() for x in q)
            share = 1.0 / len(q)
            last, first = {}, {}
            for letters in range(p.min_length, 16):
                pl = pf = 0.0
                for x in q:
                    t = p.seconds(letters) * x
                    before = before3 = 0.0
                    for time, weight, counts in opponents:
                        if time > t:
                            break
                        w = weight * share * (0.5 if time == t else 1.0)
                        before += w
                        if counts:
                            before3 += w
                    pl += before ** (players - 1)
                    pf += (1.0 - before3) ** (players - 1)
                last[letters] = pl / len(q)
                first[letters] = pf / len(q)
            self._race_tables[players] = (last, first)
        return self._race_tables[players]


_DEFINITIONS: dict[tuple, tuple[Game, Definitions]] = {}


def definitions(game: Game, options: dict[str, Any] | None = None) -> Definitions:
    params = _params(game, options or {})
    cache_key = (id(game), params)
    entry = _DEFINITIONS.get(cache_key)
    if entry is None or entry[0] is not game:
        entry = _DEFINITIONS[cache_key] = (game, Definitions(game, params))
    return entry[1]


# -- the state -----------------------------------------------------------------

@dataclass
class Placed:
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


@dataclass
class RoundLog:
    number: int
    starter: int
    roll: tuple[str, ...]
    placed: list[Placed]
    last: list[int]
    rechosen: int = 0


class View:
    """What one seat may see: its own hand, the dice, the words placed, the scores and card counts."""

    __slots__ = ("seat", "players", "hand", "hand_key", "roll", "phase", "challenges", "_state")

    def __init__(self, state: "WiseState", seat: int):
        self.seat, self.players, self._state = seat, state.players, state
        self.hand = tuple(state.hands[seat])
        self.hand_key = "".join(sorted(self.hand))
        self.roll = tuple(state.roll)
        self.phase = state.phase
        self.challenges = state.p.challenges

    @property
    def placed(self) -> tuple[tuple[int, str], ...]:
        """(seat, word) of the words placed this round, in order."""
        return tuple((p.seat, p.word) for p in self._state.placed)

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
            raise UserError.at(Location(Path("--option speeds")),
                               f"one speed per seat ({players}), got {len(self.p.speeds)}")
        self.players = players
        self.turns = 0
        self.deck = dict(defs.totals)
        self.deck_size = defs.deck_cards
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.discard: Counter = Counter()
        self.scores = [0] * players
        self.ledger: list[tuple[int, int, int, str]] = []  # (round, seat, points, why)
        self.logs: list[RoundLog] = []
        self.starter = 0
        self.roll: list[str] = []
        self.ended_by = ""
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
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase in (CHOOSE, RECHOOSE, CHALLENGE):
            return self._actor
        return CHANCE

    def chance_outcomes(self):
        phase = self.phase
        if phase == DEAL:
            size, actions = self.deck_size, self.defs.draw_actions
            return [(actions[letter], n / size) for letter, n in self.deck.items() if n]
        if phase == ROLL:
            return self.defs.die_outcomes[len(self.roll)]
        if phase == TIME:
            return self.defs.time_outcomes
        if phase == TIEBREAK:
            share = 1.0 / len(self._tied)
            return [(("first", seat), share) for seat in self._tied]
        raise IllegalAction(f"no chance event in the {PHASE_NAMES[phase]} phase")

    def legal_actions(self):
        phase = self.phase
        if phase in (DEAL, ROLL, TIME, TIEBREAK):
            return [action for action, _ in self.chance_outcomes()]
        if phase in (CHOOSE, RECHOOSE):
            hand_key = "".join(sorted(self.hands[self._actor]))
            actions = [PASS]
            actions.extend(("word", w) for _, _, w in sorted(self.defs.all_words(hand_key, tuple(self.roll)),
                                                             key=lambda row: row[2]) if w not in self.taken)
            if self.p.challenges:
                actions.extend(("bluff", sub) for sub in sub_multisets(hand_key)
                               if sub and len(sub) + 1 >= self.p.min_length)
            return actions
        if phase == CHALLENGE:
            others = [p.seat for p in self.placed if p.seat != self._actor]
            return [("challenge", combo) for size in range(len(others) + 1)
                    for combo in combinations(sorted(others), size)]
        return []

    def chance_seat(self) -> int | None:
        """The seat a chance event is about: who draws (deal, refill) or whose search is timed."""
        if self.phase == DEAL:
            return self._drawer
        if self.phase == TIME:
            return self._queue[0]
        return None

    def observation(self, seat: int) -> View:
        return View(self, seat)

    def returns(self) -> list[float]:
        return [float(s) for s in self.scores]

    def apply(self, action) -> None:
        phase = self.phase
        if phase == DEAL:
            self._apply_draw(action)
        elif phase == ROLL:
            self._apply_die(action)
        elif phase in (CHOOSE, RECHOOSE):
            self._apply_target(action)
        elif phase == TIME:
            self._apply_time(action)
        elif phase == TIEBREAK:
            if not (isinstance(action, tuple) and len(action) == 2 and action[0] == "first" and action[1] in self._tied):
                raise IllegalAction(f"not a tie-break among {self._tied}: {action!r}")
            if self._place_or_rechoose(action[1]):
                self._race()
        elif phase == CHALLENGE:
            self._apply_challenge(action)
        else:
            raise IllegalAction("the game is over")

    # -- dealing and refilling ---------------------------------------------------
    def _next_drawer(self) -> int | None:
        """The next seat to draw, one card at a time clockwise from the starter, or None when done."""
        if not self.deck_size:
            return None
        size, hands, n = self.p.hand_size, self.hands, self.players
        for i in range(n):
            seat = (self._draw_from + i) % n
            if len(hands[seat]) < size:
                return seat
        return None

    def _apply_draw(self, action) -> None:
        try:
            kind, letter = action
            left = self.deck[letter]
        except (TypeError, ValueError, KeyError):
            raise IllegalAction(f"not a card draw: {action!r}") from None
        if kind != "draw" or not left:
            raise IllegalAction(f"no {letter!r} card left to draw")
        self.deck[letter] = left - 1
        self.deck_size -= 1
        seat = self._drawer
        self.hands[seat].append(letter)
        self._draw_from = (seat + 1) % self.players
        self._drawer = self._next_drawer()
        if self._drawer is None:
            self._after_refill()

    def _after_refill(self) -> None:
        if any(not hand for hand in self.hands):
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

    def _clockwise(self, start: int) -> list[int]:
        return [(start + i) % self.players for i in range(self.players)]

    def _apply_die(self, action) -> None:
        faces = self.defs.dice[len(self.roll)]
        if not (isinstance(action, tuple) and len(action) == 2 and action[0] == "die" and action[1] in faces):
            raise IllegalAction(f"not a face of die {len(self.roll) + 1}: {action!r}")
        self.roll.append(action[1])
        if len(self.roll) == len(self.defs.dice):
            self._reset_round()
            self._queue = self._clockwise(self.starter)
            self.phase = CHOOSE
            self._actor = self._queue.pop(0)

    def _target(self, seat: int, action) -> tuple[str, tuple[str, ...], int, bool, bool] | None:
        """(word, cards, letter points, valid, bluff) for a legal target, None for a pass."""
        if action == PASS:
            return None
        if not (isinstance(action, tuple) and len(action) == 2 and isinstance(action[1], str)):
            raise IllegalAction(f"not a word, bluff or pass: {action!r}")
        kind, text = action
        hand, roll = self.hands[seat], tuple(self.roll)
        if kind == "word":
            built = self.defs.build(text, hand, roll)
            if built is None:
                raise IllegalAction(f"seat {seat} cannot make {text!r} from {''.join(sorted(hand))} and {roll}")
            if text in self.taken:
                raise IllegalAction(f"{text!r} was already played this round")
            return text, built[0], built[1], True, False
        if kind == "bluff" and self.p.challenges:
            if not text or text != "".join(sorted(text)) or Counter(text) - Counter(hand) or len(text) + 1 < self.p.min_length:
                raise IllegalAction(f"seat {seat} cannot bluff with cards {text!r}")
            word = self.defs.bluff_word(text, roll)
            _, value = self.defs.letters_value(word, list(text), roll)
            valid = self.defs.build(word, hand, roll) is not None
            return word, tuple(text), value, valid, True
        raise IllegalAction(f"not a legal target: {action!r}")

    def _apply_target(self, action) -> None:
        seat = self._actor
        target = self._target(seat, action)
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
        self.targets[seat] = action
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

    def _apply_time(self, action) -> None:
        if not (isinstance(action, tuple) and len(action) == 2 and action[0] == "time"
                and isinstance(action[1], int) and 0 <= action[1] < self.p.steps):
            raise IllegalAction(f"not a search time: {action!r}")
        seat = self._queue.pop(0)
        word = self.pending[seat][0]
        speed = self.p.speeds[seat] if self.p.speeds else 1.0
        self.times[seat] += speed * self.p.seconds(len(word)) * self.defs.quantiles[action[1]]
        if not self._queue:
            self._race()

    def _race(self) -> None:
        """Place words in time order until the round's last player is known."""
        while True:
            racing = [s for s in range(self.players) if s not in self.placed_seats and s not in self.passed]
            if not racing or (len(racing) == 1 and not self.passed):
                self.last = sorted(racing if not self.passed else self.passed)
                self._end_race()
                return
            soonest = min(self.times[s] for s in racing)
            tied = [s for s in self._clockwise(self.starter) if s in racing and self.times[s] == soonest]
            if len(tied) > 1:
                self._tied = tied
                self.phase = TIEBREAK
                return
            if not self._place_or_rechoose(tied[0]):
                return

    def _place_or_rechoose(self, seat: int) -> bool:
        """Place the seat's word; False when it was taken and the seat must look again."""
        word, cards, value, valid, bluff = self.pending[seat]
        if word in self.taken:
            self._actor = seat
            self.phase = RECHOOSE
            return False
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        placed = Placed(seat, word, cards, value, valid, bluff)
        if not self.first_bonus_given and len(word) >= self.p.first_word_min_length:
            placed.first_bonus = self.p.first_word_bonus
            self.first_bonus_given = True
        if len(cards) == self.p.hand_size:
            placed.all_bonus = self.p.all_cards_bonus
        self.placed.append(placed)
        self.placed_seats.add(seat)
        self.taken.add(word)
        return True

    def _end_race(self) -> None:
        if self.p.challenges and self.placed:
            self._queue = self._clockwise(self.starter)
            self.phase = CHALLENGE
            self._actor = self._queue.pop(0)
        else:
            self._score_round()

    def _apply_challenge(self, action) -> None:
        seat = self._actor
        others = {p.seat for p in self.placed if p.seat != seat}
        if not (isinstance(action, tuple) and len(action) == 2 and action[0] == "challenge"
                and isinstance(action[1], tuple) and set(action[1]) <= others
                and list(action[1]) == sorted(set(action[1]))):
            raise IllegalAction(f"seat {seat} cannot challenge {action!r}")
        self.flags[seat] = action[1]
        if self._queue:
            self._actor = self._queue.pop(0)
            return
        for placed in self.placed:
            for challenger in self._clockwise(placed.seat)[1:]:
                if placed.seat in self.flags.get(challenger, ()):
                    placed.challenger = challenger
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
            self.discard.update(placed.cards)
            played = self.played_letters
            for c in set(placed.cards):
                played.setdefault(c, set()).add(placed.seat)
        if self.placed:
            for seat in self.last:
                self._score(seat, self.p.last_player_points, "last", number)
        else:
            self.last = []
        self.logs.append(RoundLog(number, self.starter, tuple(self.roll), list(self.placed), list(self.last), self.rechosen))
        if standing:
            self.starter = standing[0].seat
        self.turns = number
        self.placed = []  # the table is cleared (the log keeps the words)
        self.placed_seats = set()
        if not self.deck_size and any(not hand for hand in self.hands):
            self._finish("deck empty and a player out of cards")
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

    # -- invariants --------------------------------------------------------------------
    def check_invariants(self) -> None:
        defs = self.defs
        # every consonant card is in exactly one place: deck, a hand, the table, the discard pile
        where: Counter = Counter()
        for letter, n in self.deck.items():
            if n < 0:
                raise InvariantError(f"{n} {letter} cards in the deck")
            where[letter] += n
        if sum(self.deck.values()) != self.deck_size:
            raise InvariantError(f"deck size {self.deck_size} but {sum(self.deck.values())} cards in it")
        for seat, hand in enumerate(self.hands):
            if len(hand) > self.p.hand_size:
                raise InvariantError(f"seat {seat} holds {len(hand)} cards")
            where.update(hand)
        for placed in self.placed:
            where.update(placed.cards)
        where.update(self.discard)
        if where != Counter(defs.totals):
            lost = Counter(defs.totals) - where
            extra = where - Counter(defs.totals)
            problems = ([f"lost {dict(lost)}"] if lost else []) + ([f"duplicated {dict(extra)}"] if extra else [])
            raise InvariantError("cards " + " and ".join(problems) + " (deck, hands, table and discard pile checked)")
        # scores change only by the rules: replay the round logs
        expected = [0] * self.players
        for log in self.logs:
            self._check_round(log, expected)
        if self.phase == OVER:
            for seat, hand in enumerate(self.hands):
                expected[seat] -= sum(defs.points[c] for c in hand)
        if expected != self.scores:
            raise InvariantError(f"scores {self.scores} but the rules give {expected}")
        if [sum(d for _, s, d, _ in self.ledger if s == seat) for seat in range(self.players)] != self.scores:
            raise InvariantError("scores disagree with the score ledger")

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
        words = letters = first_bonus = all_bonus = challenges = upheld = bluffs = lasts = passes = rechosen = 0
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


# -- players ---------------------------------------------------------------------------

class WiseHeuristic(Player):
    """Goes for the word with the best expected score in the race.

    skill 1: knows every dictionary word and weighs each word length's value
    against the chance of being last (and of taking the +3 first-word bonus).
    Lower skill: knows a smaller vocabulary (35% + 65% * skill of the words),
    and with probability 1 - skill grabs the first word it finds (the shortest)
    instead. With no word it knows, it risks a two-card non-word with
    probability `bluff` (when challenges are on), else passes. It challenges a
    non-word with probability 0.5 + 0.5 * skill, and a real word it does not
    know with probability 0.1 * (1 - skill).
    """

    def __init__(self, skill: float = 1.0, bluff: float = 0.1):
        self.skill = min(1.0, max(0.0, float(skill)))
        self.coverage = 0.35 + 0.65 * self.skill
        self.bluff = bluff
        self.name = f"heuristic-{self.skill:g}"

    def act(self, state: WiseState, seat: int, rng) -> Any:
        view = state.observation(seat)
        if view.phase in (CHOOSE, RECHOOSE):
            return self._choose(state.defs, view, rng)
        if view.phase == CHALLENGE:
            return self._challenge(state.defs, view, rng)
        raise IllegalAction(f"seat {seat} has nothing to decide in the {PHASE_NAMES[view.phase]} phase")

    def _choose(self, defs: Definitions, view: View, rng) -> Any:
        if view.phase == RECHOOSE:  # looking again after losing a word: the best one still free
            taken = view.taken
            options: dict[int, tuple[int, str]] = {}
            for value, letters, word in defs.all_words(view.hand_key, view.roll):
                if word not in taken and letters not in options and defs.known(word, self.coverage):
                    options[letters] = (value, word)
            found = defs.pick(options, view.players) if options else None
        else:
            found = defs.choices(view.hand_key, view.roll, self.coverage, view.players)
        if not found:
            if view.challenges and self.bluff and view.hand and rng.random() < self.bluff:
                cheapest = sorted(view.hand, key=lambda c: (defs.points[c], c))[:2]
                return ("bluff", "".join(sorted(cheapest)))
            return PASS
        best, quickest = found
        if self.skill < 1.0 and rng.random() >= self.skill:
            return ("word", quickest)
        return ("word", best)

    def _challenge(self, defs: Definitions, view: View, rng) -> Any:
        flagged = []
        for seat, word in view.placed:
            if seat == view.seat:
                continue
            if word not in defs.words:
                if rng.random() < 0.5 + 0.5 * self.skill:
                    flagged.append(seat)
            elif self.skill < 1.0 and not defs.known(word, self.coverage) and rng.random() < 0.1 * (1.0 - self.skill):
                flagged.append(seat)
        return ("challenge", tuple(sorted(flagged)))


class WiseRules(Rules):
    id = "word-to-the-wise"
    length_unit = "rounds"
    turn_cap = 200
    seconds_per_turn = 60.0  # a race of 5-20 s, then saying the words, scoring and refilling
    settings = WiseSettings

    def new_state(self, game: Game, players: int, options: dict[str, Any] | None = None) -> WiseState:
        return WiseState(definitions(game, options), players)

    def heuristic_player(self, skill: float = 1.0) -> Player:
        return WiseHeuristic(skill)


RULES = WiseRules()
