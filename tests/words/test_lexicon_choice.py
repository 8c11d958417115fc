"""The default list is a word-game list; a game may bring its own word file."""

from __future__ import annotations

import pytest

from spellpress.cli import main
from spellpress.load.game import load_game
from spellpress.words.build_lexicon import WORD_GAME_TWOS, word_game_word
from spellpress.words.finder import for_words
from spellpress.words.lexicon import shipped_words
from tests.conftest import WISE


def test_the_default_list_has_no_letter_plurals_or_lone_letters_and_has_the_word_game_twos():
    words = set(shipped_words())
    assert not words & {"bs", "cs", "ds", "gs", "ks", "ls", "ms", "rs", "ts", "xs", "zs"}
    assert {w for w in words if len(w) == 1} == {"a", "i"}
    assert {"qi", "za", "xu", "jo", "ka", "oi", "ax", "ox", "ex"} <= words
    twos = {w for w in words if len(w) == 2}
    assert twos <= WORD_GAME_TWOS, sorted(twos - WORD_GAME_TWOS)  # every two-letter word is a word-game one
    assert len(words) > 70_000


def test_the_build_filter_refuses_what_word_games_refuse():
    assert not word_game_word("cs") and not word_game_word("b")
    assert word_game_word("as") and word_game_word("es") and word_game_word("us") and word_game_word("a")


def with_word_file(game_copy, text: str, name: str = "words.txt"):
    folder = game_copy(WISE)
    (folder / name).write_text(text)
    game = folder / "game.yaml"
    body = game.read_text()
    assert "\nwords:" in body
    game.write_text(body.replace("\nwords:", f"\nwords:\n  lexicon: {name}", 1))
    return folder


def test_a_game_reads_its_own_word_file(game_copy):
    folder = with_word_file(game_copy, "# my list\nCAT\n\ndog\nqzx\n")
    game = load_game(folder)
    lexicon, finder = for_words(game.spec.words)
    assert set(lexicon.words) == {"cat", "dog", "qzx"}
    assert "qzx" in lexicon and "the" not in lexicon


def test_a_bad_word_file_is_reported_at_its_line(game_copy, tmp_path, capsys, monkeypatch):
    folder = with_word_file(game_copy, "cat\ndog\ncafé au lait\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 2
    assert "words.txt:3:1: expected one word of letters a-z on the line, got 'café au lait'" in capsys.readouterr().err


def test_a_word_file_may_not_leave_the_game_folder(game_copy, tmp_path, capsys, monkeypatch):
    folder = with_word_file(game_copy, "cat\n")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("lexicon: words.txt", "lexicon: ../../etc/words"))
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 2
    assert "word list path '../../etc/words' leaves the game folder" in capsys.readouterr().err


def test_a_word_too_long_to_build_is_refused_at_its_line(game_copy, tmp_path, capsys, monkeypatch):
    """A 1,100-letter word made the word builder recurse past Python's limit (RecursionError)."""
    from spellpress.model.limits import MAX_WORD_LETTERS

    folder = with_word_file(game_copy, "cat\n" + "a" * 1_100 + "\n" + "b" * MAX_WORD_LETTERS + "\n")
    monkeypatch.chdir(tmp_path)
    assert main(["letters", folder.name, "--samples", "100", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"words.txt:2:1: a word may have at most {MAX_WORD_LETTERS} letters, got '{'a' * 40}...' (1,100 characters)" in err
    assert "words.txt:3:" not in err and "Traceback" not in err and len(err) < 500


def test_a_word_list_of_random_letters_is_refused_before_any_hand_is_dealt(game_copy, tmp_path, capsys, monkeypatch):
    """Issue 31 item 9: a list of random letters within the byte limit (0.5 MB) made `letters` take minutes:
    its short words cover nearly every letter set. Every two- and three-letter string (70 kB) is such a list."""
    from itertools import product
    from string import ascii_lowercase

    words = ["".join(letters) for n in (2, 3) for letters in product(ascii_lowercase, repeat=n)]
    folder = with_word_file(game_copy, "\n".join(words) + "\n")
    monkeypatch.chdir(tmp_path)
    for argv in (["check", folder.name], ["letters", folder.name, "--samples", "10", "--out", str(tmp_path / "out")]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "game.yaml:" in err and "word list 'words.txt' is too dense in short words" in err, err
        assert "about 56 of its letter sets" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_every_shipped_list_is_well_within_the_density_limit():
    from spellpress.model.languages import BY_LIST
    from spellpress.model.limits import MAX_WORD_LIST_DENSITY
    from spellpress.words.density import letter_sets_made

    for name, language in BY_LIST.items():
        made = letter_sets_made(shipped_words(name), len(language.alphabet))
        assert 5 < made < MAX_WORD_LIST_DENSITY - 2.5, (name, made)  # room for a list a little denser than ours


def folded_words(*codes: str) -> list[str]:
    """The shipped lists of these languages as one English-alphabet list (accents dropped): real words."""
    import unicodedata

    from spellpress.model.languages import LANGUAGES

    words: dict[str, None] = {}
    for code in codes:
        for word in LANGUAGES[code].words_file.read_text(encoding="utf-8").split():
            plain = "".join(c for c in unicodedata.normalize("NFD", word.replace("ß", "ss")) if not unicodedata.combining(c))
            if plain.isascii() and plain.isalpha():
                words[plain.lower()] = None
    return list(words)


@pytest.mark.slow
def test_a_word_list_past_the_size_limit_is_refused_and_one_within_it_reads(game_copy, tmp_path, capsys, monkeypatch):
    """Issue 31 item 9: real lists of 4 to 20 MB made letters take 35 s to minutes (docs/yaml.md, Limits)."""
    import time

    from spellpress.model.limits import MAX_WORD_FILE_BYTES

    english = "\n".join(shipped_words()) + "\n"  # 0.7 MB of real words: repeated, a list of that many bytes
    within = english * (MAX_WORD_FILE_BYTES // len(english))
    folder = with_word_file(game_copy, within + "zax\n" * ((MAX_WORD_FILE_BYTES - len(within)) // 4))
    assert MAX_WORD_FILE_BYTES - 4 < (folder / "words.txt").stat().st_size <= MAX_WORD_FILE_BYTES
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 0
    # the four shipped lists as one (7.9 MB): 4 to 20 MB of real words took 35 s to minutes
    (folder / "words.txt").write_text("\n".join(folded_words("en", "fr", "de", "es")) + "\n")
    started = time.monotonic()
    assert main(["check", folder.name]) == 2
    err = capsys.readouterr().err
    size = (folder / "words.txt").stat().st_size
    assert f"word list 'words.txt' is {size:,} bytes; a word list may have at most {MAX_WORD_FILE_BYTES:,}" in err, err
    assert "shipped list: english, french, german, spanish" in err and time.monotonic() - started < 5


@pytest.mark.slow
def test_a_real_list_denser_than_the_shipped_ones_is_refused(game_copy, tmp_path, capsys, monkeypatch):
    """English and French together, accents dropped (2.7 MB, density 17.6): letters took 36 s, 2.6 times
    the shipped list's time."""
    folder = with_word_file(game_copy, "\n".join(folded_words("en", "fr")) + "\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 2
    err = capsys.readouterr().err
    assert "word list 'words.txt' is too dense in short words: a hand of 7 letters would make about 18 of its letter sets" in err
    assert "Traceback" not in err
    (folder / "words.txt").write_text("\n".join(folded_words("de")) + "\n")  # German alone: as sparse as ours
    assert main(["check", folder.name]) == 0
