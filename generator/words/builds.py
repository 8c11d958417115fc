"""Match, and every way to build one word from a set of letter sources."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

VOWELS = frozenset("aeiouy")
HAND, TABLE, WILD, REUSABLE = "hand", "table", "wild", "reusable"


@dataclass(frozen=True, slots=True)
class Match:
    """One way to build `word`. Two builds that use the same cards, wild
    letters, reusable letters and table cards are the same Match; `parts`
    (the word cut into (text, source) pieces, in order) shows one layout."""

    word: str
    cards: tuple[str, ...] = ()           # hand cards used, sorted
    wilds: tuple[str, ...] = ()           # letters the wild cards stand for, sorted
    reusable: tuple[str, ...] = ()        # one entry per use of a reusable letter, sorted
    table: tuple[str, ...] = ()           # table cards used (must_use and may_use), sorted
    reusable_wilds: tuple[str, ...] = ()  # vowels the reusable wilds were set to, sorted
    parts: tuple[tuple[str, str], ...] = field(default=(), compare=False)


def normalize_cards(cards: Iterable[str], what: str) -> Counter:
    counts = Counter()
    for card in cards:
        card = card.lower()
        if not (card.isascii() and card.isalpha()):
            raise ValueError(f"{what} cards must be letters a-z (pass wild cards as a count), got {card!r}")
        counts[card] += 1
    return counts


@dataclass(frozen=True)
class Sources:
    """Everything a word may be built from, normalized."""

    hand: Counter
    must: Counter
    may: Counter
    wilds: int = 0
    reusable: frozenset[str] = frozenset()
    reusable_wilds: int = 0

    @classmethod
    def make(cls, hand=(), wilds=0, must_use=(), may_use=(), reusable=(), reusable_wilds=0):
        letters = frozenset(normalize_cards(reusable, "reusable"))
        if any(len(letter) != 1 for letter in letters):
            raise ValueError("reusable entries must be single letters")
        if wilds < 0 or reusable_wilds < 0:
            raise ValueError("wild counts cannot be negative")
        return cls(normalize_cards(hand, "hand"), normalize_cards(must_use, "must_use"),
                   normalize_cards(may_use, "may_use"), wilds, letters, reusable_wilds)

    @property
    def reusable_letters(self) -> frozenset[str]:
        """Letters that can come from the reusable pool at all."""
        return self.reusable | VOWELS if self.reusable_wilds else self.reusable


def builds(word: str, src: Sources, first_only: bool = False) -> list[Match]:
    """All distinct builds of `word` (or the first one) by depth-first search.

    At each position the options are tried in a fixed order (hand card, table
    card, wild, reusable), so the layout reported for a Match is deterministic.
    """
    n = len(word)
    hand, must, may = dict(src.hand), dict(src.must), dict(src.may)
    must_letters = sum(len(c) * k for c, k in must.items())
    found: dict[Match, None] = {}
    parts: list[tuple[str, str]] = []
    designated: list[str] = []
    state = {"wilds": src.wilds, "must_letters": must_letters}

    def emit() -> bool:
        by = {HAND: [], TABLE: [], WILD: [], REUSABLE: []}
        for text, source in parts:
            by[source].append(text)
        if any(hand.get(letter) for letter in by[WILD]):
            return False  # a wild stands for a letter whose card stays in hand
        found.setdefault(Match(word, tuple(sorted(by[HAND])), tuple(sorted(by[WILD])),
                               tuple(sorted(by[REUSABLE])), tuple(sorted(by[TABLE])),
                               tuple(sorted(designated)), tuple(parts)))
        return True

    def use_card(pool: dict, card: str, source: str, pos: int, is_must: bool) -> bool:
        pool[card] -= 1
        if is_must:
            state["must_letters"] -= len(card)
        parts.append((card, source))
        done = walk(pos + len(card))
        parts.pop()
        if is_must:
            state["must_letters"] += len(card)
        pool[card] += 1
        return done

    def walk(pos: int) -> bool:
        if state["must_letters"] > n - pos:
            return False
        if pos == n:
            return emit() and first_only
        for pool, source, is_must in ((hand, HAND, False), (must, TABLE, True), (may, TABLE, False)):
            for card, left in pool.items():
                if left and word.startswith(card, pos) and use_card(pool, card, source, pos, is_must):
                    return True
        letter = word[pos]
        if state["wilds"]:
            state["wilds"] -= 1
            parts.append((letter, WILD))
            done = walk(pos + 1)
            parts.pop()
            state["wilds"] += 1
            if done:
                return True
        if letter in src.reusable or letter in designated:
            parts.append((letter, REUSABLE))
            done = walk(pos + 1)
            parts.pop()
            return done
        if letter in VOWELS and len(designated) < src.reusable_wilds:
            designated.append(letter)
            parts.append((letter, REUSABLE))
            done = walk(pos + 1)
            parts.pop()
            designated.pop()
            return done
        return False

    walk(0)
    return list(found)
