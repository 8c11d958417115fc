"""How many words of a list a hand makes, estimated from the list alone, before any hand is dealt.

The letter analysis and the simulations look up, for every hand, the words its letters make: the
work grows with how dense the list's short words are among all letter sets of their length, not
with the file's size. A real language's lists are sparse (a 7-letter hand makes about 11 to 13 of
their letter sets under this estimate: English, French, German, Spanish); a list of random letters
covers nearly every short letter set (57 for 0.5 MB, 90 for 4 MB) and made `letters` take minutes.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import comb

ESTIMATE_HAND = 7  # the default hand of `letters`


def letter_sets_made(words: Iterable[str], alphabet_size: int, hand: int = ESTIMATE_HAND) -> float:
    """The expected number of the list's distinct letter sets (sorted letters, of 2 to `hand` letters)
    that a hand of `hand` different letters holds, were letters equally likely: for each length n, the
    share of all multisets of n letters that the list has, times the C(hand, n) sets the hand holds."""
    keys: dict[int, set[str]] = {n: set() for n in range(2, hand + 1)}
    for word in words:
        if 2 <= len(word) <= hand:
            keys[len(word)].add("".join(sorted(word)))
    return sum(len(found) / comb(alphabet_size + n - 1, n) * comb(hand, n) for n, found in keys.items())
