"""Word tables answered key by key, for a process that asks few keys (a first game): LetterIndex's skeleton
tables read from their packed form, and its table one letter short (one_short) worked out one key at a time.

The letters that complete each key one letter short are kept on disk too (ShortLetters): per key length, the
sorted keys as one string of fixed-width records and, beside each, a bit mask of the letters, found by
binary search; it loads in milliseconds and names a key's letters without trying the whole alphabet.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Set
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spellpress.words.index import LetterIndex

MASK_BITS = 32  # array("I"): a list of words with more letters than this keeps no ShortLetters
PackedLetters = tuple[str, dict[int, tuple[str, bytes]]]  # (letters, width -> (records, masks as bytes))
FENCE = 16  # records a block: ShortLetters bisects the blocks' first records in C, then one block


class WorkedOutTable(Mapping):
    """A read-only table whose `get` works an entry out the first time it is asked; [] asks `get`."""

    def get(self, k, default=None):
        raise NotImplementedError

    def __getitem__(self, k):
        found = self.get(k)
        if found is None:
            raise KeyError(k)
        return found


class SkeletonTable(WorkedOutTable):
    """LetterIndex.skeleton()'s table read from its packed form (key -> words joined by newlines): an
    entry ((word, its `free` letters), ...) is made the first time its key is asked, so a process
    that asks a few keys never unpacks the rest."""

    def __init__(self, packed: dict[str, str], free: frozenset[str]):
        self.packed, self.free = packed, free
        self.entries: dict[str, tuple[tuple[str, frozenset[str]], ...]] = {}
        self.free_sets: dict[frozenset[str], frozenset[str]] = {}  # one object for each set of free letters

    def get(self, k, default=None):
        found = self.entries.get(k)
        if found is None:
            words = self.packed.get(k)
            if words is None:
                return default
            free, free_sets = self.free, self.free_sets
            pairs = []
            for word in words.split("\n"):
                letters = free.intersection(word)
                pairs.append((word, free_sets.setdefault(letters, letters)))
            found = self.entries[k] = tuple(pairs)
        return found

    def __contains__(self, k) -> bool:
        return k in self.packed

    def __iter__(self) -> Iterator[str]:
        return iter(self.packed)

    def __len__(self) -> int:
        return len(self.packed)

    def words(self, settled: Callable[[], bool]) -> SkeletonWords:
        """The words of the table, as a set that looks a word up under its key (see SkeletonWords)."""
        return SkeletonWords(self, settled)


class SkeletonWords(Set):
    """Every word of a SkeletonTable, as a set: `in` looks under the word's key (its letters outside `free`,
    sorted), that key's words made a set the first time, so a process that asks a few words (a first
    game) never makes a set of them all; once `settled()` (the runner's first game is over) or as many
    words were asked as the table has keys, they are all made one set, as fast to ask as a set can be."""

    def __init__(self, table: SkeletonTable, settled: Callable[[], bool]):
        self.packed, self.settled = table.packed, settled
        self.without_free = str.maketrans("", "", "".join(table.free))
        self.by_key: dict[str, frozenset[str]] = {}
        self.whole: frozenset[str] | None = None
        self.asked = 0

    def __contains__(self, word) -> bool:
        whole = self.whole
        if whole is not None:
            return word in whole
        self.asked += 1
        if self.asked > len(self.packed) or self.settled():
            whole = self.whole = frozenset("\n".join(self.packed.values()).split("\n"))
            return word in whole
        if not isinstance(word, str):
            return False
        k = "".join(sorted(word.translate(self.without_free)))
        words = self.by_key.get(k)
        if words is None:
            listed = self.packed.get(k)
            if listed is None:
                return False
            words = self.by_key[k] = frozenset(listed.split("\n"))
        return word in words

    def __iter__(self) -> Iterator[str]:
        for words in self.packed.values():
            yield from words.split("\n")

    @cached_property
    def _count(self) -> int:
        return sum(words.count("\n") + 1 for words in self.packed.values())

    def __len__(self) -> int:
        return self._count


class ShortTable(WorkedOutTable):
    """LetterIndex.one_short(max_length) answered key by key (LetterIndex.short_entry), the same
    entries as the whole table's; iterating or counting it builds that table."""

    __slots__ = ("index", "upto")

    def __init__(self, index: LetterIndex, upto: int):
        self.index, self.upto = index, upto

    def get(self, k, default=None):
        if not isinstance(k, str) or len(k) >= self.upto:
            return default
        return self.index.short_entry(k) or default

    def __contains__(self, k) -> bool:
        return self.get(k) is not None

    def __iter__(self) -> Iterator[str]:
        return (k for k in self.index.one_short_table(self.upto) if len(k) < self.upto)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def short_pairs(by_key: Mapping[str, tuple[str, ...]], k: str, letters: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """((letter, the words of k plus that letter), ...) for each of the sorted `letters` that makes words."""
    pairs, get = [], by_key.get
    cuts = [(k[:at], k[at:]) for at in range(len(k) + 1)]  # each place a letter can go, cut once
    for letter in letters:
        head, tail = cuts[bisect_right(k, letter)]
        words = get(head + letter + tail)
        if words:
            pairs.append((letter, words))
    return tuple(pairs)


class ShortLetters:
    """For each key one letter short of a word's key: which letters complete it (see the module's doc)."""

    def __init__(self, packed: PackedLetters):
        self.letters, self.packed = packed
        self.tables: dict[int, tuple[str, array, list[str]]] = {}

    def _table(self, width: int) -> tuple[str, array, list[str]] | None:
        """A width's records, masks and fences (every FENCE-th record: a bisect in C finds the block of a key,
        and str.find the key in the block), made the first time a key of that width is asked."""
        table = self.tables.get(width)
        if table is None and width in self.packed:
            records, mask_bytes = self.packed[width]
            masks = array("I")
            masks.frombytes(mask_bytes)
            fences = [records[at:at + width] for at in range(0, len(records), FENCE * width)] if width else [""]
            table = self.tables[width] = (records, masks, fences)
        return table

    def completing(self, k: str) -> str:
        """The letters, sorted, that make k (sorted) a word's key; "" when none do."""
        width = len(k)
        table = self.tables.get(width) or self._table(width)
        if table is None:
            return ""
        records, masks, fences = table
        start = (bisect_right(fences, k) - 1) * FENCE * width
        if start < 0:
            return ""
        if width:
            end = start + FENCE * width
            at = records.find(k, start, end)
            while at > 0 and (at - start) % width:  # found across two records: look on
                at = records.find(k, at + 1, end)
            if at < 0:
                return ""
            at //= width
        else:
            at = 0
        mask, letters, found = masks[at], self.letters, []
        while mask:
            low = mask & -mask
            found.append(letters[low.bit_length() - 1])
            mask ^= low
        return "".join(found)


def pack_short_letters(keys: Iterable[str], letters: str) -> PackedLetters | None:
    """ShortLetters' packed form for the anagram table's keys (None when `letters` has more than MASK_BITS)."""
    if len(letters) > MASK_BITS:
        return None
    bit = {letter: 1 << i for i, letter in enumerate(letters)}
    masks: dict[str, int] = {}
    get = masks.get
    for k in keys:
        before = ""
        for i, letter in enumerate(k):
            if letter != before:  # a run of one letter gives one short key
                short = k[:i] + k[i + 1:]
                masks[short] = get(short, 0) | bit[letter]
                before = letter
    by_width: dict[int, list[str]] = defaultdict(list)
    for short in masks:
        by_width[len(short)].append(short)
    tables = {}
    for width, shorts in by_width.items():
        shorts.sort()
        tables[width] = ("".join(shorts), array("I", [masks[short] for short in shorts]).tobytes())
    return letters, tables


def completed_pairs(by_key: Mapping[str, tuple[str, ...]], k: str, letters: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """((letter, the words of k plus that letter), ...) for the sorted `letters` known to complete k."""
    pairs = []
    for letter in letters:
        at = bisect_right(k, letter)
        pairs.append((letter, by_key[k[:at] + letter + k[at:]]))
    return tuple(pairs)
