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

from generator.words.builds import HAND, REUSABLE, WILD, Match, Sources, builds, normalize_cards
from generator.words.index import LetterIndex, key, mask, sub_multisets, sub_multisets_and_masks
from generator.words.lexicon import ALPHABET, Lexicon

Score = Callable[[Match], float]


class WordFinder:
    def __init__(self, lexicon: Lexicon | Iterable[str]):
        words = lexicon.words if isinstance(lexicon, Lexicon) else tuple(lexicon)
        self.index = LetterIndex(words)
        self._words = frozenset(words)
        self._counts: dict[str, tuple[tuple[str, int], ...]] = {}
        self._plain: dict[str, tuple[Match, ...]] = {}   # key -> its words' Matches
        self._with_wild: dict[str, tuple] = {}           # see _wild_entry
        self._vowel_dice: dict[tuple, Match] = {}

    # -- public API -----------------------------------------------------
    def find(self, hand: Iterable[str], wilds: int = 0, must_use: Iterable[str] = (),
             may_use: Iterable[str] = (), reusable: Iterable[str] = (),
             reusable_wilds: int = 0, min_length: int = 2) -> list[Match]:
        if wilds < 0 or reusable_wilds < 0:
            raise ValueError("wild counts cannot be negative")
        letters = _single_letters(hand)
        plain = letters is not None and not must_use and not may_use
        if plain and not reusable and not reusable_wilds and wilds <= 1:
            return self._find_plain(letters, wilds, min_length)
        src = Sources.make(hand, wilds, must_use, may_use, reusable, reusable_wilds)
        if plain and wilds == 0 and not src.skeleton_letters & src.hand.keys():
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
        """Single-letter cards and at most one wild: one lookup per sub-multiset
        of the hand. Every word under a key has the key's length (plus one
        with the wild), and the Match objects are made on first use, then reused."""
        out, by_key = [], self.index.by_key
        if not wilds:
            plain = self._plain
            for sub in sub_multisets(hand):
                if sub in by_key and len(sub) >= min_length:
                    out.extend(plain.get(sub) or self._plain_matches(sub))
            return out
        one_short, cache = self.index.one_short(len(hand) + 1), self._with_wild
        subs, masks = sub_multisets_and_masks(hand)
        # reversed(masks) lines each sub up with the letters the hand has left
        for sub, left in zip(subs, reversed(masks)):
            entry = cache.get(sub)
            if entry is None:
                if sub not in by_key and sub not in one_short:
                    continue
                entry = self._wild_entry(sub, one_short)
            plain, with_wild, letters, kept = entry
            if plain and len(sub) >= min_length:
                out.extend(plain)
            if with_wild and len(sub) + 1 >= min_length:
                cut = letters & left
                if not cut:
                    out.extend(with_wild)
                else:  # no wild may stand for a letter whose card is left in hand
                    rest = kept.get(cut)
                    if rest is None:
                        rest = kept[cut] = tuple(m for m in with_wild if not mask(m.wilds) & cut)
                    out.extend(rest)
        return out

    def _find_vowel_dice(self, hand: str, src: Sources, min_length: int) -> list[Match]:
        """Reusable letters and single-letter cards that are neither vowels nor
        reusable (A Word to the Wise): look up the consonants, check the vowels."""
        free = src.skeleton_letters
        table = self.index.skeleton(free)
        out = []
        for sub in sub_multisets(hand):
            for word, word_free in table.get(sub, ()):
                if len(word) >= min_length and len(word_free - src.reusable) <= src.reusable_wilds:
                    out.append(self._vowel_dice_match(word, src.reusable, free))
        return out

    # -- general path ---------------------------------------------------
    def _candidates(self, src: Sources, min_length: int) -> set[str]:
        """Words whose letters fit the sources' letter counts; builds() then
        checks what counts cannot (multi-letter cards must be contiguous)."""
        free = src.skeleton_letters
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
        cards = tuple(sub)
        matches = self._plain[sub] = tuple(
            Match(w, cards, parts=tuple(map(_FROM_HAND.__getitem__, w))) for w in self.index.by_key[sub])
        return matches

    def _wild_entry(self, sub: str, one_short: dict) -> tuple:
        """(Matches of sub's words, Matches of words one letter longer made
        with a wild, their wild letters, {letters to leave out: the rest}),
        letter sets being bit masks."""
        plain = self._plain.get(sub) or (self._plain_matches(sub) if sub in self.index.by_key else ())
        cards = tuple(sub)
        with_wild = tuple(_one_wild_match(w, letter, cards)
                          for letter, words in one_short.get(sub, ()) for w in words)
        entry = self._with_wild[sub] = (plain, with_wild, mask(m.wilds[0] for m in with_wild), {})
        return entry

    def _vowel_dice_match(self, word: str, reusable: frozenset[str], free: frozenset[str]) -> Match:
        match = self._vowel_dice.get((word, reusable, free))
        if match is None:
            used = [c for c in word if c in free]
            parts = tuple((c, REUSABLE if c in free else HAND) for c in word)
            match = self._vowel_dice[word, reusable, free] = Match(
                word, tuple(sorted(c for c in word if c not in free)), (),
                tuple(sorted(used)), (), tuple(sorted(set(used) - reusable)), parts)
        return match


_FROM_HAND = {c: (c, HAND) for c in ALPHABET}   # shared part tuples: less memory, faster


_AS_WILD = {c: ((c,), (c, WILD)) for c in ALPHABET}


def _one_wild_match(word: str, letter: str, cards: tuple[str, ...]) -> Match:
    wilds, wild_part = _AS_WILD[letter]
    parts = list(map(_FROM_HAND.__getitem__, word))
    parts[word.rindex(letter)] = wild_part
    return Match(word, cards, wilds, parts=tuple(parts))


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
