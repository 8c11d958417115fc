"""Random mutations of the shipped games' YAML: `check` answers 0 or 2, never a bug (1), and quickly."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spellpress.cli import main
from tests.conftest import ROOT

GAMES = sorted(p for p in (ROOT / "cards").iterdir() if (p / "game.yaml").is_file())
NASTY = ["", "~", "-1", "0", ".nan", ".inf", "-.inf", "1e308", "'x'", "[]", "{}", "[1, [2, [3]]]", "yes", "'{{ 1/0 }}'",
         "'{{ x.__class__ }}'", "'../../../etc/passwd'", "'Ж🦉'", "&a 1", "*a", "!!python/object:os.system 'true'",
         "'300px@0'", "'-5mm'", "99999999999999999999", "'#zzzzzz'", "{{", "'%'", ":", "- -", "'\\t'",
         "[" * 600 + "]" * 600, "'{{ " + "(" * 150 + "1" + ")" * 150 + " }}'", "'{{ " + "-" * 3000 + "1 }}'"]


def yaml_files(game: Path) -> list[Path]:
    return sorted(p for p in game.rglob("*.yaml"))


@st.composite
def mutation(draw):
    game = draw(st.sampled_from(GAMES))
    file = draw(st.sampled_from(yaml_files(game)))
    lines = file.read_text().splitlines()
    index = draw(st.integers(0, len(lines) - 1))
    how = draw(st.sampled_from(["value", "delete", "duplicate", "indent", "truncate"]))
    nasty = draw(st.sampled_from(NASTY))
    return game, file.relative_to(game), index, how, nasty


def mutate(lines: list[str], index: int, how: str, nasty: str) -> list[str]:
    line = lines[index]
    if how == "value":
        if ": " in line:
            key, _, _ = line.partition(": ")
            return lines[:index] + [f"{key}: {nasty}"] + lines[index + 1:]
        return lines[:index] + [line + " " + nasty] + lines[index + 1:]
    if how == "delete":
        return lines[:index] + lines[index + 1:]
    if how == "duplicate":
        return lines[: index + 1] + [line] + lines[index + 1:]
    if how == "indent":
        return lines[:index] + ["   " + line] + lines[index + 1:]
    return lines[:index] + [line[: len(line) // 2]]


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(mutation())
def test_a_mutated_game_is_ok_or_a_user_error_never_a_bug(tmp_path_factory, capsys, change):
    game, relative, index, how, nasty = change
    folder = tmp_path_factory.mktemp("mutated") / game.name
    shutil.copytree(game, folder)
    target = folder / relative
    target.write_text("\n".join(mutate(target.read_text().splitlines(), index, how, nasty)) + "\n")
    started = time.monotonic()
    code = main(["check", str(folder)])
    elapsed = time.monotonic() - started
    err = capsys.readouterr().err
    assert code in (0, 2), f"{relative}:{index + 1} {how} {nasty!r}\n{err}"
    assert "Traceback" not in err
    assert elapsed < 20, f"{relative}:{index + 1} {how} {nasty!r} took {elapsed:.1f} s"
