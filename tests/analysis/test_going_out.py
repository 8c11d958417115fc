"""Going out: exact odds against a brute-force count, sampled intervals, small hands exact."""

import itertools
import math
import string

import pytest

from spellpress.analysis.going_out import GoingOut
from spellpress.analysis.mix import LetterCard, LetterMix
from spellpress.analysis.playability import HandRules, playability
from spellpress.words.finder import WordFinder
from spellpress.words.lexicon import Lexicon

WORDS = ["at", "ta", "the", "than", "hat", "that", "eat", "tea", "ate", "sea", "seat", "as", "this", "then",
         "hen", "he", "eh", "nth", "tan", "ant", "net", "ten", "sat", "set", "ah", "ha", "an", "en"]


def tiny_mix():
    cards = [LetterCard("t", 1, 3, "x"), LetterCard("a", 1, 2, "x"), LetterCard("e", 1, 2, "x"),
             LetterCard("n", 1, 1, "x"), LetterCard("s", 1, 1, "x"), LetterCard("th", 3, 2, "x")]
    return LetterMix(tuple(cards), wild_cards=1, dice=())


def spells_a_word(cards: tuple[str, ...], words: set[str], min_length: int) -> bool:
    """Some order of these cards, each wild any letter, is a word."""
    for order in set(itertools.permutations(cards)):
        wild_places = [i for i, card in enumerate(order) if card == "?"]
        for letters in itertools.product(string.ascii_lowercase, repeat=len(wild_places)):
            filled = list(order)
            for i, letter in zip(wild_places, letters, strict=False):
                filled[i] = letter
            word = "".join(filled)
            if len(word) >= min_length and word in words:
                return True
    return False


def splits_into_words(hand: list[str], words: set[str], min_length: int) -> bool:
    """Brute force: some partition of the cards into blocks, each spelling a word."""
    if not hand:
        return True
    first, rest = hand[0], hand[1:]
    for size in range(len(rest) + 1):
        for others in itertools.combinations(range(len(rest)), size):
            block = (first,) + tuple(rest[i] for i in others)
            if spells_a_word(block, words, min_length):
                left = [card for i, card in enumerate(rest) if i not in others]
                if splits_into_words(left, words, min_length):
                    return True
    return False


@pytest.mark.parametrize("size", [2, 4])
def test_exact_going_out_matches_a_brute_force_count(size):
    finder = WordFinder(Lexicon(min_length=2, words=WORDS))
    mix = tiny_mix()
    result = playability(mix, HandRules(hand=size, min_length=2), finder, samples=10, seed=1)
    assert result.method == "exact"
    deck = [card.letters for card in mix.cards for _ in range(card.count)] + ["?"]
    words = set(WORDS)
    good = total = 0
    for hand in itertools.combinations(range(len(deck)), size):
        total += 1
        good += splits_into_words([deck[i] for i in hand], words, 2)
    assert total == math.comb(len(deck), size)
    assert 0 < good < total
    assert result.tally.going_out / result.tally.weight == pytest.approx(good / total, abs=1e-12)


def test_sampled_going_out_interval_contains_the_exact_value():
    finder = WordFinder(Lexicon(min_length=2, words=WORDS))
    mix, rules = tiny_mix(), HandRules(hand=4, min_length=2)
    exact = playability(mix, rules, finder, samples=10, seed=1)
    sampled = playability(mix, rules, finder, samples=3000, seed=5, method="sampled")
    p = exact.tally.going_out / exact.tally.weight
    low, high = sampled.probability(sampled.tally.going_out)["ci95"]
    assert low <= p <= high
    assert high - low < 0.05


def test_a_word_with_a_wild_where_a_card_of_that_letter_is_used_elsewhere():
    # "at" + "at": the second A is a wild while the A card sits in the other word
    going = GoingOut(WordFinder(Lexicon(min_length=2, words=["at"])), 2, frozenset({2}))
    assert going.can_go_out(("a", "t", "t"), wilds=1)
    assert not going.can_go_out(("a", "t", "t"), wilds=0)
    assert not going.can_go_out(("a", "t"), wilds=1)   # a wild alone is no word


def test_spare_wilds_may_be_left_unused():
    going = GoingOut(WordFinder(Lexicon(min_length=2, words=["at", "cat"])), 2, frozenset({2, 3}))
    assert going.can_go_out(("a", "t"), spare_wilds=1)
    assert going.can_go_out(("a", "c"), spare_wilds=1)
    assert not going.can_go_out(("a", "c"), spare_wilds=0)
