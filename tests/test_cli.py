"""The command line has one shape: every command is one entry of cli.COMMANDS, its handler run_<command>,
option mistakes are reported as options (not as files), and `build --shop` refuses the options
a shop's preset decides instead of dropping them."""

from __future__ import annotations

import argparse
import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from spellpress.cli import COMMANDS, handler, main, parser
from spellpress.errors import Location, Option, Problem, UserError
from tests.conftest import FIXTURES, WISE

PACKAGE = Path(__file__).resolve().parents[1] / "generator"


def subcommands() -> dict[str, argparse.ArgumentParser]:
    return next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)).choices


def test_every_command_has_its_handler_from_its_module():
    names = subcommands()
    assert {"build", "check", "list", "calibrate", "new", "simulate", "report", "sweep", "letters", "serve",
            "shops"} <= set(names)
    assert list(names) == list(COMMANDS)  # nothing registers a command the table does not name
    for name, sub in names.items():
        run = handler(name)
        assert run.__name__ == f"run_{name.replace('-', '_')}", name
        assert run.__module__ == COMMANDS[name].module, name
        assert sub.get_default("handler") is None, f"{name}: the table gives the handler, not set_defaults"


def test_the_table_help_is_the_help_the_command_registers():
    commands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert {action.dest: action.help for action in commands._choices_actions} == {
        name: command.help for name, command in COMMANDS.items()}


def test_only_the_named_command_is_imported():
    others = sorted({command.module for name, command in COMMANDS.items()} - {COMMANDS["list"].module})
    code = ("import sys; from spellpress.cli import parser; parser(['list']); "
            f"print([m for m in {others!r} if m in sys.modules])")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


def test_no_module_imports_the_command_line():
    """The CLI imports the commands, never the other way (only the entry point and the docs generator import it)."""
    users = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "spellpress.cli" and path.name not in ("cli_docs.py",
                                                                                                          "entry.py"):
                users.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert users == []


def test_no_option_is_dressed_as_a_file():
    dressed = [f"{path.relative_to(PACKAGE)}:{n}" for path in sorted(PACKAGE.rglob("*.py"))
               for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
               if 'Location(Path("-' in line]
    assert dressed == []


def test_an_option_problem_reads_as_the_option_and_sorts_before_files():
    error = UserError([Problem(Location(Path("game.yaml"), 3, 1), "bad"), Problem(Option("--games"), "must be at least 1")])
    assert [str(p) for p in error.problems] == ["--games: must be at least 1", "game.yaml:3:1: bad"]


def test_simulate_reports_a_bad_option_by_its_name(capsys):
    assert main(["simulate", str(FIXTURES / "toy-game"), "--games", "0"]) == 2
    assert "error: --games: must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("extra, named", [
    (["--png", "--tts", "--paper", "letter", "--marks", "cutter"], ["--png", "--tts", "--paper", "--marks"]),
    (["--backs", "fold", "--bleed", "2mm", "--no-cache"], ["--backs", "--bleed", "--no-cache"]),
    (["--color", "cmyk", "--draft", "--print-shop", "--back-offset", "1,1"], ["--color", "--draft", "--print-shop",
                                                                              "--back-offset"]),
])
def test_build_for_a_shop_refuses_the_options_its_preset_decides(tmp_path, capsys, extra, named):
    out = tmp_path / "out"
    assert main(["build", str(WISE), "--shop", "makeplayingcards", "--out", str(out), *extra]) == 2
    err = capsys.readouterr().err
    for flag in named:
        assert f"error: {flag}: --shop makeplayingcards takes this from the shop's preset" in err
    assert f"{len(named)} errors; nothing written." in err
    assert not out.exists()


def test_ink_limit_without_a_shop_is_refused(tmp_path, capsys):
    assert main(["build", str(FIXTURES / "toy-game"), "--ink-limit", "off", "--out", str(tmp_path)]) == 2
    assert "error: --ink-limit: applies to --shop builds only" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_unknown_games_are_all_reported(capsys):
    assert main(["check", "no-such-game", "nor-this-one"]) == 2
    err = capsys.readouterr().err
    assert "no-such-game: no game here" in err and "nor-this-one: no game here" in err


def test_a_ctrl_c_while_the_commands_load_is_an_interruption_not_a_traceback(monkeypatch, capsys):
    """A Ctrl-C early in a run lands while parser() registers the commands (their modules load then)."""
    def interrupted(commands):
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module(COMMANDS["list"].module), "register", interrupted)
    assert main(["list"]) == 130
    err = capsys.readouterr().err
    assert err == "interrupted\n"


def test_a_ctrl_c_that_a_module_load_wraps_in_another_error_is_still_an_interruption(monkeypatch, capsys):
    """Python's class creation wraps an exception from __set_name__ (pydantic's validators use it) in a
    RuntimeError: a Ctrl-C landing there reaches main as that RuntimeError, caused by the KeyboardInterrupt."""
    class Descriptor:
        def __set_name__(self, owner, name):
            raise KeyboardInterrupt

    def loading(commands):
        type("Spec", (), {"field": Descriptor()})

    monkeypatch.setattr(importlib.import_module(COMMANDS["list"].module), "register", loading)
    assert main(["list"]) == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_a_real_bug_is_still_reported_as_one(monkeypatch, capsys):
    def broken(commands):
        raise RuntimeError("a bug")

    monkeypatch.setattr(importlib.import_module(COMMANDS["list"].module), "register", broken)
    assert main(["list"]) == 1
    assert "please report it" in capsys.readouterr().err


def test_a_ctrl_c_that_a_library_swallows_still_ends_the_command_as_interrupted(monkeypatch, capsys):
    """pydantic's compiled core reports a KeyboardInterrupt raised in a Python callback as 'Exception ignored'
    and goes on; the command must not then finish and exit 0 as if the Ctrl-C had not come."""
    import os
    import signal

    def swallowing(commands):
        try:
            os.kill(os.getpid(), signal.SIGINT)
        except KeyboardInterrupt:
            pass  # what the library does with it

    monkeypatch.setattr(importlib.import_module(COMMANDS["list"].module), "register", swallowing)
    assert main(["list"]) == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_a_panic_of_a_compiled_library_after_a_ctrl_c_is_an_interruption(monkeypatch, capsys):
    """pydantic's Rust core panics (pyo3's PanicException, a BaseException) when a Ctrl-C breaks its import of datetime."""
    import os
    import signal

    class PanicException(BaseException):
        pass

    def panicking(commands):
        try:
            os.kill(os.getpid(), signal.SIGINT)
        except KeyboardInterrupt:
            raise PanicException("failed to import `datetime` C API") from None

    monkeypatch.setattr(importlib.import_module(COMMANDS["list"].module), "register", panicking)
    assert main(["list"]) == 130
    assert capsys.readouterr().err == "interrupted\n"
