"""A game's Python runs only for the commands that play its rules, never for check, build, letters or serve.

Someone checking or printing a game downloaded from elsewhere must not run its code: a rules.py
that writes a marker file when imported is loaded by check-engine and simulate, and by nothing else;
game.yaml cannot make Spellpress import an arbitrary module (`engine: this` printed the Zen of Python).
"""

from __future__ import annotations

import shutil
import sys

import pytest
import yaml

from spellpress.build import BuildOptions
from spellpress.cli import main
from spellpress.serve.preview import Preview
from tests.conftest import ROOT

MARKER_ENGINE = """import pathlib
pathlib.Path({marker!r}).write_text("rules.py ran")
from spellpress.rules.plugins import installed_engines
RULES = installed_engines()["word-rummy"].load()
"""


@pytest.fixture
def game_with_code(tmp_path):
    """Word Rummy, its engine handed over by a rules.py that leaves a marker when it runs."""
    folder = tmp_path / "word-rummy"
    shutil.copytree(ROOT / "cards" / "word-rummy", folder)
    spec = yaml.safe_load((folder / "game.yaml").read_text())
    spec["rules"]["engine"] = "rules.py"
    (folder / "game.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    marker = tmp_path / "marker.txt"
    (folder / "rules.py").write_text(MARKER_ENGINE.format(marker=str(marker)))
    return folder, marker


@pytest.mark.parametrize("command", [["check"], ["build", "--out", "{out}"], ["letters", "--samples", "200", "--out", "{out}"]],
                         ids=["check", "build", "letters"])
@pytest.mark.slow
def test_printing_and_analysing_never_run_the_game_code(game_with_code, tmp_path, command, capsys):
    folder, marker = game_with_code
    argv = [part.replace("{out}", str(tmp_path / "out")) for part in command]
    assert main([argv[0], str(folder), *argv[1:]]) == 0, capsys.readouterr().err
    assert not marker.exists(), f"{argv[0]} ran rules.py"


def test_the_preview_never_runs_the_game_code(game_with_code, tmp_path):
    folder, marker = game_with_code
    preview = Preview(folder, BuildOptions(out=tmp_path / "out"))
    assert preview.refresh() and preview.state.snapshot is not None
    assert not marker.exists(), "serve ran rules.py"


@pytest.mark.slow
def test_check_says_the_engine_was_not_run_and_check_engine_runs_it(game_with_code, capsys):
    folder, marker = game_with_code
    assert main(["check", str(folder)]) == 0
    assert "rules engine 'rules.py' is checked by check-engine" in capsys.readouterr().out
    assert main(["check-engine", str(folder)]) == 0  # the marker proves the fixture's code does run when asked
    assert marker.read_text() == "rules.py ran"
    assert "The engine keeps the protocol in every position checked." in capsys.readouterr().out


@pytest.mark.parametrize("module", ["this", "antigravity", "os.path", "json:loads", "spellpress.rules.word_rummy"])
def test_game_yaml_cannot_name_a_module_to_import(module, tmp_path, capsys):
    folder = tmp_path / "word-rummy"
    shutil.copytree(ROOT / "cards" / "word-rummy", folder)
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(text.replace("  engine: word-rummy ", f"  engine: '{module}' "))
    line = text.splitlines().index(next(row for row in text.splitlines() if row.startswith("  engine: word-rummy"))) + 1
    before = set(sys.modules)
    for argv in (["check-engine", str(folder)], ["simulate", str(folder), "--games", "2", "--workers", "1"]):
        assert main(argv) == 2
        captured = capsys.readouterr()
        assert f"game.yaml:{line}:11: no rules engine '{module}'" in captured.err, captured.err
        assert "does not import other Python modules" in captured.err and "rules.py" in captured.err
        assert "Traceback" not in captured.err and "Zen of Python" not in captured.out
    assert main(["check", str(folder)]) == 0
    assert "Zen of Python" not in capsys.readouterr().out
    assert not {"this", "antigravity"} & (set(sys.modules) - before)
