"""A Word to the Wise with digraph consonant cards (TH, SCH: several letters on one card, read from the
YAML like any card): what they spell, what they score, and that a game with them keeps its invariants."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from spellpress.errors import UserError
from spellpress.load.game import load_game
from spellpress.rules import word_to_the_wise as W
from spellpress.simulate.play import play_game

SOURCE = Path(__file__).resolve().parents[2] / "cards" / "word-to-the-wise"


def with_cards(folder: Path, extra: str) -> Path:
    """A copy of A Word to the Wise whose consonant deck also lists these YAML card lines."""
    shutil.copytree(SOURCE, folder)
    deck = folder / "consonants.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def defs(tmp_path_factory):
    folder = with_cards(tmp_path_factory.mktemp("digraphs") / "wise",
                        "  - {letter: TH, points: 2, count: 3}\n  - {letter: SCH, points: 6, count: 1}\n")
    return W.definitions(load_game(folder))


def card(defs, letters: str) -> str:
    """The hand character of the digraph card printing these letters."""
    return next(unit for unit, text in defs.units.items() if text == letters)


def test_a_digraph_card_is_one_card_of_the_deck_read_from_the_yaml(defs):
    th = card(defs, "th")
    assert defs.totals[th] == 3 and defs.points[th] == 2
    assert defs.deck_cards == 108 + 3 + 1
    assert defs.card_ids[th] != defs.card_ids["t"]


def test_a_digraph_card_spells_its_letters_where_the_word_has_them_together(defs):
    th = card(defs, "th")
    assert defs.build("the", [th, "n"], ("e", "a")) == ((th,), 2 + 1)
    assert defs.build("then", [th, "n"], ("e", "a")) == (tuple(sorted([th, "n"])), 2 + 1 + 1)
    # HAT and NTH-less words have an H and a T, but not TH where it stands
    assert defs.build("hat", [th, "n"], ("a", "e")) is None
    listed = {word for _, _, word in defs.all_words("".join(sorted([th, "n"])), ("a", "e"))}
    assert {"the", "than", "then"} <= listed and not listed & {"hat", "hate", "hant", "heat"}


def test_the_single_cards_still_spell_a_digraph_and_the_best_way_scores(defs):
    th = card(defs, "th")
    # T (1) + H (3) beats the TH card (2): the word is listed once, at its best
    rows = [row for row in defs.all_words("".join(sorted(["h", "t", th])), ("e", "a")) if row[2] == "the"]
    assert rows == [(1 + 3 + 1, 3, "the")]
    assert defs.build("the", ["h", "t", th], ("e", "a")) == (("h", "t"), 5)


def test_a_word_of_five_cards_with_a_digraph_card_earns_the_all_cards_bonus(defs):
    th, sch = card(defs, "th"), card(defs, "sch")
    hand = "".join(sorted([th, "r", "n", "g", "s"]))
    # THRONGS: TH 2, R 1, N 1, G 4, S 1, the rolled O 1; five cards, so +10
    assert defs.build("throngs", list(hand), ("o", "a")) == (tuple(sorted(hand)), 2 + 1 + 1 + 4 + 1 + 1)
    assert (10 + 10, "throngs") in defs.best_by_length(hand, ("o", "a")).values()
    assert defs.build("school", [sch, "l"], ("o", "a")) == (tuple(sorted([sch, "l"])), 6 + 2 + 1 + 1)


def test_word_counts_and_lists_agree_for_hands_with_digraph_cards(defs):
    th, sch = card(defs, "th"), card(defs, "sch")
    rng = random.Random(7)
    deck = [c for c, n in defs.totals.items() for _ in range(n)]
    checked = 0
    for _ in range(30):
        hand = "".join(sorted(rng.sample(deck, 4) + [rng.choice([th, sch])]))
        faces = (rng.choice(defs.dice[0]), rng.choice(defs.dice[1]))
        rows = defs.all_words(hand, faces)
        words = [word for _, _, word in rows]
        assert len(words) == len(set(words)), hand
        assert defs.count_words(hand, faces, frozenset(words[:1])) == len(words) - bool(words)
        for value, length, word in rows:
            cards, points = defs.build(word, list(hand), faces)
            bonus = defs.p.all_cards_bonus if len(cards) == len(hand) else 0
            assert value == points + bonus and length == len(word)
            checked += 1
    assert checked > 100


def test_a_card_with_a_die_vowel_is_refused_naming_its_line(tmp_path):
    folder = with_cards(tmp_path / "wise", "  - {letter: QU, points: 8, count: 1}\n")
    with pytest.raises(UserError) as error:
        W.definitions(load_game(folder))
    assert "consonants.yaml:" in str(error.value) and "'qu'" in str(error.value)


def test_a_game_with_digraph_cards_keeps_its_invariants(defs):
    game = defs.game
    seats = [W.RULES.heuristic_player(1.0) for _ in range(4)]
    outcome = play_game(W.RULES, game, seats, 3, check=True)
    assert outcome.turns > 3 and not outcome.stalled
