"""The words a hand of letter cards makes, looked up by the multiset of cards (Word Rummy's search).

A word is spelled by cards: single letters and the deck's cards of several letters ("qu", "th"),
so "the" is spelled t-h-e or th-e. Each card kind is one character here (a letter itself, a card
of several letters a private-use character), and a spelling's key is its characters sorted. A hand
then makes, with no wild, the words under the key of each of its sub-multisets of cards; with
wilds, the words under that key plus one letter per wild, where a wild never stands for a letter
whose card the hand leaves unused (the finder's rule, generator/words/builds.py).

A key's entry is the A-Z first word spelled by exactly those cards. The first keys are answered
one at a time from the letter index's anagram table (index.py), so nothing is built over the whole
word list when a game starts (a fresh process plays its first game in a fraction of a second);
after some thousand keys, a run that goes on builds, once (about 1 s), the table of every spelling's
key, the trie of those keys (card_trie.py: a hand without a wild is then one walk that stops where
no key goes on) and the table of keys one letter short, which names a wild's letters and words in
one lookup.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache
from itertools import groupby

from spellpress.words.card_trie import CardTrie
from spellpress.words.index import LetterIndex, add_one_short, key

# keys answered one at a time before the tables of every key are built: a first game of Word Rummy
# asks about 6,000 keys of cards and 800 keys plus a letter, and each further game about 1,700 and 1,000
BULK_AFTER = 3_000
ENTRIES_BULK_AFTER = 4 * BULK_AFTER
KEYS_KEPT = 500_000  # keys remembered by each table before it starts over
FIRST_CODE = 0xE000  # cards of several letters become private-use characters, after every letter


class CardWords:
    """Words by card multiset for one lexicon and one set of card kinds."""

    def __init__(self, index: LetterIndex, kinds: tuple[str, ...], alphabet: str):
        multi = sorted(kind for kind in kinds if len(kind) > 1)
        self.index, self.alphabet = index, "".join(sorted(alphabet))  # the finder's order of wild letters
        self.char = {kind: chr(FIRST_CODE + i) for i, kind in enumerate(multi)}
        self.kind = {char: kind for kind, char in self.char.items()}
        for letter in (*alphabet, *kinds):
            self.char.setdefault(letter, letter)
            self.kind.setdefault(letter, letter)
        self.multi = tuple(multi)
        self._entries: dict[str, tuple | None] = {}
        self._wild_letters: dict[str, tuple] = {}
        self._spellings: dict[str, tuple[str, ...]] = {}
        self._asked = 0  # keys with_letter has answered letter by letter
        self._filled = 0  # keys entry has answered from the anagram table, one at a time
        self._bulk: dict[str, str] | None = None  # see _spelled_by
        self.trie: CardTrie | None = None  # built with _bulk: then a wild-free hand's words are one walk
        self._short: dict[str, list] | None = None  # built with _bulk: with_letter's answers for every key

    def chars(self, kinds) -> str:
        """Card kinds (no wild) as one sorted key."""
        return "".join(sorted(map(self.char.__getitem__, kinds)))

    def entry(self, cards: str) -> tuple | None:
        """(the cards as sorted kinds, the A-Z first word spelled by exactly them) or None."""
        found = self._entries.get(cards, False)
        if found is False:
            if len(self._entries) >= KEYS_KEPT:
                self._entries.clear()
            found = self._entries[cards] = self._entry(cards)
        return found  # type: ignore[return-value]

    def _entry(self, cards: str) -> tuple | None:
        kind = self.kind
        if self._bulk is None:
            self._filled += 1
            if self._filled > ENTRIES_BULK_AFTER:
                self._build()
        if self._bulk is not None:
            word = self._bulk.get(cards)
            return None if word is None else (tuple(sorted(map(kind.__getitem__, cards))), word)
        letters = key("".join(map(kind.__getitem__, cards)))
        words = self.index.by_key.get(letters)
        if not words:
            return None
        for word in words:  # A-Z
            if cards in self.spellings(word):
                return tuple(sorted(map(kind.__getitem__, cards))), word
        return None

    def _build(self) -> None:
        """The tables of every key at once: a run has gone on long enough to repay them (about 0.8 s)."""
        self._bulk = self._spelled_by()
        self.trie = CardTrie(self._bulk)
        self._short = self._one_short(self._bulk)

    def _one_short(self, spelled: dict[str, str]) -> dict[str, list]:
        """Every key of a spelling less one card of a single letter -> [(that letter, the key's word), ...]
        (in no order: sorting half a million lists would cost more than the lookups it saves): with_letter's
        answer for every key in one lookup."""
        alphabet = frozenset(self.alphabet)
        table: dict[str, list] = {}
        for cards, word in spelled.items():
            add_one_short(table, cards, word, alphabet)
        return table

    def _spelled_by(self) -> dict[str, str]:
        """Every key of a spelling -> the A-Z first word spelled so: _entry's answers for all keys at once."""
        table: dict[str, str] = {}
        for word in self.index.words:
            for spelled in self.spellings(word):
                before = table.get(spelled)
                if before is None or word < before:
                    table[spelled] = word
        return table

    def spellings(self, word: str) -> tuple[str, ...]:
        """The keys of every way to spell `word` with single letters and the cards of several letters."""
        found = self._spellings.get(word)
        if found is None:
            texts = [text for text in self.multi if text in word]
            if not texts:
                found = (word if len(word) < 2 else key(word),)
            else:
                cuts: set[str] = set()
                _cut(word, 0, texts, self.char, [], cuts)
                found = tuple(cuts)
            self._spellings[word] = found
        return found

    def with_letter(self, cards: str) -> Sequence[tuple[str, str]]:
        """((letter, the A-Z first word spelled by `cards` plus a card of that letter), ...), one per letter
        in any order.
        The first keys try each letter on the anagram table (most make no word); after BULK_AFTER keys
        (or once the table of every key is built), the table of keys one letter short answers in one lookup."""
        short = self._short
        if short is not None:
            return short.get(cards, ())
        found = self._wild_letters.get(cards)
        if found is None:
            self._asked += 1
            if self._asked > BULK_AFTER:
                self._build()
                return self.with_letter(cards)
            letters = cards if cards.isascii() or not self.multi else key("".join(map(self.kind.__getitem__, cards)))
            by_key, entry, out = self.index.by_key, self.entry, []
            for letter in self.alphabet:
                if _insert(letters, letter) in by_key:
                    hit = entry(_insert(cards, letter))
                    if hit is not None:
                        out.append((letter, hit[1]))
            found = self._wild_letters[cards] = tuple(out)
        return found

    def with_two_letters(self, cards: str) -> list[tuple[str, str, str]]:
        """(first letter, second letter, the A-Z first word spelled by `cards` plus both), the first letter
        not after the second, for each pair of letters."""
        short, out = self._short, []
        if short is None:
            with_letter = self.with_letter
            for first in self.alphabet:
                out += [(first, second, word) for second, word in with_letter(_insert(cards, first)) if second >= first]
            return out
        at, end = 0, len(cards)
        for first in self.alphabet:  # with_letter's table read directly: this runs for every key of a two-wild hand
            while at < end and cards[at] <= first:
                at += 1
            found = short.get(cards[:at] + first + cards[at:])
            if found:
                out += [(first, second, word) for second, word in found if second >= first]
        return out


def _insert(ordered: str, letter: str) -> str:
    """A sorted key with one more letter."""
    at = bisect_right(ordered, letter)
    return ordered[:at] + letter + ordered[at:]


def _cut(word: str, at: int, texts: list[str], char: dict[str, str], pieces: list[str], cuts: set[str]) -> None:
    """Every cutting of word[at:] into single letters and `texts`, each added to `cuts` as a key."""
    if at == len(word):
        cuts.add("".join(sorted(pieces)))
        return
    for text in texts:
        if word.startswith(text, at):
            pieces.append(char[text])
            _cut(word, at + len(text), texts, char, pieces, cuts)
            pieces.pop()
    pieces.append(word[at])
    _cut(word, at + 1, texts, char, pieces, cuts)
    pieces.pop()


def sub_keys(cards: str) -> list[tuple[str, int]]:
    """Every sub-multiset of a sorted key, each once, with the bit mask of the single letters (code below
    FIRST_CODE) it leaves out: the two halves' parts are cached, as hands share them."""
    heads, tails = sub_key_halves(cards)
    return [(head + tail, head_left | tail_left) for head, head_left in heads for tail, tail_left in tails]


def sub_key_halves(cards: str) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]:
    """sub_keys(cards) as two halves, each sub-multiset a head and a tail (head + tail, head's | tail's
    letters left out), for a caller that loops over them without the list of every pair."""
    half = len(cards) // 2
    while 0 < half < len(cards) and cards[half - 1] == cards[half]:
        half += 1  # a run of one card stays in one half
    return _subs(cards[:half]), _subs(cards[half:])


@lru_cache(maxsize=1 << 16)
def _subs(cards: str) -> tuple[tuple[str, int], ...]:
    subs: list[tuple[str, int]] = [("", 0)]
    for char, run in groupby(cards):
        count = len(tuple(run))
        bit = 1 << (ord(char) - 97) if ord(char) < FIRST_CODE else 0
        subs = [(sub + char * i, left | (bit if i < count else 0)) for sub, left in subs for i in range(count + 1)]
    return tuple(subs)
