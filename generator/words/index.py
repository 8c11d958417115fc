"""Lookup tables over a word list, keyed by letter multisets.

A word's key is its letters sorted ("stop" and "pots" share "opst"). Finding
the words a hand can make is then a lookup per sub-multiset of the hand,
instead of a pass over the whole list.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import cached_property, lru_cache
from itertools import groupby
from string import ascii_lowercase
from typing import TYPE_CHECKING, cast

from spellpress.disk_cache import cached, words_digest
from spellpress.words.lazy_tables import (
    ShortLetters,
    ShortTable,
    SkeletonTable,
    SkeletonWords,
    completed_pairs,
    pack_short_letters,
    short_pairs,
)

if TYPE_CHECKING:
    from spellpress.words.lexicon import Lexicon


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


# one_short() answers key by key (no pass over the list) until it has worked out this many keys for each
# key of the anagram table, then builds its whole table: a key alone costs about what five entries of the
# whole table cost, and the whole table has about five entries a key, so that is when working keys out one
# by one has cost what the table costs (English: 69,000 keys; a first Evocabulary game asks 15,000-43,000).
SHORT_KEYS_BEFORE_TABLE = 1.0
_settled = False  # see settle()


def settle() -> None:
    """From now on one_short() gives its whole table (a plain dict, the fastest to look up), and
    skeleton_words() sets make one set of every word, as a long run wants: the simulation runner calls this
    after a process's first game, which asks its keys one by one."""
    global _settled
    _settled = True


def is_settled() -> bool:
    """Whether settle() was called in this process."""
    return _settled


class LetterIndex:
    def __init__(self, words: Iterable[str] | None = None, *, lexicon: Lexicon | None = None):
        """An index of these words, or of a lexicon's: its words then read only when a table is built (a
        table kept on disk is found by the lexicon's digest)."""
        if words is not None:
            self.words = tuple(words)
        elif lexicon is None:
            raise TypeError("LetterIndex needs words or a lexicon")
        self._lexicon = lexicon
        self._one_short: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {}
        self._one_short_upto = 0
        self._short_entries: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {}
        self._skeletons: dict[frozenset[str], SkeletonTable] = {}
        self._containing: dict[str, LetterIndex] = {}

    @cached_property
    def words(self) -> tuple[str, ...]:
        """The lexicon's words (an index made of words has them from the start)."""
        assert self._lexicon is not None
        return self._lexicon.words

    @cached_property
    def digest(self) -> str:
        """The word list's digest: its tables' name in the disk cache (spellpress/disk_cache.py)."""
        return self._lexicon.digest if self._lexicon is not None else words_digest(self.words)

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

    @cached_property
    def letters(self) -> str:
        """The letters the words use, sorted: what a wild may stand for in one_short's entries."""
        text = "\n".join(self.words)
        others = text.encode().translate(None, (ascii_lowercase + "\n").encode()).decode()
        return "".join(sorted({letter for letter in ascii_lowercase if letter in text} | set(others)))

    @cached_property
    def short_letters(self) -> ShortLetters | None:
        """Which letters complete each key one letter short, read from the disk cache (or built and kept there
        the first time: about what one_short's whole table costs, once for each word list)."""
        packed = cached("one-short-letters", self.digest, lambda: pack_short_letters(self.by_key, self.letters))
        return None if packed is None else ShortLetters(packed)

    def short_entry(self, k: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """one_short's entry for one key, worked out alone, kept: the letters that complete it from
        short_letters, else each letter tried on the anagram table."""
        found = self._short_entries.get(k)
        if found is None:
            short_letters = self.short_letters
            if short_letters is None:
                found = short_pairs(self.by_key, k, self.letters)
            else:
                found = completed_pairs(self.by_key, k, short_letters.completing(k))
            self._short_entries[k] = found
        return found

    def one_short(self, max_length: int) -> dict[str, tuple[tuple[str, tuple[str, ...]], ...]]:
        """key minus one letter -> ((that letter, words), ...), for words up to max_length.

        This answers "which words does this sub-multiset make with one wild"
        in one lookup. A process's first keys are answered one at a time (ShortTable), then, once
        settle() was called or as many keys were asked as the anagram table has, the whole table is
        built, only as long as queries need: a word of length n only adds keys of length n - 1, so
        growing never edits an entry.
        """
        if not (_settled or self._one_short_upto) and len(self._short_entries) < SHORT_KEYS_BEFORE_TABLE * len(self.by_key):
            return cast(dict, ShortTable(self, max_length))  # a read-only Mapping: callers get, `in` and [] it
        return self.one_short_table(max_length)

    def one_short_table(self, max_length: int) -> dict[str, tuple[tuple[str, tuple[str, ...]], ...]]:
        """one_short's whole table, built (grown) up to words of max_length."""
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
            packed = cached(f"skeleton-{''.join(sorted(free))}", self.digest, lambda: self._skeleton(free))
            table = self._skeletons[free] = SkeletonTable(packed, free)
        return cast(dict, table)  # a read-only Mapping: callers get, `in` and [] it

    def skeleton_words(self, free: frozenset[str]) -> SkeletonWords:
        """Every word, as a set that looks a word up in skeleton(free)'s table: no set of every word made."""
        self.skeleton(free)
        return self._skeletons[free].words(settled=is_settled)

    def _skeleton(self, free: frozenset[str]) -> dict[str, str]:
        """key -> its words joined by newlines, in list order: flat strings, which the disk cache
        reads in milliseconds (a tuple of pairs per word took half a second for the French list)."""
        grouped: dict[str, list[str]] = defaultdict(list)
        without_free = str.maketrans("", "", "".join(free))
        for word in self.words:
            grouped["".join(sorted(word.translate(without_free)))].append(word)
        return {k: "\n".join(v) for k, v in grouped.items()}


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
            found = self[k] = short_pairs(self.index.by_key, k, self.alphabet)
        return found or default
