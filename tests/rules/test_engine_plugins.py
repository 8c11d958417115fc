"""Engines are plugins: found by game.yaml `rules.engine`, their settings checked like cards.

Every shipped engine, borrowed by a game that does not fit it, is a user error (exit 2) with
file:line:column messages from `check` and from `simulate`, never a traceback.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from spellpress.cli import main
from spellpress.load.game import load_game
from spellpress.rules.plugins import installed_engines, rules_for
from tests.conftest import FIXTURES, ROOT

SHIPPED = {"word-to-the-wise": "word-to-the-wise", "lost-words": "lost-words", "evocabulary": "evocabulary",
           "magic-spell": "magic-spell", "spelled": "spelled", "word-rummy": "word-rummy"}
"""Each shipped engine and the game of the same name that plays it."""
ALSO_SHIPPED = {"un-mot-au-sage": "word-to-the-wise",  # games that play another game's engine
                "ein-wort-an-die-weisen": "word-to-the-wise", "una-palabra-al-sabio": "word-to-the-wise"}
LOCATED = re.compile(r"^error: (?P<path>[^:]+):(?P<line>\d+):(?P<column>\d+): ")


def copy_game(source: Path, into: Path, rules: dict) -> Path:
    folder = into / source.name
    shutil.copytree(source, folder)
    spec = yaml.safe_load((folder / "game.yaml").read_text())
    spec["rules"] = rules
    (folder / "game.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    return folder


def shipped_rules(game: str) -> dict:
    return yaml.safe_load((ROOT / "cards" / game / "game.yaml").read_text())["rules"]


def errors_of(capsys) -> list[str]:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return [line for line in err.splitlines() if line.startswith("error: ")]


def assert_located(lines: list[str], folder: Path) -> None:
    assert lines
    for line in lines:
        match = LOCATED.match(line)
        assert match, line
        assert int(match["line"]) >= 1 and int(match["column"]) >= 1, line
        assert (Path.cwd() / match["path"]).resolve().is_relative_to(folder.resolve()), line


def test_every_shipped_engine_is_an_entry_point_and_every_shipped_game_names_its_own():
    games = {**SHIPPED, **ALSO_SHIPPED}
    assert set(games) == {folder.name for folder in (ROOT / "cards").iterdir() if (folder / "game.yaml").is_file()}
    ours = {name for name, ep in installed_engines().items() if ep.dist is not None and ep.dist.name == "spellpress"}
    assert ours == set(SHIPPED.values())
    for game, engine in games.items():
        loaded = load_game(ROOT / "cards" / game)
        assert loaded.spec.rules["engine"] == engine
        assert rules_for(loaded).id == engine


@pytest.mark.parametrize("engine", sorted(SHIPPED))
def test_an_engine_borrowed_by_a_game_with_none_of_its_keys_or_components(engine, tmp_path, capsys):
    """The toy game's own keys are unknown to the engine and its components are not the engine's."""
    folder = copy_game(FIXTURES / "toy-game", tmp_path, {"engine": engine, "turns_each": 4})
    assert main(["check-engine", str(folder)]) == 2
    checked = errors_of(capsys)
    assert_located(checked, folder)
    assert any("unknown key 'turns_each'" in line for line in checked)
    assert main(["simulate", str(folder), "--games", "2", "--workers", "1"]) == 2
    assert errors_of(capsys) == checked


@pytest.mark.parametrize("engine", sorted(SHIPPED))
def test_an_engine_borrowed_with_its_own_keys_by_a_game_with_other_cards(engine, tmp_path, capsys):
    """The keys fit, the cards do not: every missing component or field is named where it is."""
    # (Evocabulary's letter deck fits word-rummy: a letter and points on every card)
    other = "lost-words" if engine == "word-rummy" else sorted(set(SHIPPED) - {engine})[0]
    folder = copy_game(ROOT / "cards" / other, tmp_path, shipped_rules(engine))
    assert main(["check-engine", str(folder)]) == 2
    checked = errors_of(capsys)
    assert_located(checked, folder)
    assert any("component" in line or "field" in line for line in checked)
    assert main(["simulate", str(folder), "--games", "2", "--workers", "1"]) == 2
    assert errors_of(capsys) == checked


def test_every_problem_is_reported_at_once_at_its_key(tmp_path, capsys):
    rules = {**shipped_rules("word-to-the-wise"), "hand_size": "five", "hand_sise": 5, "deck": "letters"}
    folder = copy_game(ROOT / "cards" / "word-to-the-wise", tmp_path, rules)
    assert main(["check-engine", str(folder)]) == 2
    lines = errors_of(capsys)
    text = (folder / "game.yaml").read_text().splitlines()
    for key in ("hand_size", "hand_sise", "deck"):
        hits = [line for line in lines if LOCATED.match(line) and key in text[int(LOCATED.match(line)["line"]) - 1]]
        assert hits, (key, lines)
    assert any("unknown key 'hand_sise'" in line for line in lines)
    assert any("component 'letters'" in line for line in lines)


def test_a_wrong_card_field_is_reported_at_the_card(tmp_path, capsys):
    folder = copy_game(ROOT / "cards" / "word-to-the-wise", tmp_path, shipped_rules("word-to-the-wise"))
    deck = folder / "consonants.yaml"
    deck.write_text(deck.read_text().replace("{letter: Z, points: 7, count: 1}", "{letter: Z, points: lots, count: 1}"))
    (folder / "consonants.yaml").write_text(deck.read_text().replace("fields: {letter: str, points: int}",
                                                                      "fields: {letter: str, points: str}"))
    assert main(["check-engine", str(folder)]) == 2
    lines = errors_of(capsys)
    assert_located(lines, folder)
    assert any("consonants.yaml" in line and "'points'" in line for line in lines), lines


def test_a_run_option_for_a_rules_key_is_checked_too(capsys):
    assert main(["simulate", str(ROOT / "cards" / "word-to-the-wise"), "--games", "2", "--workers", "1",
                 "--option", "hand_size=-1"]) == 2
    assert any(line.startswith("error: --option: rules: hand_size") for line in errors_of(capsys))


def test_a_game_without_an_engine_checks_and_says_how_to_get_one(capsys):
    assert main(["check", str(FIXTURES / "duplex-game")]) == 0
    capsys.readouterr()
    assert main(["simulate", str(FIXTURES / "duplex-game"), "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert "has no rules engine" in err and "rules.py" in err and "docs/rules.md" in err and "word-to-the-wise" in err


@pytest.mark.parametrize("engine, words", [
    ("no-such-engine", "no rules engine 'no-such-engine'"),
    ("no_such_package.engine", "does not import other Python modules"),
    ("../outside.py", "leaves the game folder"),
    ("missing.py", "does not exist"),
    ("spellpress.rules.protocol", "does not import other Python modules"),
    ("no-rules.py", "has no RULES"),
])
def test_an_engine_that_cannot_be_found_is_named_at_rules_engine(engine, words, tmp_path, capsys):
    folder = copy_game(FIXTURES / "toy-game", tmp_path, {"engine": engine})
    (tmp_path / "outside.py").write_text("RULES = None\n")
    (folder / "no-rules.py").write_text("RULE = None\n")
    assert main(["simulate", str(folder), "--games", "2", "--workers", "1"]) == 2
    lines = errors_of(capsys)
    assert any(words in line for line in lines), lines
    line_no = int(LOCATED.match(lines[0])["line"])
    assert "engine" in (folder / "game.yaml").read_text().splitlines()[line_no - 1]


def test_a_broken_engine_file_is_reported_at_its_line(tmp_path, capsys):
    folder = copy_game(FIXTURES / "toy-game", tmp_path, {"engine": "rules.py"})
    (folder / "rules.py").write_text("import math\n\nRULES = math.nope\n")
    assert main(["simulate", str(folder), "--games", "2", "--workers", "1"]) == 2
    assert any(re.search(r"rules\.py:3:1: AttributeError", line) for line in errors_of(capsys))
    (folder / "rules.py").write_text("def broken(:\n")
    assert main(["check-engine", str(folder)]) == 2
    assert any(re.search(r"rules\.py:1:\d+: syntax error", line) for line in errors_of(capsys))


def test_docs_rules_md_names_every_key_of_every_shipped_engine():
    text = (ROOT / "docs" / "rules.md").read_text()
    for name, entry in installed_engines().items():
        model = entry.load().settings
        for key in model.model_fields:
            assert f"`{key}`" in text, (name, key)
