"""Reference implementations for the finder tests: slow, simple, independent.

brute_find scans every word, cuts it into pieces every possible way, and keeps
the cuttings whose use of cards, wilds and reusable letters fits the sources.
"""

from __future__ import annotations

from collections import Counter

VOWELS = set("aeiouy")

# Scrabble-like letter mix: English-like hands.
LETTER_MIX = {"e": 12, "a": 9, "i": 9, "o": 8, "n": 6, "r": 6, "t": 6, "l": 4, "s": 4,
              "u": 4, "d": 4, "g": 3, "b": 2, "c": 2, "m": 2, "p": 2, "f": 2, "h": 2,
              "v": 2, "w": 2, "y": 2, "k": 1, "j": 1, "x": 1, "q": 1, "z": 1}
BAG = "".join(letter * n for letter, n in LETTER_MIX.items())


def _options(word, pos, cards, wild_ok, reusable_ok):
    for card in cards:
        if word.startswith(card, pos):
            yield card, "card:" + card
    letter = word[pos]
    if wild_ok:
        yield letter, "wild"
    if reusable_ok(letter):
        yield letter, "reusable"


def _cuttings(word, pos, cards, wild_ok, reusable_ok):
    if pos == len(word):
        yield []
        return
    for text, how in _options(word, pos, cards, wild_ok, reusable_ok):
        for rest in _cuttings(word, pos + len(text), cards, wild_ok, reusable_ok):
            yield [(text, how)] + rest


def brute_builds(word, hand, wilds=0, must_use=(), may_use=(), reusable=(), reusable_wilds=0):
    """Set of (word, cards, wilds, reusable, table, reusable_wilds) signatures."""
    hand = Counter(c.lower() for c in hand)
    must = Counter(c.lower() for c in must_use)
    may = Counter(c.lower() for c in may_use)
    reusable = {c.lower() for c in reusable}
    all_cards = set(hand) | set(must) | set(may)

    def reusable_ok(letter):
        return letter in reusable or (reusable_wilds > 0 and letter in VOWELS)

    found = set()
    for cutting in _cuttings(word, 0, all_cards, wilds > 0, reusable_ok):
        used_cards = Counter(text for text, how in cutting if how.startswith("card:"))
        wild_letters = [text for text, how in cutting if how == "wild"]
        reused = [text for text, how in cutting if how == "reusable"]
        set_by_dice = set(reused) - reusable
        if len(wild_letters) > wilds or len(set_by_dice) > reusable_wilds:
            continue
        # split each card's uses between must (all required), hand and may
        for card, n in used_cards.items():
            if n < must[card] or n > must[card] + hand[card] + may[card]:
                break
        else:
            if any(must[c] > used_cards[c] for c in must):
                continue
            for split in _splits(used_cards, hand, must, may):
                hand_used, may_used = split
                if any(hand_used[w] < hand[w] for w in wild_letters):
                    continue  # a wild for a letter whose card stays in hand
                table = sorted((must + may_used).elements())
                found.add((word, tuple(sorted(hand_used.elements())), tuple(sorted(wild_letters)),
                           tuple(sorted(reused)), tuple(table), tuple(sorted(set_by_dice))))
    return found


def _splits(used, hand, must, may):
    """Ways to take each card's uses beyond the must count from hand and may."""
    splits = [(Counter(), Counter())]
    for card, n in used.items():
        extra = n - must[card]
        options = [(h, extra - h) for h in range(extra + 1) if h <= hand[card] and extra - h <= may[card]]
        splits = [(hu + Counter({card: h}), mu + Counter({card: m}))
                  for hu, mu in splits for h, m in options]
    return splits


def feasible(word_counts, available, wilds, unlimited):
    """Quick letter-count filter (necessary, not sufficient)."""
    short = 0
    for letter, n in word_counts.items():
        if letter in unlimited:
            continue
        if n > available[letter]:
            short += n - available[letter]
            if short > wilds:
                return False
    return True


def brute_find(words, counts, hand, wilds=0, must_use=(), may_use=(), reusable=(),
               reusable_wilds=0, min_length=2):
    available = Counter()
    for card in [*hand, *must_use, *may_use]:
        available.update(card.lower())
    unlimited = {c.lower() for c in reusable} | (VOWELS if reusable_wilds else set())
    found = set()
    for word in words:
        if len(word) >= min_length and feasible(counts[word], available, wilds, unlimited):
            found |= brute_builds(word, hand, wilds, must_use, may_use, reusable, reusable_wilds)
    return found
