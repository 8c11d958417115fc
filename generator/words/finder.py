"""Which words can be made from letter cards, wilds, table and reusable letters.

    finder = WordFinder(Lexicon())
    finder.find("retains", wilds=1)               # every build of every word
    finder.best(hand, score=points)               # the highest-scoring Match
    finder.longest(hand, reusable="ae")           # A Word to the Wise dice
    finder.can_make_word("stone", hand)           # fast yes/no for simulations

Sources of letters (all optional except the hand):
- hand: letter cards; a card may hold several letters ("QU"), used as a unit.
- wilds: wild cards, each any one letter.
- must_use / may_use: table cards the word must all use / may use.
- reusable: letters usable any number of times (vowel dice); reusable_wilds:
  dice showing WILD, each naming one vowel (aeiouy) then reusable likewise.
A word is returned once per distinct set of sources used (see Match), except
that a wild never stands for a letter while a hand card of that letter is
left unused (that build is never better than using the card).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from itertools import combinations_with_replacement, product

from generator.words.builds import HAND, REUSABLE, VOWELS, WILD, Match, Sources, builds, normalize_cards
from generator.words.index import LetterIndex, key, sub_multisets
from generator.words.lexicon import ALPHABET, Lexicon

Score = Callable[[Match], float]


class WordFinder:
    def __init__(self, lexicon: Lexicon | Iterable[str]):
        words = lexicon.words if isinstance(lexicon, Lexicon) else tuple(lexicon)
        self.index = LetterIndex(words)
        self._words = frozenset(words)
        self._counts: dict[str, tuple[tuple[str, int], ...]] = {}
        self._plain: dict[str, tuple[Match, ...]] = {}   # key -> Matches, made on first use
        self._one_wild: dict[str, tuple] = {}
        self._vowel_dice: dict[tuple[str, frozenset], Match] = {}

    # -- public API -----------------------------------------------------
    def find(self, hand: Iterable[str], wilds: int = 0, must_use: Iterable[str] = (),
             may_use: Iterable[str] = (), reusable: Iterable[str] = (),
             reusable_wilds: int = 0, min_length: int = 2) -> list[Match]:
        letters = _single_letters(hand)
        plain = letters is not None and not must_use and not may_use
        if plain and not reusable and not reusable_wilds and wilds <= 1:
            return self._find_plain(letters, wilds, min_length)
        src = Sources.make(hand, wilds, must_use, may_use, reusable, reusable_wilds)
        if plain and wilds == 0 and not src.reusable_letters & src.hand.keys():
            return self._find_vowel_dice(letters, src, min_length)
        return [m for w in sorted(self._candidates(src, min_length)) for m in builds(w, src)]

    def best(self, hand: Iterable[str], score: Score, **options) -> Match | None:
        """Highest score; ties go to the longer word, fewer wilds, then A-Z."""
        return _pick(self.find(hand, **options), lambda m: (score(m), len(m.word)))

    def longest(self, hand: Iterable[str], **options) -> Match | None:
        return _pick(self.find(hand, **options), lambda m: len(m.word))

    def can_make_word(self, word: str, hand: Iterable[str], wilds: int = 0,
                      must_use: Iterable[str] = (), may_use: Iterable[str] = (),
                      reusable: Iterable[str] = (), reusable_wilds: int = 0) -> bool:
        """Is `word` in the lexicon and buildable? Plain letter hands (no table,
        no reusable letters, no multi-letter cards) take a counting shortcut."""
        word = word.lower()
        if word not in self._words:
            return False
        if not (must_use or may_use or reusable or reusable_wilds):
            cards = hand if isinstance(hand, str) else list(hand)
            if all(len(c) == 1 for c in cards):
                cards = "".join(cards).lower()
                short = 0
                for letter, need in self._letter_counts(word):
                    have = cards.count(letter)
                    if need > have:
                        short += need - have
                return short <= wilds
        src = Sources.make(hand, wilds, must_use, may_use, reusable, reusable_wilds)
        return bool(builds(word, src, first_only=True))

    # -- fast paths -----------------------------------------------------
    def _find_plain(self, hand: str, wilds: int, min_length: int) -> list[Match]:
        """Single-letter cards and at most one wild: a lookup or two per
        sub-multiset of the hand. All words under one key have the key's
        length, and their Match objects are made once and reused."""
        by_key, out = self.index.by_key, []
        one_short = self.index.one_short(len(hand) + 1) if wilds else {}
        counts = {c: hand.count(c) for c in set(hand)}
        for sub in sub_multisets(hand):
            if sub in by_key and len(sub) >= min_length:
                out.extend(self._plain_matches(sub))
            if sub in one_short and len(sub) + 1 >= min_length:
                for letter, matches in self._one_wild_matches(sub, one_short):
                    if sub.count(letter) == counts.get(letter, 0):  # else a card is left: no wild
                        out.extend(matches)
        return out

    def _find_vowel_dice(self, hand: str, src: Sources, min_length: int) -> list[Match]:
        """Single-letter cards none of which is reusable, plus reusable letters
        (A Word to the Wise): look up the non-reusable letters, check the rest."""
        table = self.index.skeleton(src.reusable_letters)
        out = []
        for sub in sub_multisets(hand):
            for word, free in table.get(sub, ()):
                if len(word) >= min_length and len(free - src.reusable) <= src.reusable_wilds:
                    out.append(self._vowel_dice_match(word, src.reusable))
        return out

    # -- general path ---------------------------------------------------
    def _candidates(self, src: Sources, min_length: int) -> set[str]:
        """Words whose letters fit the sources' letter counts; builds() then
        checks what counts cannot (multi-letter cards must be contiguous)."""
        free = src.reusable_letters
        fixed = "".join(c for card in src.must.elements() for c in card if c not in free)
        cards = list((src.hand + src.may).items())
        letters = set()
        for choice in product(*(range(n + 1) for _, n in cards)):
            picked = "".join(card * k for (card, _), k in zip(cards, choice))
            letters.add(key(fixed + "".join(c for c in picked if c not in free)))
        wild_letters = "".join(c for c in ALPHABET if c not in free)
        found: set[str] = set()
        if not free:
            longest = max(map(len, letters)) + src.wilds
            one_short = self.index.one_short(longest) if src.wilds else {}
        for sub in letters:
            for used in range(src.wilds + 1):
                if not free and used >= 1:   # last wild via the one-short table
                    for extra in combinations_with_replacement(wild_letters, used - 1):
                        for _, words in one_short.get(key(sub + "".join(extra)), ()):
                            found.update(words)
                    continue
                table = self.index.skeleton(free) if free else None
                for extra in combinations_with_replacement(wild_letters, used):
                    k = key(sub + "".join(extra))
                    if table is None:
                        found.update(self.index.by_key.get(k, ()))
                    else:
                        found.update(w for w, _ in table.get(k, ()))
        return {w for w in found if len(w) >= min_length}

    # -- memoized Match objects (one per word and shape, not per query) --
    def _letter_counts(self, word: str) -> tuple[tuple[str, int], ...]:
        counts = self._counts.get(word)
        if counts is None:
            counts = self._counts[word] = tuple(Counter(word).items())
        return counts

    def _plain_matches(self, sub: str) -> tuple[Match, ...]:
        matches = self._plain.get(sub)
        if matches is None:
            matches = self._plain[sub] = tuple(
                Match(w, tuple(sub), parts=tuple((c, HAND) for c in w)) for w in self.index.by_key[sub])
        return matches

    def _one_wild_matches(self, sub: str, one_short: dict) -> tuple:
        """((wild letter, Matches), ...) for words one letter longer than sub."""
        groups = self._one_wild.get(sub)
        if groups is None:
            groups = self._one_wild[sub] = tuple(
                (letter, tuple(_one_wild_match(w, letter, sub) for w in words))
                for letter, words in one_short[sub])
        return groups

    def _vowel_dice_match(self, word: str, reusable: frozenset[str]) -> Match:
        match = self._vowel_dice.get((word, reusable))
        if match is None:
            free = reusable | VOWELS
            used = [c for c in word if c in free]
            parts = tuple((c, REUSABLE if c in free else HAND) for c in word)
            match = self._vowel_dice[word, reusable] = Match(
                word, tuple(sorted(c for c in word if c not in free)), (),
                tuple(sorted(used)), (), tuple(sorted(set(used) - reusable)), parts)
        return match


def _one_wild_match(word: str, letter: str, cards: str) -> Match:
    at = word.rindex(letter)
    parts = tuple((c, WILD if i == at else HAND) for i, c in enumerate(word))
    return Match(word, tuple(cards), (letter,), parts=parts)


def _single_letters(hand: Iterable[str]) -> str | None:
    """The hand as one sorted lowercase string, or None if a card has several letters."""
    cards = hand.lower() if isinstance(hand, str) else [c.lower() for c in hand]
    if not all(len(c) == 1 for c in cards):
        return None
    letters = "".join(cards)
    if letters and not (letters.isascii() and letters.isalpha()):
        normalize_cards(cards, "hand")  # raises with the offending card
    return key(letters)


def _pick(matches: list[Match], rank: Callable[[Match], tuple]) -> Match | None:
    """Highest rank; ties broken toward fewer wilds, then alphabetical order."""
    if not matches:
        return None
    return min(matches, key=lambda m: (_negate(rank(m)), len(m.wilds) + len(m.reusable_wilds),
                                       m.word, m.cards, m.wilds, m.reusable, m.table))


def _negate(rank) -> tuple:
    return tuple(-x for x in rank) if isinstance(rank, tuple) else (-rank,)
