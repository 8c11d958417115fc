"""Long commands whose stderr is a pipe or a log file (not a terminal) print plain progress lines there:
before, `simulate` and `letters` said nothing until they ended (issue 43)."""

from __future__ import annotations

import re

import pytest

from spellpress import progress
from spellpress.cli import main
from tests.conftest import FIXTURES

LINE = re.compile(r"^(?P<what>.+): (?P<done>[\d,]+) of (?P<total>[\d,]+) \((?P<share>\d+)%\), \d+ s$")


def progress_lines(err: str) -> list[re.Match]:
    return [m for m in map(LINE.match, err.splitlines()) if m]


@pytest.fixture
def at_once(monkeypatch):
    monkeypatch.setattr(progress, "DELAY_S", 0.0)  # the first line at once, not after a second


def test_simulate_says_how_far_it_is_when_piped(at_once, capsys, tmp_path):
    assert main(["simulate", str(FIXTURES / "toy-game"), "--games", "200", "--workers", "1", "--luck-games", "0"]) == 0
    lines = progress_lines(capsys.readouterr().err)  # capsys: stderr is not a terminal
    assert len(lines) >= 2, lines
    shares = [int(m["share"]) for m in lines]
    assert shares == sorted(shares) and shares[-1] == 100
    assert all(m["what"] == "toy-game, 2 players" and m["total"] == "200" for m in lines)


@pytest.mark.slow
def test_letters_says_how_far_it_is_when_piped(at_once, capsys):
    assert main(["letters", "word-rummy", "--samples", "400", "--hand", "5"]) == 0
    lines = progress_lines(capsys.readouterr().err)
    assert any(m["what"] == "word-rummy: dealing hands" for m in lines), lines
    dealing = [int(m["share"]) for m in lines if m["what"] == "word-rummy: dealing hands"]
    assert len(dealing) >= 5 and dealing[-1] == 100  # every tenth of the work


def test_at_a_terminal_the_bar_is_drawn_instead_of_lines(monkeypatch, capsys):
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    bar = progress.LazyProgress("work", 10, lines=True)
    assert bar.enabled and not bar.lines
