"""Going out: can a whole hand be split into words, every card used exactly once?

The hand's first card (in sorted order) must be in some word; each word the
finder builds from the hand with that card is tried, and the rest of the hand
is split the same way, memoized on what is left. Wild cards go where the
finder puts them, and wilds left over at the end can make words of their own.
The finder never lets a wild stand for a letter whose card is left unused in
that word; a split that needs one has another where the card and the wild
trade places, so no split is lost.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache

from spellpress.words.builds import Match
from spellpress.words.finder import WordFinder

_MEMO_LIMIT = 200_000   # remembered part-hands before the memo starts over


class GoingOut:
    def __init__(self, finder: WordFinder, min_length: int, word_lengths: frozenset[int]):
        self.finder = finder
        self.min_length = min_length
        self.lengths = frozenset(n for n in word_lengths if n >= min_length)
        self._memo: dict[tuple, bool] = {}

    def can_go_out(self, cards: Iterable[str], wilds: int = 0, reusable: Iterable[str] = (),
                   reusable_wilds: int = 0, matches: Iterable[Match] | None = None, spare_wilds: int = 0) -> bool:
        """Can these cards (letters or multi-letter texts) and wild cards all be laid
        down as words? `reusable` letters (dice) may be used by any word, any number of
        times; up to `spare_wilds` more wilds (a shared pile) may be used, not must.
        `matches`: the finder's words for exactly these cards and wilds, if already known."""
        if len(self._memo) > _MEMO_LIMIT:
            self._memo.clear()
        hand, dice = tuple(sorted(cards)), tuple(sorted(reusable))
        pieces = None if matches is None or spare_wilds else _pieces(matches)
        return any(self._split(hand, wilds + extra, dice, reusable_wilds, pieces) for extra in range(spare_wilds + 1))

    def _split(self, cards: tuple[str, ...], wilds: int, reusable: tuple[str, ...], reusable_wilds: int,
               pieces: frozenset[tuple[tuple[str, ...], int]] | None = None) -> bool:
        if not cards:
            return self._wilds_alone(wilds)
        key = (cards, wilds, reusable, reusable_wilds)
        known = self._memo.get(key)
        if known is not None:
            return known
        have = Counter(cards)
        if pieces is None or wilds:
            # a part-hand with wilds is asked afresh: the finder's builds depend on which cards are left
            pieces = _pieces(self.finder.find(cards, wilds=wilds, reusable=reusable, reusable_wilds=reusable_wilds,
                                              min_length=self.min_length))
        else:
            pieces = frozenset(piece for piece in pieces if piece[1] <= wilds and _fits(piece[0], have))
        first = cards[0]
        result = False
        for used, used_wilds in sorted((p for p in pieces if first in p[0]), key=lambda p: (-len(p[0]) - p[1], p)):
            rest = have.copy()
            rest.subtract(used)
            if self._split(tuple(sorted(rest.elements())), wilds - used_wilds, reusable, reusable_wilds, pieces):
                result = True
                break
        self._memo[key] = result
        return result

    def _wilds_alone(self, wilds: int) -> bool:
        return _sums_to(wilds, tuple(sorted(self.lengths)))


def _pieces(matches: Iterable[Match]) -> frozenset[tuple[tuple[str, ...], int]]:
    """What a word takes from the hand: its cards and how many wilds."""
    return frozenset((m.cards, len(m.wilds)) for m in matches)


def _fits(used: tuple[str, ...], have: Counter) -> bool:
    return all(have[card] >= n for card, n in Counter(used).items())


@cache
def _sums_to(total: int, lengths: tuple[int, ...]) -> bool:
    """Can `total` letters be cut into words of these lengths?"""
    if total == 0:
        return True
    return any(_sums_to(total - n, lengths) for n in lengths if n <= total)
