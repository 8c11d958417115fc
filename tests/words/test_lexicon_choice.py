"""The default list is a word-game list; a game may bring its own word file."""

from __future__ import annotations

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
        assert "game.yaml:" in err and "word list 'words.txt' is denser in short words than any language's" in err, err
        assert "about 56 of its letter sets" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_every_shipped_list_is_well_within_the_density_limit():
    from spellpress.model.languages import BY_LIST
    from spellpress.model.limits import MAX_WORD_LIST_DENSITY
    from spellpress.words.density import letter_sets_made

    for name, language in BY_LIST.items():
        made = letter_sets_made(shipped_words(name), len(language.alphabet))
        assert 5 < made < MAX_WORD_LIST_DENSITY / 2, (name, made)
