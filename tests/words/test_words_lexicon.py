import re
import shutil
from pathlib import Path

import pytest

from spellpress.words import build_lexicon
from spellpress.words.lexicon import WORDS_FILE, Lexicon, shipped_levels, shipped_words, vocabulary_level


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
    assert (tmp_path / "levels.txt").read_bytes() == (WORDS_FILE.parent / "levels.txt").read_bytes()
    assert (tmp_path / "SCOWL-COPYRIGHT.txt").exists()


def test_build_explains_missing_scowl(tmp_path, capsys):
    assert build_lexicon.main(["--scowl-dir", str(tmp_path / "none"), "--out-dir", str(tmp_path)]) == 1
    assert "apt-get install scowl" in capsys.readouterr().err


def _build(scowl: Path, tmp_path: Path) -> Path:
    """Run the build on a made-up SCOWL folder; the folder it wrote."""
    out = tmp_path / "out"
    shutil.copy(WORDS_FILE.parent / "SCOWL-COPYRIGHT.txt", tmp_path / "c.txt")
    assert build_lexicon.main(["--scowl-dir", str(scowl), "--out-dir", str(out),
                               "--copyright", str(tmp_path / "c.txt")]) == 0
    return out


def test_build_filters_lines(tmp_path):
    scowl = tmp_path / "scowl"
    scowl.mkdir()
    for size in build_lexicon.SIZES:
        (scowl / f"english-words.{size}").write_text("zebra\nApple\ndon't\nnaïve\nant\n")
    (scowl / "english-words.70").write_text("toolarge\n")
    out = _build(scowl, tmp_path)
    assert (out / "words.txt").read_text() == "ant\nzebra\n"


def test_build_keeps_the_smallest_size_listing_each_word(tmp_path):
    scowl = tmp_path / "scowl"
    scowl.mkdir()
    for size in build_lexicon.SIZES:
        (scowl / f"english-words.{size}").write_text({10: "cat\n", 35: "cat\nzebra\n"}.get(size, "zebra\nant\n"))
    (scowl / "english-words.70").write_text("qi\ntoolarge\n")
    (scowl / "american-words.20").write_text("ax\n")
    (scowl / "american-words.80").write_text("qi\n")
    out = _build(scowl, tmp_path)
    assert (out / "words.txt").read_text() == "ant\nax\ncat\nqi\nzebra\n"
    assert (out / "levels.txt").read_text() == "20\n20\n10\n70\n20\n"


def test_every_shipped_word_has_a_scowl_level():
    levels_text = (WORDS_FILE.parent / "levels.txt").read_text(encoding="ascii")
    assert len(levels_text.split()) == len(shipped_words())
    levels = shipped_levels()
    assert set(levels.values()) <= {10, 20, 35, 40, 50, 55, 60, 70, 80, 95}
    for common in ("the", "cat", "house", "and"):
        assert levels[common] == 10, common
    for rare in ("qi", "za", "xu"):
        assert levels[rare] > 50, rare
    assert sum(level <= 35 for level in levels.values()) > 30_000


def test_a_vocabulary_keeps_the_common_words_and_the_games_own():
    casual = Lexicon(vocabulary=vocabulary_level("casual"), allow=["zyzzyva"])
    everything = Lexicon()
    assert "cat" in casual and "house" in casual and "zyzzyva" in casual
    for rare in ("qi", "za", "xu", "xi", "zephyr"):
        assert rare in everything and rare not in casual, rare
    assert set(casual.words) - {"zyzzyva"} < set(everything.words)
    assert len(Lexicon(vocabulary=50)) > len(casual)
    assert vocabulary_level("all") is None and vocabulary_level("40") == 40
    with pytest.raises(ValueError, match="casual, everyday, expert, all"):
        vocabulary_level("huge")
    with pytest.raises(ValueError, match="commonness levels"):
        Lexicon(source="french", language="fr", vocabulary=35)


def test_levels_are_looked_up_as_the_files_pair_them():
    """shipped_levels() answers from the sorted list and its levels side by side (no dict of every word):
    the same level as line n of levels.txt for the word of line n of words.txt, and nothing for others."""
    from spellpress.words.lexicon import levels_file

    words = WORDS_FILE.read_text().split()
    paired = dict(zip(words, map(int, levels_file("english").read_text().split()), strict=True))
    levels = shipped_levels()
    assert len(levels) == len(paired) and dict(levels.items()) == paired
    assert all(levels[word] == level for word, level in paired.items())
    for missing in ("zzzzq", "", "aa" * 20, 5):
        assert missing not in levels and levels.get(missing, 100) == 100
    with pytest.raises(KeyError):
        _ = levels["zzzzq"]
