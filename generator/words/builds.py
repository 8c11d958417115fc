"""Match, and every way to build one word from a set of letter sources."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from spellpress.model.languages import ALL_LETTERS

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


_MATCH_FIELDS = ("word", "cards", "wilds", "reusable", "table", "reusable_wilds", "parts")
_SETTERS = tuple(Match.__dict__[name].__set__ for name in _MATCH_FIELDS)


def new_match(word: str, cards: tuple[str, ...], wilds: tuple[str, ...], reusable: tuple[str, ...],
              table: tuple[str, ...], reusable_wilds: tuple[str, ...],
              parts: tuple[tuple[str, str], ...]) -> Match:
    """Match(word, cards, ...) for the finder's hot paths: the same object the
    dataclass __init__ makes (there is no __post_init__), in about a third of
    the time, by setting the slots directly."""
    match = _NEW(Match)
    set_word, set_cards, set_wilds, set_reusable, set_table, set_reusable_wilds, set_parts = _SETTERS
    set_word(match, word)
    set_cards(match, cards)
    set_wilds(match, wilds)
    set_reusable(match, reusable)
    set_table(match, table)
    set_reusable_wilds(match, reusable_wilds)
    set_parts(match, parts)
    return match


_NEW = object.__new__


def normalize_cards(cards: Iterable[str], what: str) -> Counter:
    counts: Counter[str] = Counter()
    for card in cards:
        card = card.lower()
        if not card or not all(letter in ALL_LETTERS for letter in card):
            raise ValueError(f"{what} cards must be letters a-z, or a language's own letters such as ä or ñ "
                             f"(pass wild cards as a count), got {card!r}")
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

    @cached_property
    def card_table(self):
        return _card_table(self)

    @property
    def reusable_letters(self) -> frozenset[str]:
        """Letters that can come from the reusable pool at all."""
        return self.reusable | VOWELS if self.reusable_wilds else self.reusable

    @property
    def skeleton_letters(self) -> frozenset[str]:
        """What the finder leaves out of lookup keys when anything is reusable:
        the reusable letters and all vowels, so every vowel-dice roll shares one table."""
        return self.reusable | VOWELS if self.reusable_letters else frozenset()


def _card_table(src: Sources):
    """Cards as parallel lists (text, source, letters owed if a must card,
    count), and the card indices by first letter."""
    texts, sources, owed, counts = [], [], [], []
    for pool, source, must in ((src.hand, HAND, False), (src.must, TABLE, True), (src.may, TABLE, False)):
        for text, n in pool.items():
            texts.append(text)
            sources.append(source)
            owed.append(len(text) if must else 0)
            counts.append(n)
    by_first: dict[str, list[int]] = {}
    for i, text in enumerate(texts):
        by_first.setdefault(text[0], []).append(i)
    return texts, sources, owed, counts, by_first


def builds(word: str, src: Sources, first_only: bool = False) -> list[Match]:
    """All distinct builds of `word` (or the first one) by depth-first search.

    At each position the options are tried in a fixed order (hand card, table
    card, wild, reusable), so the layout reported for a Match is deterministic.
    """
    texts, sources, owed, left, by_first = src.card_table
    left = list(left)
    n, reusable, reusable_wilds = len(word), src.reusable, src.reusable_wilds
    hand_left = {texts[i]: i for i, s in enumerate(sources) if s == HAND and len(texts[i]) == 1}
    found: dict[Match, None] = {}
    parts: list[tuple[str, str]] = []
    designated: list[str] = []
    wilds_left = src.wilds

    def emit() -> bool:
        by: dict[str, list[str]] = {HAND: [], TABLE: [], WILD: [], REUSABLE: []}
        for text, source in parts:
            by[source].append(text)
        if any(left[hand_left[c]] for c in by[WILD] if c in hand_left):
            return False  # a wild stands for a letter whose card stays in hand
        found.setdefault(Match(word, tuple(sorted(by[HAND])), tuple(sorted(by[WILD])),
                               tuple(sorted(by[REUSABLE])), tuple(sorted(by[TABLE])),
                               tuple(sorted(designated)), tuple(parts)))
        return True

    def walk(pos: int, owing: int) -> bool:
        nonlocal wilds_left
        if owing > n - pos:
            return False
        if pos == n:
            return emit() and first_only
        letter = word[pos]
        for i in by_first.get(letter, ()):
            if left[i] and word.startswith(texts[i], pos):
                left[i] -= 1
                parts.append((texts[i], sources[i]))
                done = walk(pos + len(texts[i]), owing - owed[i])
                parts.pop()
                left[i] += 1
                if done:
                    return True
        # A wild for a letter whose card is still unused only repeats a build
        # found with the card here (or is dominated, see emit): skip it.
        if wilds_left and not (letter in hand_left and left[hand_left[letter]]):
            wilds_left -= 1
            parts.append((letter, WILD))
            done = walk(pos + 1, owing)
            parts.pop()
            wilds_left += 1
            if done:
                return True
        if letter in reusable or letter in designated:
            parts.append((letter, REUSABLE))
            done = walk(pos + 1, owing)
            parts.pop()
            return done
        if letter in VOWELS and len(designated) < reusable_wilds:
            designated.append(letter)
            parts.append((letter, REUSABLE))
            done = walk(pos + 1, owing)
            parts.pop()
            designated.pop()
            return done
        return False

    walk(0, sum(o * c for o, c in zip(owed, left, strict=False)))
    return list(found)
