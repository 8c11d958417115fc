import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from words_reference import BAG, brute_builds, brute_find

from spellpress.words.builds import Sources, new_match
from spellpress.words.finder import Match, WordFinder
from spellpress.words.index import ShortKeys, key, sub_multisets

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


@pytest.mark.slow
@pytest.mark.parametrize("wilds", [0, 1])
def test_plain_hands_match_brute_force(finder, lexicon, word_counts, wilds):
    rng = random.Random(100 + wilds)
    for _ in range(15):
        hand = hand_of(rng, rng.randint(3, 8))
        assert_same_as_brute(finder, lexicon, word_counts, hand=hand, wilds=wilds)


@pytest.mark.slow
def test_two_wilds_match_brute_force(finder, lexicon, word_counts):
    rng = random.Random(7)
    for _ in range(6):
        assert_same_as_brute(finder, lexicon, word_counts, hand=hand_of(rng, 5), wilds=2)


@pytest.mark.slow
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


@pytest.mark.slow
def test_reusable_vowels_match_brute_force(finder, lexicon, word_counts):
    rng = random.Random(21)
    for _ in range(30):
        hand = hand_of(rng, 5, CONSONANTS)
        reusable = rng.sample("aeiou", rng.randint(0, 2))
        dice_wilds = rng.randint(0 if reusable else 1, 2 - len(reusable))
        assert_same_as_brute(finder, lexicon, word_counts, hand=hand, reusable=reusable,
                             reusable_wilds=dice_wilds)


@pytest.mark.slow
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
from spellpress.words.finder import WordFinder
from spellpress.words.lexicon import Lexicon
f = WordFinder(Lexicon())
for query in (dict(hand="retains"), dict(hand="retains", wilds=1), dict(hand="strnk", reusable="a",
              reusable_wilds=1), dict(hand=["qu", "i", "e", "t", "s"], wilds=1, must_use=["r"])):
    print([(m.word, m.cards, m.wilds, m.reusable, m.table, m.parts) for m in f.find(**query)])
"""


@pytest.mark.slow
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


# -- the fast paths give exactly what the plain search gives -----------------
# find() answers most queries without builds()' depth-first search; the search
# (candidates by letter counts, then builds() per word) stays as the reference,
# itself checked against brute force above. Same Matches, same order, same layouts.

MULTI = ["qu", "th", "er", "in", "st", "ch", "ss", "ee", "ing", "tt"]


def full(matches):
    return [(signature(m), m.parts) for m in matches]


def assert_same_as_search(finder, in_order=True, **query):
    src = Sources.make(query["hand"], query.get("wilds", 0), query.get("must_use", ()),
                       query.get("may_use", ()), query.get("reusable", ()), query.get("reusable_wilds", 0))
    got, expected = full(finder.find(**query)), full(finder._find_by_search(src, query.get("min_length", 2)))
    if in_order:
        assert got == expected, query
    else:
        assert len(got) == len(set(got)) and set(got) == set(expected), query
    return finder.find(**query)


def random_card_query(rng, i):
    letters = hand_of(rng, rng.randint(2, 7))
    hand = [*letters[: rng.randint(1, 6)], *rng.sample(MULTI, rng.randint(1, 2))]
    if i % 7 == 0:
        hand.append(hand[-1])                           # two of one multi-letter card
    if i % 5 == 0:
        hand.append(hand[-1][0])                        # and the single card of its first letter
    rng.shuffle(hand)                                   # card order decides which layout comes first
    query = dict(hand=hand, wilds=rng.choice([0, 1, 1, 2]), min_length=rng.choice([1, 2, 3]))
    kind = i % 4
    if kind in (1, 3):
        query["must_use"] = list(hand_of(rng, rng.randint(1, 4))) + (
            [rng.choice(MULTI)] if i % 3 == 0 else [])
    if kind in (2, 3):
        query["may_use"] = list(hand_of(rng, rng.randint(1, 3))) + (
            [rng.choice(hand)] if i % 2 else [])           # a card that is also in the hand
    return query


@pytest.mark.slow
def test_card_queries_match_the_search(finder):
    rng = random.Random(41)
    for i in range(120):
        assert_same_as_search(finder, **random_card_query(rng, i))


def test_card_order_decides_layout_and_order(finder):
    for hand in (["t", "h", "th", "e"], ["th", "t", "h", "e"], ["th", "e", "t", "h", "th"],
                 ["s", "ss", "e", "s", "l"], ["ss", "s", "s", "e", "l", "ee"]):
        for wilds in (0, 1, 2):
            found = assert_same_as_search(finder, hand=hand, wilds=wilds)
            assert found
    first = [m.parts for m in finder.find(["t", "h", "th", "e"]) if m.word == "the"]
    second = [m.parts for m in finder.find(["th", "t", "h", "e"]) if m.word == "the"]
    assert first == second[::-1] and len(first) == 2   # each hand's own card first


@pytest.mark.slow
def test_table_letters_shared_with_the_hand_match_the_search(finder):
    rng = random.Random(43)
    for i in range(40):
        hand = hand_of(rng, rng.randint(3, 7))
        table = list(hand_of(rng, rng.randint(1, 6)))
        query = dict(hand=hand, wilds=i % 3)
        if i % 2:
            query["must_use"] = table
        else:
            query["may_use"] = table + [rng.choice(hand)]
            query["must_use"] = [rng.choice(hand)] if i % 4 == 0 else []
        assert_same_as_search(finder, **query)


@pytest.mark.slow
def test_two_and_three_wilds_match_the_search(finder):
    rng = random.Random(47)
    for _ in range(25):
        hand = hand_of(rng, rng.randint(1, 7))
        assert_same_as_search(finder, hand=hand, wilds=2, min_length=rng.choice([1, 2, 4]))
    for _ in range(4):
        assert_same_as_search(finder, hand=hand_of(rng, 3), wilds=3)
        assert_same_as_search(finder, hand=[*hand_of(rng, 2), "qu"], wilds=3)


@pytest.mark.slow
def test_single_letter_hands_match_the_search_with_any_min_length(finder):
    """The single-letter paths (cached entries, wild groups cut by letter)
    against the search, for hands with repeated and rare letters. They list
    the builds by sub-multiset of the hand (each sub's words, then the words
    one letter longer), not A-Z."""
    rng = random.Random(53)
    hands = ["", "e", "zz", "aeiou", "ssstt", "qxjzk", "eeeeeee", "retains"]
    hands += [hand_of(rng, rng.randint(2, 8)) for _ in range(20)]
    for hand in hands:
        for min_length in (1, 2, 3):
            for wilds in (0, 1):
                found = assert_same_as_search(finder, in_order=False, hand=hand, wilds=wilds,
                                              min_length=min_length)
                order = {sub: i for i, sub in enumerate(sub_multisets("".join(sorted(hand))))}
                assert [order[key(m.cards)] for m in found] == sorted(order[key(m.cards)] for m in found)


@pytest.mark.slow
def test_results_stay_the_same_when_caches_start_over(lexicon, monkeypatch):
    """Small cache limits: results are the same while the caches fill, clear and refill."""
    import spellpress.words.finder as finder_module
    monkeypatch.setattr(finder_module, "_KEPT_PER_ENTRY", 1)
    monkeypatch.setattr(finder_module, "_HAND_MATCHES_LIMIT", 3)
    monkeypatch.setattr(finder_module, "_TWO_WILD_MATCHES_LIMIT", 10)
    small = WordFinder(lexicon)
    rng = random.Random(59)
    for _ in range(12):
        hand = hand_of(rng, 7)
        for query in (dict(hand=hand, wilds=1, in_order=False), dict(hand=hand[:5], wilds=2),
                      dict(hand=[*hand[:5], "th"], wilds=1)):
            for _ in range(2):   # once filling the caches, once from them
                assert_same_as_search(small, **query)


def test_new_match_is_the_dataclass_match():
    from dataclasses import fields
    assert [f.name for f in fields(Match)] == ["word", "cards", "wilds", "reusable", "table",
                                              "reusable_wilds", "parts"]
    made = new_match("cat", ("a", "t"), ("c",), (), (), (), (("c", "wild"), ("a", "hand"), ("t", "hand")))
    plain = Match("cat", ("a", "t"), ("c",), parts=(("c", "wild"), ("a", "hand"), ("t", "hand")))
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    assert made.parts == plain.parts


def test_index_tables():
    from collections import defaultdict

    from spellpress.words.index import LetterIndex, sub_multisets_between, subs_and_lefts
    words = ["cat", "act", "tack", "at", "a", "stack", "tacks", "attack", "scat", "cast"]
    index = LetterIndex(words)
    expected = defaultdict(dict)
    for w in words:
        for letter in set(w):
            expected[key(w.replace(letter, "", 1))][letter] = tuple(x for x in words if key(x) == key(w))
    assert index.one_short(4) == {k: tuple(sorted(v.items())) for k, v in expected.items()
                                  if len(k) <= 3}
    assert index.one_short(9) == {k: tuple(sorted(v.items())) for k, v in expected.items()}
    assert index.containing("ck").words == ("tack", "stack", "tacks", "attack")
    assert index.containing("ck").word_set == {"tack", "stack", "tacks", "attack"}
    assert sub_multisets_between("aabc", "ab") == ["ab", "abc", "aab", "aabc"]
    subs, lefts = subs_and_lefts("aab")
    assert set(subs) == set(sub_multisets("aab")) and len(subs) == 6
    for sub, left in zip(subs, lefts, strict=False):
        rest = Counter("aab") - Counter(sub)
        assert left == sum(1 << (ord(c) - 97) for c in rest)


@pytest.mark.parametrize("words", ["small", pytest.param("full", marks=pytest.mark.slow)])
@pytest.mark.parametrize("wilds", [0, 1, 2])
def test_extensions_match_brute_force(request, words, wilds):
    """Every word made of all of a base, part of a pool and up to `wilds` wilds, once per
    (word, part of the pool), the wild letters being exactly what base and part lack.
    On a sample of the lexicon (fast) and on all of it (slow: minutes)."""
    lexicon, finder, word_counts = request.getfixturevalue(words)
    rng = random.Random(40 + wilds)
    found = 0
    for i in range(8):
        base = key(hand_of(rng, rng.randint(0, 3)))
        pool = key(hand_of(rng, rng.randint(2, 6)))
        need_pool = i % 2 == 0
        got = list(finder.extensions(base, pool, wilds, need_pool=need_pool))
        assert len(got) == len({(w, sub) for w, sub, _ in got}), "a (word, part) came twice"
        expected = set()
        base_counts, everything = Counter(base), Counter(base + pool)
        parts = [(sub, Counter(sub)) for sub in set(sub_multisets(pool)) if sub or not need_pool]
        for word, counts in word_counts.items():
            if base_counts - counts or sum((counts - everything).values()) > wilds:
                continue  # not all of the base, or more letters than base, pool and wilds hold
            lack = counts - base_counts
            for sub, sub_counts in parts:
                short = lack - sub_counts
                if not sub_counts - lack and sum(short.values()) <= wilds:
                    expected.add((word, sub, key(short.elements())))
        assert set(got) == expected
        found += len(expected)
        order = {sub: n for n, sub in enumerate(sub_multisets(pool))}
        assert [order[sub] for _, sub, _ in got] == sorted(order[sub] for _, sub, _ in got)
    assert found >= 20  # the queries find words: the comparison is not of two empty sets


def test_extensions_refuse_three_wilds(finder):
    with pytest.raises(ValueError, match="0, 1 or 2"):
        list(finder.extensions("", "abc", 3))


def test_short_keys_answer_key_by_key_as_the_one_short_table(small):
    """extensions() asks its first keys of ShortKeys (no pass over the list), then one_short's table."""
    _, finder, _ = small
    table = finder.index.one_short(12)
    lazy = ShortKeys(finder.index, "zyxwvutsrqponmlkjihgfedcba")  # any order: tried A-Z
    rng = random.Random(39)
    keys = rng.sample(sorted(table), 400) + ["qqq", "aeinrst", ""]
    for k in keys:
        assert lazy.get(k, ()) == table.get(k, ()), k
    assert len(lazy) == len(keys)
