"""`spellpress new`: a starter game that checks and builds at once, never over anything."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from spellpress.cli import main
from spellpress.model.sizes import CARD_SIZES

MM = 72 / 25.4


def test_a_new_game_checks_and_builds_at_once(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "my-game"]) == 0
    for name in ("game.yaml", "cards.yaml", "templates/my-card.yaml", "README.md"):
        assert (tmp_path / "my-game" / name).is_file(), name
    assert "extends: text-card" in (tmp_path / "my-game" / "templates" / "my-card.yaml").read_text()
    assert main(["check", "my-game"]) == 0
    assert main(["build", "my-game"]) == 0
    out = capsys.readouterr().out
    assert "6 cards" in out  # three cards, 3 + 2 + 1 copies
    reader = PdfReader(tmp_path / "output" / "my-game" / "my-game-a4.pdf")
    assert len(reader.pages) == 2  # fronts and their duplex backs
    text = reader.pages[0].extract_text()
    assert "First card" in text and "Third card" in text


@pytest.mark.parametrize("size", ["mini", "tarot"])
def test_the_size_option_sets_the_card_size(tmp_path, monkeypatch, capsys, size):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "g", "--size", size]) == 0
    assert main(["build", "g", "--backs", "none"]) == 0
    import json

    manifest = json.loads((tmp_path / "output" / "g" / "manifest.json").read_text())
    assert manifest["components"][0]["size_mm"] == list(CARD_SIZES[size])


def test_new_from_a_shipped_game_copies_it(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "wise", "--from", "word-to-the-wise"]) == 0
    assert (tmp_path / "wise" / "consonants.yaml").is_file()
    assert main(["check", "wise"]) == 0
    assert "113 cards" in capsys.readouterr().out


@pytest.mark.parametrize("existing", ["folder", "file"])
def test_new_never_overwrites(tmp_path, monkeypatch, capsys, existing):
    monkeypatch.chdir(tmp_path)
    if existing == "folder":
        (tmp_path / "g").mkdir()
        (tmp_path / "g" / "notes.txt").write_text("mine")
    else:
        (tmp_path / "g").write_text("mine")
    assert main(["new", "g"]) == 2
    assert "never overwrites" in capsys.readouterr().err
    kept = tmp_path / "g" / "notes.txt" if existing == "folder" else tmp_path / "g"
    assert kept.read_text() == "mine"
    assert main(["new", "g", "--from", "word-to-the-wise"]) == 2


def test_new_into_an_empty_folder_is_fine(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "g").mkdir()
    assert main(["new", "g"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g"]  # no staging left beside it


def test_an_unknown_size_is_a_usage_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        main(["new", "g", "--size", "huge"])
    assert exit_.value.code == 2
    assert not (tmp_path / "g").exists()


def test_new_with_rules_writes_a_starter_engine_that_simulates(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "duel", "--rules"]) == 0
    assert (tmp_path / "duel" / "rules.py").is_file()
    assert main(["check", "duel"]) == 0
    capsys.readouterr()
    assert main(["simulate", "duel", "--games", "40", "--players", "3", "--workers", "1", "--check", "--json"]) == 0
    import json

    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 40 and report["stalls"] == 0
    assert report["length"]["mean"] == 2  # six cards, three players: two rounds each game


def test_new_rules_and_from_do_not_mix(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "w", "--from", "word-to-the-wise", "--rules"]) == 2
    assert "--rules" in capsys.readouterr().err
    assert not (tmp_path / "w").exists()


def test_new_from_skips_links_leaving_the_source_and_says_so(tmp_path, monkeypatch, capsys):
    """A downloaded game holding `passwd.txt -> /etc/passwd` must not copy the copier's own files."""
    import os
    import shutil

    from tests.conftest import FIXTURES

    source = tmp_path / "downloaded"
    shutil.copytree(FIXTURES / "duplex-game", source)
    (tmp_path / "secret.txt").write_text("the copier's secret")
    (source / "passwd.txt").symlink_to("/etc/passwd")
    (source / "secret.txt").symlink_to("../secret.txt")
    (source / "etc").symlink_to("/etc", target_is_directory=True)
    (source / "loop").symlink_to(".", target_is_directory=True)
    (source / "gone.txt").symlink_to("nowhere.txt")
    (source / "alias.yaml").symlink_to("game.yaml")  # stays inside: copied as the file it names
    os.mkfifo(source / "pipe")  # reading it would wait for ever
    monkeypatch.chdir(tmp_path)
    assert main(["new", "mine", "--from", str(source)]) == 0
    out = capsys.readouterr().out
    assert "skipped 6 entries" in out, out
    for entry in ("passwd.txt -> /etc/passwd (leaves", "secret.txt -> ../secret.txt (leaves", "etc -> /etc (a link to a folder)",
                  "loop -> . (a link to a folder)", "gone.txt -> nowhere.txt", "pipe (not a plain file)"):
        assert entry in out, (entry, out)
    copied = tmp_path / "mine"
    assert not any(p.is_symlink() for p in copied.rglob("*"))
    names = {p.relative_to(copied).as_posix() for p in copied.rglob("*") if p.is_file()}
    assert names.isdisjoint({"passwd.txt", "secret.txt", "gone.txt", "pipe"}) and not (copied / "etc").exists()
    assert (copied / "alias.yaml").read_text() == (source / "game.yaml").read_text()
    assert not any("root:" in p.read_text(errors="replace") or "secret" in p.read_text(errors="replace")
                   for p in copied.rglob("*") if p.is_file())
    assert main(["check", "mine"]) == 0


@pytest.mark.parametrize("name, shown", [
    ('q"uote', 'Q"uote'), ("a: b # c", "A: B # C"), ("x {{ y }} [z", "X {{ Y }} [z"), ("back\\slash *star", "Back\\slash *star"),
])
def test_new_quotes_any_name_so_that_game_yaml_reads_back(name, shown, tmp_path, monkeypatch, capsys):
    """Names with a quote, : # {{ [ \\ * wrote a game.yaml that did not parse."""
    import yaml

    monkeypatch.chdir(tmp_path)
    assert main(["new", name]) == 0
    spec = yaml.safe_load((tmp_path / name / "game.yaml").read_text())
    assert spec["name"] == shown and spec["backs"]["deck"]["fields"]["title"] == shown
    assert main(["build", name, "--out", str(tmp_path / "out")]) == 0, capsys.readouterr().err


def test_new_with_letters_the_shipped_fonts_lack_says_so_and_still_builds(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "日本語"]) == 0
    out = capsys.readouterr().out
    assert "cannot draw '日' (U+65E5), '本' (U+672C), '語' (U+8A9E), so the backs have no title" in out
    assert main(["build", "日本語", "--out", str(tmp_path / "out")]) == 0, capsys.readouterr().err


def test_new_with_a_name_too_long_for_a_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "x" * 300]) == 2
    err = capsys.readouterr().err
    assert "the folder name is 300 bytes; a folder name may have at most 255" in err and "Traceback" not in err


@pytest.mark.parametrize("code, words", [(28, "the disk is full: free some space and run again"),
                                         (36, "a file name is too long for the file system")])
def test_a_full_disk_is_told_as_such_not_as_a_bug(code, words, tmp_path, monkeypatch, capsys):
    """ENOSPC from deep inside a build was a traceback called a Spellpress bug."""
    import errno
    import os

    from spellpress import build as build_module

    assert code == {28: errno.ENOSPC, 36: errno.ENAMETOOLONG}[code]

    def full(*args, **kwargs):
        raise OSError(code, os.strerror(code), str(tmp_path / "out" / "x.pdf"))

    monkeypatch.setattr(build_module, "build", full)
    assert main(["build", "word-to-the-wise", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"x.pdf: {words}" in err and "Traceback" not in err and "bug" not in err


def test_two_news_at_once_the_loser_is_told_the_folder_already_exists(tmp_path, monkeypatch, capsys):
    """Before: both staged in one `.X.new` folder, and the loser got a traceback (`Directory not empty`)."""
    import shutil

    from spellpress.scaffold.new import new_game

    monkeypatch.chdir(tmp_path)
    copy = shutil.copyfile
    raced = []

    def copy_while_another_new_finishes(source, target, *args, **kwargs):
        if not raced:  # the other `new` runs to its end while this one is copying
            raced.append(new_game(tmp_path / "rival"))
        return copy(source, target, *args, **kwargs)

    monkeypatch.setattr(shutil, "copyfile", copy_while_another_new_finishes)
    assert main(["new", "rival", "--from", "word-rummy"]) == 2
    err = capsys.readouterr().err
    assert "rival" in err and "already exists" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rival"]  # no staging folder left behind
    assert (tmp_path / "rival" / "cards.yaml").is_file()  # the winner's game, whole
