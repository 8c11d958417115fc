"""Letter analysis: exact odds against brute force, the method on a published tile set, bad input."""

import itertools
import json
import math
from pathlib import Path

import pytest

from spellpress.analysis.english import difficulty, spearman, suggest_points
from spellpress.analysis.mix import LetterCard, LetterMix
from spellpress.analysis.playability import HandRules, playability
from spellpress.cli import main
from spellpress.words.finder import WordFinder
from spellpress.words.lexicon import Lexicon
from tests.conftest import WISE

SMALL_WORDS = ["at", "ta", "tea", "eat", "ate", "set", "sat", "seat", "east", "teas", "tease", "sea", "as", "es"]


def small_mix():
    cards = [LetterCard("t", 1, 3, "x"), LetterCard("e", 1, 2, "x"), LetterCard("a", 2, 2, "x"),
             LetterCard("s", 1, 1, "x"), LetterCard("z", 10, 2, "x")]
    return LetterMix(tuple(cards), wild_cards=1, dice=())


def test_exact_playability_matches_a_brute_force_count():
    lexicon = Lexicon(min_length=2, words=SMALL_WORDS)
    finder = WordFinder(lexicon)
    mix = small_mix()
    rules = HandRules(hand=3, min_length=2)
    result = playability(mix, rules, finder, samples=10, seed=1)
    assert result.method == "exact"
    # brute force: every 3-card subset of the physical deck, equally likely
    deck = [c.letters for c in mix.cards for _ in range(c.count)] + ["?"]
    words = set(SMALL_WORDS)
    good = total = 0
    for hand in itertools.combinations(range(len(deck)), 3):
        letters = [deck[i] for i in hand]
        wild = letters.count("?")
        plain = [x for x in letters if x != "?"]
        total += 1
        ok = False
        for word in words:
            need = list(word)
            short = 0
            pool = list(plain)
            for ch in need:
                if ch in pool:
                    pool.remove(ch)
                else:
                    short += 1
            if short <= wild:
                ok = True
                break
        good += ok
    assert total == math.comb(len(deck), 3)
    assert result.summary(6)["word"]["p"] == pytest.approx(good / total, abs=1e-12)


def test_sampling_agrees_with_exact_odds_within_its_interval():
    lexicon = Lexicon(min_length=2, words=SMALL_WORDS)
    finder = WordFinder(lexicon)
    mix = small_mix()
    rules = HandRules(hand=3, min_length=2)
    exact = playability(mix, rules, finder, samples=10, seed=1).summary(6)["word"]["p"]
    sampled = playability(mix, rules, finder, samples=3000, seed=4, method="sampled").summary(6)["word"]
    low, high = sampled["ci95"]
    assert low <= exact <= high


def test_suggested_points_rank_like_a_famous_tile_game():
    printed = dict(a=1, b=3, c=3, d=2, e=1, f=4, g=2, h=4, i=1, j=8, k=5, l=1, m=3, n=1, o=1, p=3, q=10,
                   r=1, s=1, t=1, u=1, v=4, w=4, x=8, y=4, z=10)
    lexicon = Lexicon(min_length=2)
    measured = difficulty(lexicon.words, "abcdefghijklmnopqrstuvwxyz", 7)
    suggested = suggest_points({k: v["difficulty"] for k, v in measured.items()}, 1, 10)
    assert spearman(printed, suggested) >= 0.85
    assert suggested["q"] == 10 and suggested["e"] == 1


def test_spearman_on_known_rankings():
    assert spearman({"a": 1, "b": 2, "c": 3}, {"a": 10, "b": 20, "c": 30}) == pytest.approx(1.0)
    assert spearman({"a": 1, "b": 2, "c": 3}, {"a": 3, "b": 2, "c": 1}) == pytest.approx(-1.0)


@pytest.mark.slow
def test_letters_command_is_reproducible_and_writes_pdf_and_json(tmp_path, capsys):
    args = ["letters", str(WISE), "--samples", "400", "--seed", "9", "--json", "--out", str(tmp_path)]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert (tmp_path / "word-to-the-wise" / "word-to-the-wise-letters.pdf").stat().st_size > 10_000
    assert first["deck"]["cards"] == 108 and len(first["deck"]["dice"]) == 2
    assert first["playability"]["method"] == "sampled"
    assert 0 < first["playability"]["all_cards"]["p"] < 1
    assert {row["letter"] for row in first["frequency"]} == set("BCDFGHJKLMNPQRSTVWXYZ")


FIRST_CARD = "{letter: N, points: 1, count: 12}"


def rewrite_first_card(folder: Path, card: str) -> int:
    """Replace consonants.yaml's first card; the line it is on."""
    path = folder / "consonants.yaml"
    text = path.read_text()
    path.write_text(text.replace(FIRST_CARD, card))
    return text[: text.index(FIRST_CARD)].count("\n") + 1


def test_an_unknown_letter_is_a_user_error(game_copy, tmp_path, capsys, monkeypatch):
    line = rewrite_first_card(game_copy(WISE), "{letter: 'N!', points: 1, count: 12}")
    monkeypatch.chdir(tmp_path)
    assert main(["letters", "word-to-the-wise", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert f"consonants.yaml:{line}:5" in err and "letter must be" in err
    assert not (tmp_path / "o").exists()


def test_a_hand_larger_than_the_deck_is_a_user_error(game_copy, capsys, tmp_path):
    folder = game_copy(WISE)
    path = folder / "consonants.yaml"
    head, cards = path.read_text().split("cards:\n")
    path.write_text(head + "cards:\n  - {letter: N, points: 1, count: 4}\n  - {letter: R, points: 1, count: 4}\n")
    assert main(["letters", str(folder), "--hand", "9", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "--hand" in err and "larger than the deck" in err


def test_a_negative_count_is_a_user_error(game_copy, tmp_path, capsys, monkeypatch):
    line = rewrite_first_card(game_copy(WISE), "{letter: N, points: 1, count: -2}")
    monkeypatch.chdir(tmp_path)
    assert main(["letters", "word-to-the-wise"]) == 2
    assert f"consonants.yaml:{line}:35" in capsys.readouterr().err
