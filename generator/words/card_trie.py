"""The words a hand of cards makes without a wild, found by walking a trie of the words' card keys (Word
Rummy's search once a run has gone on: card_words.py answers the first keys one at a time).

A key is a spelling's card characters sorted (card_words.py); the trie holds every key, a node per
prefix, and at a key's node the A-Z first word spelled by exactly those cards. The walk adds the
hand's cards in key order and stops a branch as soon as no key starts with it: a 10-card hand visits
about 220 prefixes instead of looking up its about 660 sub-multisets (up to 1,024).

The words that take a wild are not walked: a wild may stand for any letter at any place in a key, so
that walk visits many more prefixes than card_words' one lookup per sub-multiset in its table of keys
one letter short (measured: games 20% slower walked).
"""

from __future__ import annotations

WORD = ""  # a node's word is kept under the empty key: no card's character


class CardTrie:
    """Every key of a spelling -> its word, as a trie of dicts (character -> node, WORD -> the word)."""

    def __init__(self, spelled: dict[str, str]):
        root: dict = {}
        for cards, word in spelled.items():
            node = root
            for char in cards:
                child = node.get(char)
                if child is None:
                    child = node[char] = {}
                node = child
            node[WORD] = word
        self.root = root

    def words(self, hand: str) -> list[tuple[str, str]]:
        """(key, word) for every sub-multiset of `hand` (a sorted key) that spells a word."""
        return _Walk(hand, self.root).found


class _Walk:
    """One hand's walk: an object, not a nested function, since a nested function that calls itself is a
    reference cycle that only the garbage collector frees."""

    def __init__(self, hand: str, root: dict):
        self.chars = chars = sorted(set(hand))
        self.counts = [hand.count(char) for char in chars]
        self.found: list[tuple[str, str]] = []
        self.walk(root, "", 0, 0)

    def walk(self, node: dict, cards: str, at: int, taken: int) -> None:
        """From `node` (the key `cards`) on: more of chars[at], of which `taken` are in, and the kinds after it."""
        word = node.get(WORD)
        if word is not None:
            self.found.append((cards, word))
        chars = self.chars
        if taken < self.counts[at]:
            child = node.get(chars[at])
            if child is not None:
                self.walk(child, cards + chars[at], at, taken + 1)
        for later in range(at + 1, len(chars)):
            child = node.get(chars[later])
            if child is not None:
                self.walk(child, cards + chars[later], later, 1)
