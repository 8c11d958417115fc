"""Lookup tables over a word list, keyed by letter multisets.

A word's key is its letters sorted ("stop" and "pots" share "opst"). Finding
the words a hand can make is then a lookup per sub-multiset of the hand,
instead of a pass over the whole list.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from itertools import groupby


def key(letters: str) -> str:
    return "".join(sorted(letters))


def sub_multisets(sorted_letters: str) -> list[str]:
    """Every sub-multiset of a sorted string, each once, as sorted strings."""
    subs = [""]
    for letter, run in groupby(sorted_letters):
        count = len(tuple(run))
        subs = [s + letter * i for s in subs for i in range(count + 1)]
    return subs


class LetterIndex:
    def __init__(self, words: Iterable[str]):
        self.words = tuple(words)
        by_key: dict[str, list[str]] = defaultdict(list)
        for word in self.words:
            by_key[key(word)].append(word)
        self.by_key: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in by_key.items()}
        self._one_short: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {}
        self._one_short_upto = 0
        self._skeletons: dict[frozenset[str], dict[str, tuple]] = {}

    def one_short(self, max_length: int) -> dict[str, tuple[tuple[str, tuple[str, ...]], ...]]:
        """key minus one letter -> ((that letter, words), ...), for words up to max_length.

        This answers "which words does this sub-multiset make with one wild"
        in one lookup. It is built lazily, only as long as queries need.
        """
        if max_length > self._one_short_upto:
            grouped: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
            for short, pairs in self._one_short.items():
                for letter, words in pairs:
                    grouped[short][letter].extend(words)
            for k, words in self.by_key.items():
                if self._one_short_upto < len(k) <= max_length:
                    for i, letter in enumerate(k):
                        if not i or k[i - 1] != letter:
                            grouped[k[:i] + k[i + 1:]][letter].extend(words)
            self._one_short = {short: tuple((letter, tuple(words)) for letter, words in sorted(by.items()))
                               for short, by in grouped.items()}
            self._one_short_upto = max_length
        return self._one_short

    def skeleton(self, free: frozenset[str]) -> dict[str, tuple]:
        """Words keyed by their letters outside `free` (letters a query can
        supply without limit): key -> ((word, set of its `free` letters), ...)."""
        table = self._skeletons.get(free)
        if table is None:
            grouped: dict[str, list] = defaultdict(list)
            for word in self.words:
                grouped[key(c for c in word if c not in free)].append(
                    (word, frozenset(c for c in word if c in free)))
            table = self._skeletons[free] = {k: tuple(v) for k, v in grouped.items()}
        return table
