import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from words_reference import BAG, brute_builds, brute_find
from generator.words.finder import Match, WordFinder

CONSONANTS = "".join(c for c in BAG if c not in "aeiouy")
DIGRAPHS = ["qu", "th", "er", "in", "st", "ch"]


def signature(m: Match):
    return (m.word, m.cards, m.wilds, m.reusable, m.table, m.reusable_wilds)


def check_parts(m: Match):
    """A Match's layout spells its word and uses exactly its sources."""
    assert "".join(text for text, _ in m.parts) == m.word
    by = {"hand": [], "wild": [], "reusable": [], "table": []}
    for text, source in m.parts:
        by[source].append(text)
    assert tuple(sorted(by["hand"])) == m.cards
    assert tuple(sorted(by["wild"])) == m.wilds
    assert tuple(sorted(by["reusable"])) == m.reusable
    assert tuple(sorted(by["table"])) == m.table


def assert_same_as_brute(finder, lexicon, word_counts, **query):
    got = finder.find(**query)
    sigs = [signature(m) for m in got]
    assert len(sigs) == len(set(sigs)), "duplicate builds"
    expected = brute_find(lexicon.words, word_counts, **query)
    assert set(sigs) == expected
    for m in got:
        check_parts(m)
    return got


def hand_of(rng, n, pool=BAG):
    return "".join(rng.sample(pool, n))


@pytest.mark.parametrize("wilds", [0, 1])
def test_plain_hands_match_brute_force(finder, lexicon, word_counts, wilds):
    rng = random.Random(100 + wilds)
    for _ in range(15):
        hand = hand_of(rng, rng.randint(3, 8))
        assert_same_as_brute(finder, lexicon, word_counts, hand=hand, wilds=wilds)


def test_two_wilds_match_brute_force(finder, lexicon, word_counts):
    rng = random.Random(7)
    for _ in range(6):
        assert_same_as_brute(finder, lexicon, word_counts, hand=hand_of(rng, 5), wilds=2)


def test_digraph_cards_and_table_match_brute_force(finder, lexicon, word_counts):
    rng = random.Random(11)
    for i in range(30):
        hand = [*hand_of(rng, rng.randint(3, 6)), *rng.sample(DIGRAPHS, rng.randint(1, 2))]
        hand = [c.upper() if rng.random() < 0.3 else c for c in hand]  # case-insensitive
        must = list(hand_of(rng, rng.randint(0, 1))) + ([rng.choice(DIGRAPHS)] if i % 5 == 0 else [])
        may = list(hand_of(rng, rng.randint(0, 2)))
        assert_same_as_brute(finder, lexicon, word_counts, hand=hand, wilds=i % 2,
                             must_use=must, may_use=may)


def test_must_use_letters_appear_in_every_word(finder):
    found = finder.find("stare", must_use=["p"])
    assert found and all("p" in m.word and m.table == ("p",) for m in found)
    assert "pares" in {m.word for m in found}
    assert "stare" not in {m.word for m in found}
    assert finder.find("xx", must_use=["q", "z", "j"]) == []


def test_reusable_vowels_match_brute_force(finder, lexicon, word_counts):
    rng = random.Random(21)
    for i in range(30):
        hand = hand_of(rng, 5, CONSONANTS)
        reusable = rng.sample("aeiou", rng.randint(0, 2))
        dice_wilds = rng.randint(0 if reusable else 1, 2 - len(reusable))
        assert_same_as_brute(finder, lexicon, word_counts, hand=hand, reusable=reusable,
                             reusable_wilds=dice_wilds)


def test_reusable_with_vowel_cards_and_wilds_match_brute_force(finder, lexicon, word_counts):
    rng = random.Random(23)
    for i in range(10):
        hand = [*hand_of(rng, 4, CONSONANTS), rng.choice("aey"), *(["th"] if i % 3 == 0 else [])]
        assert_same_as_brute(finder, lexicon, word_counts, hand=hand, wilds=int(i % 4 == 1),
                             reusable=rng.sample("aeiou", 1), reusable_wilds=int(i % 4 >= 2),
                             may_use=["s"] if i % 4 == 0 else ())


def test_reusable_letters_are_reusable(finder):
    words = {m.word: m for m in finder.find("nn", reusable="a")}
    assert words["naan"].reusable == ("a", "a") and words["naan"].cards == ("n", "n")
    banana = {m.word for m in finder.find("bnn", reusable="a")}
    assert "banana" in banana


def test_reusable_wild_names_one_vowel(finder):
    found = {signature(m) for m in finder.find("strp", reusable_wilds=1)}
    words = {s[0] for s in found}
    assert "strip" in words and "strap" in words
    assert all(len(s[5]) <= 1 for s in found)
    assert "sprites" not in words  # would need both e and i


def test_min_length(finder, lexicon, word_counts):
    for min_length in (1, 4, 6):
        got = assert_same_as_brute(finder, lexicon, word_counts, hand="retains", wilds=1,
                                   min_length=min_length)
        assert min(len(m.word) for m in got) == min_length


def test_wild_never_replaces_a_card_left_in_hand(finder):
    for m in finder.find("cater", wilds=1):
        for letter in m.wilds:
            assert Counter(m.cards)[letter] == Counter("cater")[letter]
    words = Counter(m.word for m in finder.find("cater", wilds=1))
    assert words["cater"] == 1 and words["crate"] == 1  # only the build without the wild


def test_wild_builds_record_the_letter_and_position(finder):
    m = next(m for m in finder.find("sse", wilds=1) if m.word == "sees")
    assert m.wilds == ("e",) and m.cards == ("e", "s", "s")
    assert [src for _, src in m.parts].count("wild") == 1


def test_digraph_card_must_be_contiguous(finder):
    words = {m.word for m in finder.find(["qu", "i", "t", "e"])}
    assert {"quit", "quite", "quiet"} <= words
    assert not {w for w in words if "q" in w and "qu" not in w}
    assert "tie" in words
    # "u" and "q" are not separately available: no "quiet" spelled q-u from a QU card split
    assert all("qu" in m.cards or "q" not in m.word for m in finder.find(["qu", "i", "t", "e"]))


def test_best_and_longest(finder):
    points = {c: 1 for c in "abcdefghijklmnopqrstuvwxyz"} | {"q": 10, "z": 10, "x": 8}
    best = finder.best("zaniest", score=lambda m: sum(points[c] for c in m.cards))
    assert "z" in best.word
    longest = finder.longest("retains")
    assert longest.word == "antsier"  # of antsier, nastier, retains, retinas, retsina
    assert finder.longest("xq") is None
    assert finder.best("bcd", score=lambda m: 0) is None
    # ties prefer fewer wilds, then alphabetical order
    assert finder.longest("cat", wilds=1).word == min(
        m.word for m in finder.find("cat", wilds=1) if len(m.word) == 4)


DETERMINISM_SCRIPT = """
from generator.words.finder import WordFinder
from generator.words.lexicon import Lexicon
f = WordFinder(Lexicon())
for query in (dict(hand="retains"), dict(hand="retains", wilds=1), dict(hand="strnk", reusable="a",
              reusable_wilds=1), dict(hand=["qu", "i", "e", "t", "s"], wilds=1, must_use=["r"])):
    print([(m.word, m.cards, m.wilds, m.reusable, m.table, m.parts) for m in f.find(**query)])
"""


def test_results_do_not_depend_on_hash_seed():
    root = Path(__file__).resolve().parents[2]
    outputs = {subprocess.run([sys.executable, "-c", DETERMINISM_SCRIPT], cwd=root, check=True,
                              capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2")}
    assert len(outputs) == 1


def test_can_make_word_agrees_with_brute_force(finder, lexicon):
    rng = random.Random(31)
    words = rng.sample(lexicon.words, 300)
    for i, word in enumerate(words):
        if i % 3 == 0:
            hand = list(word)
            rng.shuffle(hand)
            hand = hand[: len(hand) - rng.randint(0, 2)] + list(hand_of(rng, 2))
        else:
            hand = list(hand_of(rng, 7))
        wilds = i % 3
        query = dict(wilds=wilds)
        if i % 4 == 0:
            query = dict(reusable=rng.sample("aeiou", 1), reusable_wilds=1)
        if i % 5 == 0:
            hand = hand + ["th", "qu"]
        expected = bool(brute_builds(word, hand, **query))
        assert finder.can_make_word(word, hand, **query) == expected, (word, hand, query)


def test_can_make_word_rejects_words_outside_the_lexicon(finder):
    assert finder.can_make_word("stare", "staer")
    assert finder.can_make_word("STARE", "STAER")
    assert not finder.can_make_word("aerst", "staer")
    assert not finder.can_make_word("stare", "star")
    assert finder.can_make_word("stare", "star", wilds=1)


@pytest.mark.parametrize("hand", [["?"], ["a", "1"], ["é"], [""], "ab?"])
def test_bad_cards_raise(finder, hand):
    with pytest.raises(ValueError):
        finder.find(hand)


@pytest.mark.parametrize("query", [dict(wilds=-1), dict(reusable_wilds=-1), dict(reusable=["ae"])])
def test_bad_options_raise(finder, query):
    with pytest.raises(ValueError):
        finder.find("abc", **query)


def test_accepts_custom_word_lists():
    finder = WordFinder(["cat", "act", "tack", "at"])
    assert {m.word for m in finder.find("tac")} == {"cat", "act", "at"}
    assert {m.word for m in finder.find("tac", wilds=1)} == {"cat", "act", "at", "tack"}
