"""words.language: the French, German and Spanish lists, their alphabets and accent policies."""

from __future__ import annotations

import json
import re

import pytest

from spellpress.cli import main
from spellpress.load.game import load_game
from spellpress.model.languages import LANGUAGES
from spellpress.words.finder import WordFinder, for_words
from spellpress.words.lexicon import Lexicon, shipped_words
from tests.conftest import WISE

KNOWN = {"fr": {"maison", "chat", "ete", "coeur", "francais", "mangeons"},  # été, cœur, français: folded
         "de": {"haus", "häuser", "strasse", "über", "katze"},               # straße: ß as ss
         "es": {"casa", "año", "niño", "cancion", "comieron"}}               # canción: folded, ñ kept


@pytest.mark.parametrize("code", ["fr", "de", "es"])
def test_each_list_loads_has_known_words_and_only_its_letters(code):
    language = LANGUAGES[code]
    words = shipped_words(language.list_name)
    assert len(words) > 150_000
    assert KNOWN[code] <= set(words)
    outside = {letter for word in words for letter in word} - set(language.alphabet)
    assert not outside
    assert all(len(word) <= 10 for word in words)
    assert list(words) == sorted(set(words))


def test_the_accent_policies():
    assert LANGUAGES["fr"].fold("Œuvre") == "oeuvre" and LANGUAGES["fr"].fold("Noël") == "noel"
    assert LANGUAGES["de"].fold("Straße") == "strasse" and LANGUAGES["de"].fold("Bär") == "bär"
    assert LANGUAGES["de"].fold("Café") == "cafe"
    assert LANGUAGES["es"].fold("Canción") == "cancion" and LANGUAGES["es"].fold("Año") == "año"
    assert LANGUAGES["es"].fold("pingüino") == "pinguino"
    assert LANGUAGES["en"].fold("Café") == "café"  # English folds nothing: a word file refuses it


def test_the_french_and_spanish_lists_leave_out_names_abbreviations_and_elisions():
    french, spanish = set(shipped_words("french")), set(shipped_words("spanish"))
    assert not {"toulouse", "kg", "yg", "ab", "qu"} & french  # paris is a word: bets
    assert {w for w in french if len(w) == 1} == {"a", "o", "y"}
    assert not {"madrid", "km", "ib"} & spanish


@pytest.mark.slow
def test_a_german_wild_may_stand_for_an_umlaut():
    finder = WordFinder(Lexicon(min_length=2, source="german", language="de"))
    assert "bär" in {m.word for m in finder.find("br", wilds=1)}
    assert finder.can_make_word("bär", ["b", "ä", "r"])
    english = WordFinder(Lexicon(min_length=2, words=["bar", "bat"]))
    assert not any("ä" in m.word for m in english.find("br", wilds=1))


def with_words(game_copy, lines: str) -> str:
    folder = game_copy(WISE)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("\nwords:\n", "\nwords:\n" + lines, 1))
    return folder


@pytest.mark.slow
def test_words_language_chooses_its_list(game_copy):
    game = load_game(with_words(game_copy, "  language: es\n"))
    lexicon, _ = for_words(game.spec.words)
    assert game.spec.words.lexicon == "spanish" and "año" in lexicon and "Canción" in lexicon
    assert set(lexicon.letter_frequency()) == set("abcdefghijklmnopqrstuvwxyzñ")


def test_an_unknown_language_is_refused_at_its_line_with_the_valid_names(game_copy, tmp_path, capsys, monkeypatch):
    folder = with_words(game_copy, "  language: xx\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 2
    err = capsys.readouterr().err
    line = folder.joinpath("game.yaml").read_text().splitlines().index("  language: xx") + 1
    assert re.search(rf"game\.yaml:{line}:\d+: .*'en', 'fr', 'de' or 'es'", err), err
    assert "Traceback" not in err


def test_a_list_with_letters_the_language_lacks_is_refused(game_copy, tmp_path, capsys, monkeypatch):
    folder = with_words(game_copy, "  lexicon: german\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 2
    assert "the german list has letters (äöü) that words.language 'en' does not" in capsys.readouterr().err


def test_a_french_word_file_is_folded_and_a_german_one_keeps_its_umlauts(game_copy, tmp_path, capsys, monkeypatch):
    folder = with_words(game_copy, "  language: fr\n  lexicon: mots.txt\n")
    (folder / "mots.txt").write_text("Été\ncœur\nça\n")
    lexicon, _ = for_words(load_game(folder).spec.words)
    assert set(lexicon.words) == {"ete", "coeur", "ca"}
    folder.rename(tmp_path / "fr")
    folder = with_words(game_copy, "  language: de\n  lexicon: wörter.txt\n")
    folder.rename(tmp_path / "de")
    (tmp_path / "de" / "wörter.txt").write_text("Bär\nÆon\nx-ray\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "de"]) == 2
    err = capsys.readouterr().err
    assert "wörter.txt:3:1: expected one word of letters a-z and äöü on the line, got 'x-ray'" in err
    assert ":1:1:" not in err and ":2:1:" not in err  # bär kept, æ spelt out as ae


@pytest.mark.parametrize("language, counts", [
    ("fr", {"maison": 2, "chat": 1, "ordinateur": 4}),
    ("de", {"haus": 1, "katze": 2, "schmetterling": 3}),
    ("es", {"casa": 2, "mariposa": 4, "mesa": 2}),
])
def test_syllables_of_other_languages_come_from_hyphenation_patterns(language, counts):
    from spellpress.words.syllables import syllables
    assert {word: syllables(word, language=language) for word in counts} == counts
    assert syllables("chat", {"chat": 3}, language) == 3 if language == "fr" else True


FRENCH = WISE.parent / "un-mot-au-sage"


@pytest.mark.slow
def test_the_french_edition_checks_and_its_letter_analysis_runs_on_the_french_list(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["check", str(FRENCH)]) == 0
    capsys.readouterr()
    assert main(["letters", str(FRENCH), "--json", "--samples", "300", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    report = json.loads(out[out.index("{"):])
    french = Lexicon(min_length=2, source="french", language="fr").letter_frequency()
    shares = {row["letter"]: row for row in report["frequency"]}
    consonants = sum(french[k.lower()] for k in shares)
    assert shares["S"]["language_share"] == pytest.approx(french["s"] / consonants, abs=1e-3)
    assert report["playability"]["word"]["p"] > 0.95
