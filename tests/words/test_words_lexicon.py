import re
import shutil
from pathlib import Path

import pytest

from spellpress.words import build_lexicon
from spellpress.words.lexicon import WORDS_FILE, Lexicon, shipped_words


def test_shipped_list_is_sorted_unique_lowercase_letters():
    text = WORDS_FILE.read_text(encoding="ascii")
    words = text.split("\n")[:-1]
    assert text.endswith("\n")
    assert words == sorted(set(words))
    assert all(re.fullmatch(r"[a-z]+", w) for w in words)
    assert 60_000 <= len(words) <= 80_000


def test_no_proper_names_abbreviations_or_contractions():
    words = set(shipped_words())
    for absent in ("london", "paris", "monday", "january", "english", "nasa", "dont", "etc", "mrs"):
        assert absent not in words
    for present in ("cat", "house", "quiet", "kingfisher", "bluebell", "starling"):
        assert present in words


def test_scowl_notice_ships_beside_the_list():
    notice = (WORDS_FILE.parent / "SCOWL-COPYRIGHT.txt").read_text()
    assert "Kevin Atkinson" in notice and "Permission to use, copy, modify" in notice


def test_min_length_allow_deny():
    lex = Lexicon(min_length=3, allow=["Zyzzyva", "ok"], deny=["cat", "DOG"])
    assert "cat" not in lex and "dog" not in lex and "cats" in lex
    assert "zyzzyva" in lex and "ZYZZYVA" in lex
    assert "ok" not in lex  # allowed words obey min_length too
    assert all(len(w) >= 3 for w in lex)
    assert list(lex) == sorted(lex.words)
    assert len(lex) == len(lex.words)


def test_deny_beats_allow():
    assert "cat" not in Lexicon(allow=["cat"], deny=["cat"])


@pytest.mark.parametrize("bad", ["don't", "New York", "x1", ""])
def test_allow_rejects_non_letters(bad):
    with pytest.raises(ValueError):
        Lexicon(allow=[bad])


def test_min_length_must_be_positive():
    with pytest.raises(ValueError):
        Lexicon(min_length=0)


def test_custom_word_list():
    lex = Lexicon(words=["b", "ab", "abc"], min_length=2)
    assert lex.words == ("ab", "abc")


def test_letter_frequency():
    freq = Lexicon().letter_frequency()
    assert set(freq) == set("abcdefghijklmnopqrstuvwxyz")
    assert sum(freq.values()) == pytest.approx(1.0)
    assert max(freq, key=freq.get) == "e"
    assert freq["q"] < freq["t"] < freq["e"]
    tiny = Lexicon(words=["aab", "b"])
    assert tiny.letter_frequency()["a"] == pytest.approx(0.5)


@pytest.mark.skipif(not Path("/usr/share/dict/scowl/english-words.10").exists(),
                    reason="Debian scowl package not installed")
def test_build_reproduces_the_committed_list(tmp_path):
    assert build_lexicon.main(["--out-dir", str(tmp_path)]) == 0
    assert (tmp_path / "words.txt").read_bytes() == WORDS_FILE.read_bytes()
    assert (tmp_path / "SCOWL-COPYRIGHT.txt").exists()


def test_build_explains_missing_scowl(tmp_path, capsys):
    assert build_lexicon.main(["--scowl-dir", str(tmp_path / "none"), "--out-dir", str(tmp_path)]) == 1
    assert "apt-get install scowl" in capsys.readouterr().err


def test_build_filters_lines(tmp_path):
    scowl = tmp_path / "scowl"
    scowl.mkdir()
    for size in build_lexicon.SIZES:
        (scowl / f"english-words.{size}").write_text("zebra\nApple\ndon't\nnaïve\nant\n")
    (scowl / "english-words.70").write_text("toolarge\n")
    out = tmp_path / "out"
    shutil.copy(WORDS_FILE.parent / "SCOWL-COPYRIGHT.txt", tmp_path / "c.txt")
    assert build_lexicon.main(["--scowl-dir", str(scowl), "--out-dir", str(out),
                               "--copyright", str(tmp_path / "c.txt")]) == 0
    assert (out / "words.txt").read_text() == "ant\nzebra\n"
