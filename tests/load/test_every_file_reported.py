"""Mistakes in several files are listed together, even when game.yaml has one and another file does not parse."""

from __future__ import annotations

from spellpress.cli import main
from tests.conftest import WISE


def test_every_files_mistakes_are_listed_together(game_copy, tmp_path, capsys, monkeypatch):
    folder = game_copy(WISE)
    edits = {
        "game.yaml": ("minutes: [15, 30]", "minuts: [15, 30]"),
        "consonants.yaml": ("{letter: N, points: 1, count: 12}", "{letter: N, points: 1, count: 12"),
        "rules-card.yaml": ("title: A Word to the Wise", "titel: A Word to the Wise"),
    }
    for name, (old, new) in edits.items():
        path = folder / name
        path.write_text(path.read_text().replace(old, new, 1))
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 2
    err = capsys.readouterr().err
    assert "game.yaml:4:1: unknown key 'minuts'" in err
    assert "consonants.yaml:13:5: YAML syntax error" in err
    assert "rules-card.yaml:10:5: unknown field 'titel'" in err
    assert "errors; nothing written." in err


def test_a_game_yaml_that_cannot_name_its_parts_stops_there(game_copy, tmp_path, capsys, monkeypatch):
    folder = game_copy(WISE)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("name: A Word to the Wise", "name: [A Word"))
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 2
    err = capsys.readouterr().err
    assert "game.yaml:3:8: YAML syntax error" in err and "1 error;" in err
