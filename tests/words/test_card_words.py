"""Word Rummy's words by card multiset (generator/words/card_words.py) give exactly what the word
finder gives a hand: the same sets of cards, each with the same word, in the same order (the split
search, and so every game, depends on that order)."""

from __future__ import annotations

import random

import pytest

from spellpress.load.game import load_game
from spellpress.rules.settings import settings_for
from spellpress.rules.word_rummy.content import content_for
from spellpress.rules.word_rummy.settings import WordRummySettings
from spellpress.words import card_words
from spellpress.words.card_trie import CardTrie
from spellpress.words.card_words import CardWords, sub_keys
from spellpress.words.index import LetterIndex
from tests.conftest import ROOT


@pytest.fixture(scope="module")
def content():
    game = load_game(ROOT / "cards" / "word-rummy")
    return content_for(game, settings_for(game, WordRummySettings, "word-rummy", None))


def hands(content, seed: int, count: int):
    """Seeded hands of 3 to 10 cards from the deck; every other one holds a wild or a card of several letters."""
    deck = sorted(kind for kind, n in content.counts.items() for _ in range(n))
    rng = random.Random(seed)
    for i in range(count):
        hand = rng.sample(deck, rng.randint(3, 10))
        if i % 2:
            hand[0] = rng.choice([content.wild, "th", "er", "in", "qu"])
        yield tuple(sorted(hand))


@pytest.mark.slow
@pytest.mark.parametrize("bulk_after", [0, 10**9], ids=["whole-tables", "key-by-key"])
def test_the_same_words_as_the_finder_for_seeded_hands(content, monkeypatch, bulk_after):
    monkeypatch.setattr(card_words, "BULK_AFTER", bulk_after)
    monkeypatch.setattr(card_words, "ENTRIES_BULK_AFTER", bulk_after)
    monkeypatch.setattr(content, "card_words", CardWords(content.finder.index, content.card_words.multi,
                                                         content.finder.alphabet))
    for hand in hands(content, 39, 300):
        assert content._words_of(hand) == content._finder_words(hand), hand


@pytest.mark.parametrize("hand", [
    ("*", "b", "in", "l", "m", "r", "w"),   # a wild with a card of several letters
    ("*", "e", "h", "r", "s", "t", "t"),    # a wild with single letters: ordered by the wild's letter
    ("*", "b", "e", "er", "l", "o", "o", "r", "t", "th"),  # a word spelled two ways by as many cards
])
def test_the_same_words_as_the_finder(content, hand):
    assert content._words_of(hand) == content._finder_words(hand)


def test_spellings_cut_a_word_every_way():
    words = CardWords(LetterIndex(["there"]), ("e", "er", "h", "r", "t", "th"), "abcdefghijklmnopqrstuvwxyz")
    th, er = words.char["th"], words.char["er"]
    assert sorted(words.spellings("there")) == sorted(
        {"eehrt", "".join(sorted("ee" + th + "r")), "".join(sorted("eht" + er)), "".join(sorted("e" + th + er))})
    assert words.entry(words.chars(("e", "er", "th"))) == (("e", "er", "th"), "there")
    assert words.entry(words.chars(("e", "er", "t", "t"))) is None


def test_sub_keys_are_every_sub_multiset_once_with_the_letters_left():
    subs = sub_keys("aabc")
    assert sorted(sub for sub, _ in subs) == sorted({"", "a", "aa", "b", "c", "ab", "aab", "ac", "aac", "bc",
                                                     "abc", "aabc"})
    assert len(subs) == 12
    assert dict(subs)["ab"] == 0b101  # an a and the c left out


def test_the_trie_walk_finds_every_key_within_the_hand_once():
    kinds = ("e", "er", "h", "i", "in", "n", "r", "s", "t", "th")
    words = CardWords(LetterIndex(["ether", "her", "here", "hers", "inert", "inn", "nth", "rein", "rest", "sir",
                                   "the", "there", "thin", "three", "tin", "tree", "trees"]), kinds, "eihnrst")
    spelled = words._spelled_by()
    trie, rng = CardTrie(spelled), random.Random(39)
    for _ in range(200):
        hand = words.chars(rng.choices(kinds, k=rng.randint(1, 9)))
        found = trie.words(hand)
        assert len(found) == len(dict(found))
        assert dict(found) == {sub: spelled[sub] for sub, _ in sub_keys(hand) if sub in spelled}, hand
