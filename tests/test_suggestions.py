"""A misspelt key, field, kind, back, icon or font gets the nearest valid name."""

from __future__ import annotations

import pytest

from spellpress.cli import main
from spellpress.model.schema import GameSpec
from spellpress.suggest import did_you_mean, keys_at
from tests.conftest import WISE

CASES = [
    ("game.yaml", "minutes: [15, 30]", "minuts: [15, 30]", "unknown key 'minuts' (did you mean 'minutes'?)"),
    ("game.yaml", "  paper: a4", "  papr: a4", "unknown key 'papr' (did you mean 'paper'?)"),
    ("consonants.yaml", "{letter: N, points: 1, count: 12}", "{letter: N, pionts: 1, count: 12}",
     "unknown field 'pionts' (did you mean 'points'?)"),
    ("consonants.yaml", "back: deck", "back: dekc", "unknown back 'dekc' (did you mean 'deck'?)"),
    ("templates/consonant-card.yaml", "  letter: {color: \"#1f2d4d\"}", "  letter: {colr: \"#1f2d4d\"}",
     "unknown key 'colr' (did you mean 'color'?)"),
    ("templates/consonant-card.yaml", "icon: owl,", "icon: olw,", "unknown icon 'olw' (did you mean 'owl'?)"),
    # issue 43: a misspelt rules key passed check; template names and colour names had no hint
    ("game.yaml", "  hand_size: 5", "  hand_sise: 5",
     "game.yaml:33:3: rules: unknown key 'hand_sise' (did you mean 'hand_size'?)"),
    ("game.yaml", "  challenges: true", "  challenges: maybe", "game.yaml:40:15: rules: challenges:"),
    ("consonants.yaml", "template: consonant-card", "template: consonant-crad",
     "template 'consonant-crad' not found (did you mean 'consonant-card'?)"),
    ("templates/consonant-card.yaml", "  letter: {color: \"#1f2d4d\"}", "  letter: {color: navy}",
     "got 'navy': a CSS colour name; write it as #000080"),
]


@pytest.mark.parametrize("file, old, new, words", CASES, ids=[c[3].split(" (")[0] for c in CASES])
def test_a_misspelling_suggests_the_nearest_name(game_copy, tmp_path, capsys, monkeypatch, file, old, new, words):
    folder = game_copy(WISE)
    path = folder / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 2
    assert words in capsys.readouterr().err


def test_no_suggestion_when_nothing_is_close():
    assert did_you_mean("zzzz", ["points", "letter"]) == ""
    assert did_you_mean("pionts", ["points", "letter"]) == " (did you mean 'points'?)"


def test_keys_at_finds_nested_models():
    assert "paper" in keys_at(GameSpec, ("print", "papr"))
    assert "minutes" in keys_at(GameSpec, ("minuts",))


@pytest.mark.parametrize("option, words", [
    ("challenge=false", "'challenge' is not an option of the word-to-the-wise engine (did you mean 'challenges'?)"),
    ("bogus=3", "'bogus' is not an option of the word-to-the-wise engine; options: "),
])
def test_an_unknown_run_option_is_refused_before_any_game(capsys, option, words):
    assert main(["simulate", "word-to-the-wise", "--games", "2", "--option", option, "--json"]) == 2
    captured = capsys.readouterr()
    assert words in captured.err and captured.out == ""


@pytest.mark.slow
def test_an_engines_own_what_if_options_are_accepted(capsys):
    assert main(["simulate", "word-to-the-wise", "--games", "2", "--workers", "1", "--option", "growth=2",
                 "--option", "speeds=1,0.8", "--json"]) == 0
    assert main(["simulate", "magic-spell", "--games", "2", "--workers", "1", "--option", "memory=none", "--json"]) == 0


def test_an_engine_name_close_to_an_installed_one_is_suggested(game_copy, tmp_path, capsys, monkeypatch):
    """check says it (a warning: the game still prints); check-engine refuses it with the same hint."""
    folder = game_copy(WISE)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("engine: word-to-the-wise ", "engine: word-to-the-wize "))
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 0
    captured = capsys.readouterr()
    assert "game.yaml:32:11: no rules engine 'word-to-the-wize' is installed (did you mean 'word-to-the-wise'?)" in captured.err
    assert main(["check-engine", folder.name]) == 2
    assert "game.yaml:32:11: no rules engine 'word-to-the-wize' (did you mean 'word-to-the-wise'?)" in capsys.readouterr().err


def test_check_engine_suggests_the_nearest_rules_key(game_copy, tmp_path, capsys, monkeypatch):
    folder = game_copy(WISE)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("  hand_size: 5", "  hand_sise: 5"))
    monkeypatch.chdir(tmp_path)
    assert main(["check-engine", folder.name]) == 2
    assert "game.yaml:33:3: rules: unknown key 'hand_sise' (did you mean 'hand_size'?)" in capsys.readouterr().err


def test_a_missing_image_that_differs_in_case_only_is_suggested(game_copy, tmp_path, capsys, monkeypatch):
    folder = game_copy(WISE)
    from PIL import Image

    Image.new("RGB", (8, 8), "white").save(folder / "Owl.png")
    template = folder / "templates" / "consonant-card.yaml"
    template.write_text(template.read_text() + "  pic: {kind: image, x: 5mm, y: 5mm, w: 5mm, h: 5mm, src: owl.png}\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 2
    assert "image 'owl.png' does not exist (did you mean 'Owl.png'?" in capsys.readouterr().err
