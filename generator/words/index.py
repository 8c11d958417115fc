"""Lookup tables over a word list, keyed by letter multisets.

A word's key is its letters sorted ("stop" and "pots" share "opst"). Finding
the words a hand can make is then a lookup per sub-multiset of the hand,
instead of a pass over the whole list.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import cached_property, lru_cache
from itertools import groupby

from spellpress.words.table_cache import cached, words_digest


def key(letters: str) -> str:
    return "".join(sorted(letters))


def sub_multisets(sorted_letters: str) -> list[str]:
    """Every sub-multiset of a sorted string, each once, as sorted strings.

    The order is mixed-radix (last letter fastest), so the complement of
    subs[i] (what is left of the hand) is subs[len(subs) - 1 - i]. Built
    from two halves of the hand (their parts cached), which halves the string work.
    """
    head, tail = _halves(sorted_letters)
    tails = subs_and_lefts(tail)[0]
    return [h + t for h in subs_and_lefts(head)[0] for t in tails]


def sub_multisets_between(sorted_letters: str, at_least: str) -> list[str]:
    """Every sub-multiset of a sorted string that contains the multiset
    `at_least` (which must be part of it), as sorted strings."""
    need = Counter(at_least)
    subs = [""]
    for letter, run in groupby(sorted_letters):
        count = len(tuple(run))
        subs = [s + letter * i for s in subs for i in range(need[letter], count + 1)]
    return subs


@lru_cache(maxsize=1 << 16)
def subs_and_lefts(sorted_letters: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Cached: the sub-multisets of a (short) sorted string, and beside each
    the bit mask of the letters it leaves out."""
    subs = _subs(sorted_letters)
    # mixed-radix order: the complement of subs[i] is subs[-1 - i]
    return tuple(subs), tuple(mask(s) for s in reversed(subs))


def _halves(sorted_letters: str) -> tuple[str, str]:
    half = len(sorted_letters) // 2
    while 0 < half < len(sorted_letters) and sorted_letters[half - 1] == sorted_letters[half]:
        half += 1  # a run of one letter stays in one half, or subs would repeat
    return sorted_letters[:half], sorted_letters[half:]


def _subs(sorted_letters: str) -> list[str]:
    subs = [""]
    for letter, run in groupby(sorted_letters):
        count = len(tuple(run))
        subs = [s + letter * i for s in subs for i in range(count + 1)]
    return subs


def mask(letters: Iterable[str]) -> int:
    """A set of letters as bits (bit 0 for "a")."""
    bits = 0
    for letter in letters:
        bits |= 1 << (ord(letter) - 97)
    return bits


def add_one_short(grouped: dict[str, list], k: str, value, letters: frozenset[str] | None = None) -> None:
    """Add (letter, value) under `k` less one of that letter, for each distinct letter of the sorted key `k`
    (each of `letters` only, if given): each (short key, letter) comes from one key."""
    before = ""
    for i, letter in enumerate(k):
        if letter != before and (letters is None or letter in letters):
            short = k[:i] + k[i + 1:]
            pairs = grouped.get(short)
            if pairs is None:
                grouped[short] = [(letter, value)]
            else:
                pairs.append((letter, value))
        before = letter


class LetterIndex:
    def __init__(self, words: Iterable[str]):
        self.words = tuple(words)
        self._one_short: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {}
        self._one_short_upto = 0
        self._skeletons: dict[frozenset[str], dict[str, tuple]] = {}
        self._containing: dict[str, LetterIndex] = {}

    @cached_property
    def digest(self) -> str:
        """The word list's digest: its tables' name in the disk cache (table_cache.py)."""
        return words_digest(self.words)

    @cached_property
    def by_key(self) -> dict[str, tuple[str, ...]]:
        """key -> its words. Made on first use (a game judged by consonant skeletons never asks), or read
        from the disk cache, then a plain attribute."""
        return cached("by-key", self.digest, self._by_key)

    def _by_key(self) -> dict[str, tuple[str, ...]]:
        by_key: dict[str, tuple[str, ...]] = {}
        get = by_key.get
        for k, word in zip(map("".join, map(sorted, self.words)), self.words, strict=False):
            words = get(k)
            by_key[k] = (word,) if words is None else (*words, word)
        return by_key

    @property
    def word_set(self) -> frozenset[str]:
        if not hasattr(self, "_word_set"):
            self._word_set = frozenset(self.words)
        return self._word_set

    def containing(self, text: str) -> LetterIndex:
        """The index of the words that contain `text` (a multi-letter card),
        made on first use."""
        index = self._containing.get(text)
        if index is None:
            index = self._containing[text] = LetterIndex(w for w in self.words if text in w)
        return index

    def one_short(self, max_length: int) -> dict[str, tuple[tuple[str, tuple[str, ...]], ...]]:
        """key minus one letter -> ((that letter, words), ...), for words up to max_length.

        This answers "which words does this sub-multiset make with one wild"
        in one lookup. Built lazily, only as long as queries need: a word of
        length n only adds keys of length n - 1, so growing never edits an entry.
        """
        if max_length > self._one_short_upto:
            grouped: dict[str, list] = {}
            for k, words in self.by_key.items():
                if self._one_short_upto < len(k) <= max_length:
                    add_one_short(grouped, k, words)
            for short, pairs in grouped.items():
                pairs.sort()
                self._one_short[short] = tuple(pairs)
            self._one_short_upto = max_length
        return self._one_short

    def skeleton(self, free: frozenset[str]) -> dict[str, tuple]:
        """Words keyed by their letters outside `free` (letters a query can
        supply without limit): key -> ((word, set of its `free` letters), ...)."""
        table = self._skeletons.get(free)
        if table is None:
            table = self._skeletons[free] = cached(f"skeleton-{''.join(sorted(free))}", self.digest,
                                                   lambda: self._skeleton(free))
        return table

    def _skeleton(self, free: frozenset[str]) -> dict[str, tuple]:
        grouped: dict[str, list] = defaultdict(list)
        without_free = str.maketrans("", "", "".join(free))
        free_sets: dict[frozenset[str], frozenset[str]] = {}  # one object for each set of free letters
        for word in self.words:
            letters = free.intersection(word)
            grouped["".join(sorted(word.translate(without_free)))].append((word, free_sets.setdefault(letters, letters)))
        return {k: tuple(v) for k, v in grouped.items()}


class ShortKeys(dict):
    """LetterIndex.one_short()'s entries made key by key, the first time each is asked (each letter of
    the sorted alphabet tried on the anagram table): for a process that asks few keys (a first game),
    no pass over the whole word list. `get` answers as the table does; an entry's words are all one
    letter longer than its key, whatever the length (one_short's callers never ask longer keys)."""

    def __init__(self, index: LetterIndex, alphabet: str):
        super().__init__()
        self.index, self.alphabet = index, "".join(sorted(alphabet))

    def get(self, k, default=()):
        found = dict.get(self, k)
        if found is None:
            by_key, pairs = self.index.by_key, []
            for letter in self.alphabet:
                at = bisect_right(k, letter)
                words = by_key.get(k[:at] + letter + k[at:])
                if words:
                    pairs.append((letter, words))
            found = self[k] = tuple(pairs)
        return found or default
