"""The consonant cards, the vowel dice and the words, read once per game from the YAML, with the
word tables the players share (the dictionary goes through generator/words)."""

from __future__ import annotations

import math
import zlib
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterator, Sequence, Set
from itertools import combinations
from operator import itemgetter
from statistics import NormalDist
from typing import Any

from spellpress.errors import UserError
from spellpress.model.game import Game
from spellpress.model.memo import memo_on
from spellpress.rules.chance import outcome_table
from spellpress.rules.settings import options_key
from spellpress.rules.word_to_the_wise.actions import Die, Draw, Time, Word
from spellpress.rules.word_to_the_wise.settings import Params, params_for
from spellpress.words.index import LetterIndex, key, sub_multisets
from spellpress.words.lazy_tables import SkeletonWords
from spellpress.words.lexicon import Lexicon, lexicon_for

DIE_VOWELS = frozenset("aeiou")
WILD = "*"  # a die showing WILD
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
_WITHOUT_DIE_VOWELS = str.maketrans("", "", "".join(DIE_VOWELS))
_VOWEL_BIT = {vowel: 1 << i for i, vowel in enumerate(sorted(DIE_VOWELS))}


# A word's die vowels counted in one number, a byte per vowel (a, e, i, o, u); the vowels of a roll as a
# mask of their bytes: how many of a word's vowel letters the dice show is then the sum of the bytes of
# (counts & mask), which one multiplication gathers in the fifth byte.
_VOWEL_BYTES = 8  # a, e, i, o, u: DIE_VOWELS in order


def _vowel_counts(word: str) -> int:
    count = word.count  # written out: this runs for every word a hand's parts look at
    return count("a") | count("e") << 8 | count("i") << 16 | count("o") << 24 | count("u") << 32


_ROLLED_MASKS = tuple(sum(0xFF << (_VOWEL_BYTES * i) for i in range(len(DIE_VOWELS)) if bits >> i & 1)
                      for bits in range(1 << len(DIE_VOWELS)))  # by a roll's vowel bits
_BYTE_SUM, _SUM_SHIFT = 0x0101010101, _VOWEL_BYTES * 4


def _rolled_letters(counts: int, mask: int) -> int:
    """How many of a word's vowel letters are rolled vowels (counts: _vowel_counts; mask: _ROLLED_MASKS)."""
    return ((counts & mask) * _BYTE_SUM >> _SUM_SHIFT) & 0xFF


_ROLLED_BITS = {"".join(vowel for vowel, bit in _VOWEL_BIT.items() if bits & bit): bits
                for bits in range(1 << len(DIE_VOWELS))}  # a roll_key's rolled vowels (sorted) -> their bits


def _vowel_bits(vowels) -> int:
    """A set of die vowels as bits."""
    bits = 0
    for vowel in vowels:
        bits |= _VOWEL_BIT[vowel]
    return bits


UNIT_BASE = 0xE000  # a digraph card (SCH, CH, LL) stands in hands and keys as one private-use character


def spelt_apart(word: str, units: Sequence[str]) -> str | None:
    """The word with each of these digraphs taken out where it stands (longest first, leftmost; "_" in
    its place), or None if the word does not spell them all at letters of their own: a TH card makes the
    TH of "the", not the H and T of "hat"."""
    for unit in sorted(units, key=len, reverse=True):
        at = word.find(unit)
        if at < 0:
            return None
        word = word[:at] + "_" + word[at + len(unit):]
    return word


def holds_units(word: str, units: Sequence[str]) -> bool:
    return spelt_apart(word, units) is not None


_WORD = itemgetter(2)
_POINTS_AND_LENGTH = itemgetter(0, 1)
MISSING = object()  # not worked out yet (None is an answer)
_TABLES: dict[Lexicon, tuple[dict, SkeletonWords]] = {}


def _word_tables(game: Game) -> tuple[dict, SkeletonWords]:
    """(the words by consonant skeleton, the words as a set), made once per process for each distinct
    `words:` settings (--vocabulary included). Dice vowels are reusable letters: words keyed by the
    letters the cards must supply, one table for every roll (the roll filters its vowels). The set
    looks a word up in that table: neither reads the word list when the table is on disk."""
    lexicon = lexicon_for(game.spec.words)
    if lexicon not in _TABLES:
        index = LetterIndex(lexicon=lexicon)
        _TABLES[lexicon] = (index.skeleton(DIE_VOWELS), index.skeleton_words(DIE_VOWELS))
    return _TABLES[lexicon]


class Definitions:
    """The loaded cards, dice and rule numbers, with the word caches players share."""

    def __init__(self, game: Game, params: Params):
        self.game, self.p = game, params
        deck = game.component(params.deck)
        points: dict[str, int] = {}
        totals: Counter = Counter()
        self.component = deck.id
        self.card_ids: dict[str, str] = {}  # letter -> the id of the printed card it is (the first of its letter)
        self.units: dict[str, str] = {}  # a digraph card's character -> its letters ("\ue000" -> "sch")
        for card in deck.cards:
            letter = str(card["letter"]).lower()
            if not letter.isalpha() or set(letter) & DIE_VOWELS:
                raise UserError.at(card.location, f"a consonant card must carry letters other than A, E, I, O, U "
                                                  f"(one, or a digraph such as SCH); got {letter!r}")
            if len(letter) > 1:
                unit = next((c for c, text in self.units.items() if text == letter), chr(UNIT_BASE + len(self.units)))
                self.units[unit], letter = letter, unit
            self.card_ids.setdefault(letter, card.id)
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
            tuple((Die("die", face), n / len(faces)) for face, n in sorted(Counter(faces).items())) for faces in dice)
        self.draw_actions = {letter: Draw("draw", letter) for letter in self.letters}
        self.deck_letters = tuple(self.totals)  # the order of a deck's letters (a dict from totals)
        self.deck_draws = tuple(self.draw_actions[letter] for letter in self.totals)  # in that order
        self.skeleton, self._words = _word_tables(game)
        steps = params.steps
        normal = NormalDist()
        self.quantiles = tuple(math.exp(params.spread * normal.inv_cdf((j + 0.5) / steps)) for j in range(steps))
        self.time_outcomes = tuple((Time("time", j), 1.0 / steps) for j in range(steps))
        # draw_chance's tables for the dice and the search times (None: one outcome, no number drawn)
        self.die_sums = tuple(outcome_table(outcomes) if len(outcomes) > 1 else None for outcomes in self.die_outcomes)
        self.time_sums = outcome_table(self.time_outcomes) if steps > 1 else None
        # a search's seconds at each step of the model, for each length of word (seats of equal speed)
        self.step_seconds: dict[int, tuple[float, ...]] = {}
        self.time_step = {action: j for j, (action, _) in enumerate(self.time_outcomes)}  # ("time", j) -> j
        self.drawn_letter = {action: letter for letter, action in self.draw_actions.items()}  # ("draw", x) -> x
        self._subs: dict[tuple, tuple] = {}
        self._sub_best: dict[tuple, list[Any]] = {}  # (roll, coverage) -> part number -> _best_of_sub (None: not yet)
        self._part_numbers: dict[str, int] = {}
        self._wordy_parts: tuple[dict[str, int], dict[str, int]] = ({}, {})  # by y_wild
        self._parts: list[str] = []
        self._misses = 0
        self._choices: dict[tuple, dict[str, tuple]] = {}  # (roll, coverage, players) -> hand -> choice
        self._choices_kept = 0
        self._choices_by_roll: dict[tuple, dict[str, tuple]] = {}  # (roll, coverage, players) -> a _choices table
        self._roll_keys: dict[tuple, tuple[str, int]] = {}
        self._info: dict[str, tuple] = {}
        self._word_counts: dict[tuple, dict[str, int]] = {}  # (roll, y_wild) -> hand -> its words
        self._counts_kept = 0
        self._words_of: dict[tuple[str, bool], tuple] = {}
        self._vowel_set_counts: dict[str, tuple] = {}
        self._vowel_set_bits: dict[frozenset, int] = {}
        self._sub_counts: dict[tuple, list[Any]] = {}  # (roll, y_wild) -> part number -> its words (None: not yet)
        self._hand_subs: dict[str, tuple[str, ...]] = {}
        self._word_parts: dict[tuple[str, bool], tuple[int, ...]] = {}
        self._bluffs: dict[str, int] = {}
        self._rows: dict[tuple, tuple] = {}
        self._race_tables: dict[int, tuple[dict, dict]] = {}
        self._odds: dict[int, dict] = {}
        self._crc: dict[str, float] = {}
        self._seconds: dict[int, float] = {}
        self._word_actions: dict[str, Word] = {}

    @property
    def words(self) -> Set[str]:
        """The dictionary, as a set: a set of every word once a run is under way, until then one that
        looks each word up in the skeleton table (SkeletonWords: no set of every word for a first game)."""
        return self._words.whole or self._words

    # -- words a hand and a roll make ---------------------------------------
    def build(self, word: str, hand: Sequence[str], roll: tuple[str, ...]) -> tuple[tuple[str, ...], int] | None:
        """(cards used, letter points) if `word` is in the dictionary and the hand and roll make it, else None.

        Consonants come from cards; every a/e/i/o/u from the dice (a rolled
        vowel any number of times, 1 point each; a WILD names one vowel, 0 points
        per use). Y comes from a Y card, or, with no Y card in hand, from a
        WILD set to Y (one Y then, as in the skeleton tables).
        """
        if word not in self.words:
            return None
        return self.letters_value(word, hand, roll)

    def letters_value(self, word: str, hand: Sequence[str], roll: Sequence[str]) -> tuple[tuple[str, ...], int] | None:
        """Like build() but without the dictionary check (a bluff's worth is counted the same way)."""
        if self.units and any(card in self.units for card in hand):
            return self._unit_value(word, hand, roll)
        cards, y_cards, ys, worths = self._info.get(word) or self._word_info(word)
        rolled, wilds = self.roll_key(tuple(roll))
        y_wild = False
        if ys and "y" not in hand:  # with no Y card, one WILD may be the word's only Y
            if ys > 1 or not wilds:
                return None
            cards, y_wild = y_cards, True
        left = list(hand)
        for c in cards:
            if c not in left:
                return None
            left.remove(c)
        worth = worths.get((rolled, wilds, y_wild), MISSING)
        if worth is MISSING:
            worth = worths[rolled, wilds, y_wild] = self._word_worth(word, cards, rolled, wilds, y_wild)
        return worth

    def _unit_value(self, word: str, hand: Sequence[str], roll: Sequence[str]) -> tuple[tuple[str, ...], int] | None:
        """letters_value for a hand with digraph cards: the best of the ways its cards spell the word
        (each digraph card used or not where the word spells it, the other consonants from single cards)."""
        rolled, wilds = self.roll_key(tuple(roll))
        units = [card for card in hand if card in self.units]
        singles = Counter(card for card in hand if card not in self.units)
        best = None
        for subset in sorted({key("".join(chosen)) for n in range(len(units) + 1) for chosen in combinations(units, n)}):
            rest = spelt_apart(word, [self.units[unit] for unit in subset])
            if rest is None:
                continue
            needed = Counter(c for c in rest if c not in DIE_VOWELS and c != "_")
            y_wild = needed["y"] > 0 and not singles["y"]
            if y_wild:  # with no Y card, one WILD may be the word's only Y
                if needed["y"] > 1 or not wilds:
                    continue
                del needed["y"]
            if needed - singles:
                continue
            worth = self._word_worth(word, tuple(sorted([*needed.elements(), *subset])), rolled, wilds, y_wild)
            if worth is not None and (best is None or worth[1] > best[1]):
                best = worth
        return best

    def _word_info(self, word: str) -> tuple[tuple[str, ...], tuple[str, ...], int, dict]:
        """(its consonant cards, sorted; the same less one Y; how many Ys; its worth for each roll, kept)."""
        cards = tuple(sorted(c for c in word if c not in DIE_VOWELS))
        y_cards = list(cards)
        if "y" in y_cards:
            y_cards.remove("y")
        info = self._info[word] = (cards, tuple(y_cards), cards.count("y"), {})
        if len(self._info) > 200_000:
            self._info.clear()
        return info

    def _word_worth(self, word: str, cards: tuple[str, ...], rolled: str, wilds: int,
                    y_wild: bool) -> tuple[tuple[str, ...], int] | None:
        """(cards, letter points) of a word whose cards the hand holds, or None if the dice do not make it."""
        vowels = Counter(c for c in word if c in DIE_VOWELS)
        if not cards or len(word) < self.p.min_length:
            return None
        if not vowels and not y_wild:
            return None  # a word uses one or more of the rolled vowels
        if len(set(vowels).difference(rolled)) + y_wild > wilds:
            return None
        p = self.p
        value = sum(self.points[c] for c in cards) + (p.wild_points if y_wild else 0)
        for vowel, n in vowels.items():
            value += n * (p.vowel_points if vowel in rolled else p.wild_points)
        return cards, value

    def _sub_rows(self, sub: str, rolled: str, wilds: int, y_wild: bool) -> tuple:
        """Words whose cards are exactly `sub`, for one roll, best first: ((points, letters, word), ...).
        With y_wild (a WILD rolled, no Y card in hand), also the words whose one Y is a WILD set to Y."""
        cache_key = (sub, rolled, wilds, y_wild)
        rows = self._subs.get(cache_key)
        if rows is None:
            found = list(self._scored(sub, rolled, wilds, y_wild))
            found.sort(key=_WORD)  # best first: points, then length, then A-Z (the sorts are stable)
            found.sort(key=_POINTS_AND_LENGTH, reverse=True)
            rows = self._subs[cache_key] = tuple(found)
            if len(self._subs) > 400_000:
                self._subs.clear()
        return rows

    def _scored(self, sub: str, rolled: str, wilds: int, y_wild: bool) -> Iterator[tuple[int, int, str]]:
        """_sub_rows' (points, letters, word), in no particular order."""
        p = self.p
        rolled_bits = _ROLLED_BITS[rolled]
        mask = _ROLLED_MASKS[rolled_bits]
        for word, free, vowels, letters, points, y, counts in self._sub_words(sub, y_wild):
            # the word's die vowels the dice lack, each named by a WILD (a WILD as Y is one more)
            if (free & ~rolled_bits).bit_count() + y > wilds or not (free or y):
                continue
            # each vowel letter: vowel_points if rolled, else wild_points (a WILD names it)
            rolled_vowels = _rolled_letters(counts, mask)
            yield points + p.vowel_points * rolled_vowels + p.wild_points * (vowels - rolled_vowels), letters, word

    def _sub_words(self, sub: str, y_wild: bool) -> tuple[tuple[str, int, int, int, int, bool, int], ...]:
        """The words whose cards are exactly `sub` (with y_wild, also those whose one Y is a WILD set to
        Y): (word, its die vowels as bits, how many vowel letters, its length, the points of its cards
        and Ys, whether a WILD is its Y, its _vowel_counts) each."""
        words = self._words_of.get((sub, y_wild))
        if words is None:
            letters = self.spelt(sub)
            if y_wild:  # the words without a WILD as Y (kept), then those with one
                words = self._skeleton_words(key(letters + "y"), sub, True)
            else:
                words = self._skeleton_words(letters, sub, False)
            if letters != sub:  # digraph cards: only the words that spell each where it stands
                spelt = [self.units[card] for card in sub if card in self.units]
                words = tuple(entry for entry in words if holds_units(entry[0], spelt))
            if y_wild:
                words = self._sub_words(sub, False) + words
            self._words_of[sub, y_wild] = words
        return words

    def spelt(self, cards: str) -> str:
        """The letters of these cards, sorted (a digraph card gives its letters): the skeleton they make."""
        return key("".join(self.units.get(card, card) for card in cards)) if self.units else cards

    def _skeleton_words(self, skeleton: str, cards: str, y: bool) -> tuple[tuple[str, int, int, int, int, bool, int], ...]:
        """_sub_words' entries for the words of one skeleton, made with `cards` (and a WILD as Y if `y`)."""
        p = self.p
        points = sum(self.points[c] for c in cards)
        bits = self._vowel_set_bits
        found = []
        for word, free in self.skeleton.get(skeleton, ()):
            free_bits = bits.get(free)
            if free_bits is None:
                free_bits = bits[free] = _vowel_bits(free)
            found.append((word, free_bits, len(word) - len(word.translate(_WITHOUT_DIE_VOWELS)), len(word),
                          points + (p.wild_points * word.count("y") if y else 0), y, _vowel_counts(word)))
        return tuple(found)

    def _sub_count(self, sub: str, rolled: str, wilds: int, y_wild: bool) -> int:
        """len(_sub_rows(...)), from how many of the sub's words have each set of die vowels."""
        rolled_bits = _ROLLED_BITS[rolled]
        count = sum([words for free, words in self._vowel_sets(sub)
                     if (free & ~rolled_bits).bit_count() <= wilds and free])
        if y_wild:  # and the words whose one Y is a WILD: one WILD fewer for their vowels
            count += sum([words for free, words in self._vowel_sets(key(sub + "y"))
                          if (free & ~rolled_bits).bit_count() + 1 <= wilds])
        return count

    def _vowel_sets(self, skeleton: str) -> tuple[tuple[int, int], ...]:
        """(a set of die vowels as bits, how many of the skeleton's words have it), for each set."""
        sets = self._vowel_set_counts.get(skeleton)
        if sets is None:
            bits = self._vowel_set_bits
            found: dict[int, int] = {}
            for free, words in Counter(free for _, free in self.skeleton.get(skeleton, ())).items():
                free_bits = bits.get(free)
                if free_bits is None:
                    free_bits = bits[free] = _vowel_bits(free)
                found[free_bits] = words
            sets = self._vowel_set_counts[skeleton] = tuple(found.items())
        return sets

    def _best_of_sub(self, sub: str, rolled: str, wilds: int, y_wild: bool, coverage: float) -> tuple:
        """((letters, points, (points, word)), ...): the best word of each length among _sub_rows that the
        player knows: the first of its length in their order (most points, then A-Z)."""
        best: dict[int, tuple[int, int, tuple[int, str]]] = {}
        words = self._sub_words(sub, y_wild)
        if not words:  # no word has these cards (a third of the five-card parts)
            return ()
        # _scored's rows, worked out here (this runs for every new part of a hand and roll)
        p = self.p
        rolled_bits = _ROLLED_BITS[rolled]
        mask, vowel_points, wild_points = _ROLLED_MASKS[rolled_bits], p.vowel_points, p.wild_points
        for word, free, vowels, letters, points, y, counts in words:
            if (free & ~rolled_bits).bit_count() + y > wilds or not (free or y):
                continue
            rolled_vowels = _rolled_letters(counts, mask)
            value = points + vowel_points * rolled_vowels + wild_points * (vowels - rolled_vowels)
            old = best.get(letters)
            if (old is None or value > old[1] or value == old[1] and word < old[2][1]) and (
                    coverage >= 1.0 or self.known(word, coverage)):
                best[letters] = (letters, value, (value, word))
        return tuple(best.values())

    def roll_key(self, roll: tuple[str, ...]) -> tuple[str, int]:
        """(the rolled vowels, sorted, without repeats; how many dice show WILD)."""
        found = self._roll_keys.get(roll)
        if found is None:
            found = self._roll_keys[roll] = ("".join(sorted({f for f in roll if f != WILD})),
                                             sum(1 for f in roll if f == WILD))
        return found

    def hand_subs(self, hand_key: str) -> tuple[str, ...]:
        """The hand's sub-multisets but the empty one (sub_multisets' order)."""
        subs = self._hand_subs.get(hand_key)
        if subs is None:
            subs = self._hand_subs[hand_key] = tuple(s for s in sub_multisets(hand_key) if s)
            if len(self._hand_subs) > 200_000:
                self._hand_subs.clear()
        return subs

    def word_parts(self, hand_key: str, y_wild: bool) -> tuple[int, ...]:
        """The numbers (part_number) of hand_subs' parts that some word is made of, whatever the roll (with
        y_wild: or with a WILD as its Y), in their order: the only parts whose words a roll can make (a
        third of a five-card hand's have none)."""
        parts = self._word_parts.get((hand_key, y_wild))
        if parts is None:
            numbers = self._wordy_parts[y_wild]  # part -> its number, -1 for a part no word is made of
            found = []
            for sub in self.hand_subs(hand_key):
                number = numbers.get(sub)
                if number is None:
                    number = numbers[sub] = self.part_number(sub) if self._sub_words(sub, y_wild) else -1
                if number >= 0:
                    found.append(number)
            parts = self._word_parts[hand_key, y_wild] = tuple(found)
            if len(self._word_parts) > 200_000:
                self._word_parts.clear()
        return parts

    def part_number(self, sub: str) -> int:
        """A number of this part's own, given the first time it is asked for (self._parts[number] is the part)."""
        number = self._part_numbers.get(sub)
        if number is None:
            number = self._part_numbers[sub] = len(self._parts)
            self._parts.append(sub)
        return number

    def bluffs(self, hand_key: str) -> int:
        """How many bluffs the hand may risk: its parts long enough, with a vowel, for a word."""
        count = self._bluffs.get(hand_key)
        if count is None:
            shortest = self.p.min_length - 1
            count = self._bluffs[hand_key] = sum(1 for sub in self.hand_subs(hand_key) if len(sub) >= shortest)
            if len(self._bluffs) > 200_000:
                self._bluffs.clear()
        return count

    def best_by_length(self, hand_key: str, roll: tuple[str, ...], coverage: float = 1.0) -> dict[int, tuple[int, str]]:
        """For each word length, the best (points incl. the all-five bonus, word) the hand and roll make,
        among the words a player with this vocabulary coverage knows."""
        rolled, wilds = self.roll_key(roll)
        y_wild = bool(wilds) and "y" not in hand_key
        table_key = (rolled, wilds, y_wild, coverage)
        # a list by part number, not a dict by part: the tables grow large, and a list is read at one place
        table = self._sub_best.get(table_key)
        if table is None:
            table = self._sub_best[table_key] = []
        parts = self.word_parts(hand_key, y_wild)
        if len(table) < len(self._parts):
            table.extend([None] * (len(self._parts) - len(table)))
        best: dict[int, tuple[int, str]] = {}  # the first best word of each length, in the parts' order
        for number in parts:
            rows = table[number]
            if rows is None:
                rows = table[number] = self._best_of_sub(self._parts[number], rolled, wilds, y_wild, coverage)
                self._misses += 1
            for letters, value, pair in rows:
                old = best.get(letters)
                if old is None or value > old[0]:
                    best[letters] = pair
        # the whole hand, the last of its parts (rows: if it makes a word): +10
        if len(hand_key) == self.p.hand_size and parts and self._parts[parts[-1]] == hand_key:
            bonus = self.p.all_cards_bonus
            for letters, value, (_, word) in rows:
                old = best[letters]
                if value + bonus > old[0] or value + bonus == old[0] and word < old[1]:
                    best[letters] = (value + bonus, word)
        if self._misses > 1_000_000:  # the tables' memory stays bounded
            self._sub_best.clear()
            self._subs.clear()
            self._misses = 0
        return best

    def choices(self, hand_key: str, roll: tuple[str, ...], coverage: float, players: int) -> tuple[str, str] | None:
        """(the word with the best expected score in the race, the quickest word to find), or None."""
        by_hand = self._choices_by_roll.get((roll, coverage, players))
        if by_hand is None:  # one table for every roll of the same vowels and WILDs
            rolled, wilds = self.roll_key(roll)
            by_hand = self._choices.get((rolled, wilds, coverage, players))
            if by_hand is None:
                by_hand = self._choices[rolled, wilds, coverage, players] = {}
            self._choices_by_roll[roll, coverage, players] = by_hand
        found = by_hand.get(hand_key)
        if found is None:
            options = self.best_by_length(hand_key, roll, coverage)
            found = by_hand[hand_key] = self.pick(options, players) if options else ()
            self._choices_kept += 1
            if self._choices_kept > 300_000:
                self._choices.clear()
                self._choices_by_roll.clear()
                self._choices_kept = 0
        return found or None

    def pick(self, options: dict[int, tuple[int, str]], players: int) -> tuple[str, str]:
        odds = self._odds.get(players) or self._race_odds(players)
        best, best_ev = "", -math.inf
        for letters, (value, word) in sorted(options.items()):
            placed, bonus, last = odds.get(letters) or odds[None]
            ev = placed * (value + bonus) + last
            if ev > best_ev:
                best, best_ev = word, ev
        return best, options[min(options)][1]

    def _race_odds(self, players: int) -> dict[int | None, tuple[float, float, float]]:
        """For each word length (None: any other): (1 - chance of being last, the first-word bonus's
        expected points, the last player's expected points), as pick weighs a word of that length."""
        last, first = self.race_table(players)
        p = self.p
        odds: dict[int | None, tuple[float, float, float]] = {}
        for letters in [*last, *first, None]:
            pl = last.get(letters, 1.0) if letters is not None else 1.0
            bonus = (p.first_word_bonus * first.get(letters, 0.0)
                     if letters is not None and letters >= p.first_word_min_length else 0.0)
            odds[letters] = (1.0 - pl, bonus, pl * p.last_player_points)
        self._odds[players] = odds
        return odds

    def all_words(self, hand_key: str, roll: tuple[str, ...]) -> tuple[tuple[int, int, str], ...]:
        """Every (points incl. the all-five bonus, letters, word) the hand and roll make, best first."""
        rolled, wilds = self.roll_key(roll)
        cache_key = (hand_key, rolled, wilds)
        rows = self._rows.get(cache_key)
        if rows is None:
            found: list[tuple[int, int, str]] = []
            bonus = self.p.all_cards_bonus if len(hand_key) == self.p.hand_size else 0
            y_wild = bool(wilds) and "y" not in hand_key
            for number in self.word_parts(hand_key, y_wild):  # in any order: the sorts below decide it (no word twice)
                sub = self._parts[number]
                if len(sub) == len(hand_key):
                    found.extend((v + bonus, n, w) for v, n, w in self._scored(sub, rolled, wilds, y_wild))
                else:
                    found.extend(self._scored(sub, rolled, wilds, y_wild))
            found.sort(key=_WORD)
            found.sort(key=_POINTS_AND_LENGTH, reverse=True)
            if self.units and any(card in self.units for card in hand_key):  # a word two ways: its best way
                first: dict[str, tuple[int, int, str]] = {}
                for row in found:
                    first.setdefault(row[2], row)
                found = list(first.values())
            rows = self._rows[cache_key] = tuple(found)
            if len(self._rows) > 25_000:  # entries list every word of a hand and roll: keep their memory modest
                self._rows.clear()
        return rows

    def count_words(self, hand_key: str, roll: tuple[str, ...], taken: frozenset[str]) -> int:
        """How many of all_words' words are not in `taken`, counted part by part of the hand without
        listing them (the runner's move counts ask this at every decision of a sampled game)."""
        if self.units and any(card in self.units for card in hand_key):  # a word may be made two ways: listed once
            return sum(1 for _, _, word in self.all_words(hand_key, roll) if word not in taken)
        rolled, wilds = self.roll_key(roll)
        y_wild = bool(wilds) and "y" not in hand_key
        table_key = (rolled, wilds, y_wild)
        by_hand = self._word_counts.get(table_key)
        if by_hand is None:
            by_hand = self._word_counts[table_key] = {}
        count = by_hand.get(hand_key)
        if count is None:
            by_part = self._sub_counts.get(table_key)  # by part number, as best_by_length's tables
            if by_part is None:
                by_part = self._sub_counts[table_key] = []
            parts = self.word_parts(hand_key, y_wild)  # a part that makes no word counts none
            if len(by_part) < len(self._parts):
                by_part.extend([None] * (len(self._parts) - len(by_part)))
            count = 0
            for number in parts:
                words = by_part[number]
                if words is None:
                    words = by_part[number] = self._sub_count(self._parts[number], rolled, wilds, y_wild)
                count += words
            by_hand[hand_key] = count
            self._counts_kept += 1
            if self._counts_kept > 400_000:  # memory stays bounded
                self._word_counts.clear()
                self._sub_counts.clear()
                self._counts_kept = 0
        for word in taken:
            # a word is listed under the cards it needs: its consonants (one Y fewer when a WILD is its Y)
            cards = key("".join(c for c in word if c not in DIE_VOWELS))
            for sub in (cards, cards.replace("y", "", 1)) if y_wild and "y" in cards else (cards,):
                if sub and not Counter(sub) - Counter(hand_key) and any(
                        row[2] == word for row in self._sub_rows(sub, rolled, wilds, y_wild)):
                    count -= 1
                    break
        return count

    def word_action(self, word: str) -> Word:
        """("word", word), made once for each word."""
        action = self._word_actions.get(word)
        if action is None:
            action = self._word_actions[word] = Word("word", word)
            if len(self._word_actions) > 200_000:
                self._word_actions.clear()
        return action

    def search_seconds(self, letters: int) -> float:
        """Params.seconds(letters), worked out once for each length."""
        seconds = self._seconds.get(letters)
        if seconds is None:
            seconds = self._seconds[letters] = self.p.seconds(letters)
        return seconds

    def step_times(self, letters: int) -> tuple[float, ...]:
        """search_seconds(letters) * each quantile, worked out once for each length."""
        times = self.step_seconds.get(letters)
        if times is None:
            seconds = self.search_seconds(letters)
            times = self.step_seconds[letters] = tuple(seconds * q for q in self.quantiles)
        return times

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
        spell = self.units.get
        return spell(cards[0], cards[0]) + vowel + "".join(spell(card, card) for card in cards[1:])

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
            times = [time for time, _, _ in opponents]
            weights = [weight * share for _, weight, _ in opponents]
            # the weights of the opponents faster than a time, summed in their order (as one by one from 0.0)
            faster, faster3 = [0.0], [0.0]
            for weight, (_, _, counts) in zip(weights, opponents, strict=True):
                faster.append(faster[-1] + weight)
                faster3.append(faster3[-1] + weight if counts else faster3[-1])
            last, first = {}, {}
            for letters in range(p.min_length, 16):
                pl = pf = 0.0
                for x in q:
                    t = p.seconds(letters) * x
                    at, tied = bisect_left(times, t), bisect_right(times, t)
                    before, before3 = faster[at], faster3[at]
                    for i in range(at, tied):  # an opponent as quick: half a chance to be first
                        before += weights[i] * 0.5
                        if opponents[i][2]:
                            before3 += weights[i] * 0.5
                    pl += before ** (players - 1)
                    pf += (1.0 - before3) ** (players - 1)
                last[letters] = pl / len(q)
                first[letters] = pf / len(q)
            self._race_tables[players] = (last, first)
        return self._race_tables[players]


def definitions(game: Game, options: dict[str, Any] | None = None) -> Definitions:
    """The game's definitions for these options, read once (every game of a run asks)."""
    return memo_on(game, "word-to-the-wise options", options_key(options), lambda: _definitions(game, options))


def _definitions(game: Game, options: dict[str, Any] | None) -> Definitions:
    params = params_for(game, options or {})  # options that give the same numbers share their word tables
    return memo_on(game, "word-to-the-wise", params, lambda: Definitions(game, params))
