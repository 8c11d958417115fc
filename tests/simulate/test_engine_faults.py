"""An engine that misbehaves during play is stopped by the runner and blamed on its own rules.py line.

Each broken engine is the toy engine with one method broken, in a game folder's rules.py. Before,
a stall or an endless legal_actions ran for ever with no output, an exception was a 40-line
traceback called a Spellpress bug, NaN scores gave "mean score nan" and exit 0, and sys.exit(0)
ended `simulate` with exit 0 and no output.
"""

from __future__ import annotations

import _thread
import json
import re
import shutil
import threading
import time

import pytest

from spellpress.cli import main
from spellpress.simulate import engine_faults
from spellpress.simulate.engine_faults import MAX_ACTIONS_PER_GAME
from tests.conftest import FIXTURES

HEADER = """from tests.simulate.toy import ToyRules, ToyState


class Broken(ToyState):
"""
FOOTER = """

class BrokenRules(ToyRules):
    def new_state(self, game, players, options=None):
        return Broken(game, players)


RULES = BrokenRules()
"""

BROKEN = {
    # name: (the broken method, the line it is blamed on (a marker comment), words of the message)
    "never-advances": ("""    def apply(self, action):  # BLAME
        if self.current_player() != -1:  # a chance draw, over and over: turns never move
            self.drawn = None
""", f"the game did not end after {MAX_ACTIONS_PER_GAME:,} actions in game 1"),
    "legal-actions-loops": ("""    def legal_actions(self):
        while True:  # BLAME
            pass
""", "the engine spent more than 1 s of CPU on one move in legal_actions() in game 1"),
    "apply-raises": ("""    def apply(self, action):
        super().apply(action)
        if self.turns == 3:
            1 / 0  # BLAME
""", "the engine failed in apply() in game 1 (seed 10000019): ZeroDivisionError: division by zero"),
    "nan-scores": ("""    def returns(self):  # BLAME
        return [float("nan")] * self.players
""", "returns() gave the scores [nan, nan] in game 1"),
    "heuristic-player-raises": ("""    def apply(self, action):
        super().apply(action)


def heuristic_player(self, skill=1.0):
    raise ValueError("no such skill")  # BLAME


ToyRules = type("ToyRules", (ToyRules,), {"heuristic_player": heuristic_player})  # this module's only
""", "the engine failed in heuristic_player() in game 1 (seed 10000019): ValueError: no such skill"),
    "sys-exit-in-apply": ("""    def apply(self, action):
        import sys
        sys.exit(0)  # BLAME
""", "the engine failed in apply() in game 1 (seed 10000019): it called sys.exit(0)"),
    "system-exit-3-in-apply": ("""    def apply(self, action):
        raise SystemExit(3)  # BLAME
""", "the engine failed in apply() in game 1 (seed 10000019): it called sys.exit(3)"),
    "own-base-exception": ("""    def apply(self, action):
        class Mine(BaseException):
            pass
        raise Mine("not an Exception")  # BLAME
""", "the engine failed in apply() in game 1 (seed 10000019): Mine: not an Exception"),
    "generator-exit": ("""    def apply(self, action):
        raise GeneratorExit("closed")  # BLAME
""", "the engine failed in apply() in game 1 (seed 10000019): GeneratorExit: closed"),
    "sys-exit-in-the-first-deal": ("""    def __init__(self, game, players):
        raise SystemExit(0)  # BLAME
""", "the engine failed in __init__() in game 1 (seed 10000019): it called sys.exit(0)"),
}


def broken_game(tmp_path, body: str):
    folder = tmp_path / "toy-game"
    shutil.copytree(FIXTURES / "toy-game", folder)
    source = HEADER + body + FOOTER
    (folder / "rules.py").write_text(source)
    line = next((n for n, text in enumerate(source.splitlines(), 1) if "# BLAME" in text), None)
    return folder, line


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("name", BROKEN)
def test_a_misbehaving_engine_is_stopped_and_blamed_on_its_line(name, workers, tmp_path, capsys, monkeypatch):
    if workers == "2" and name not in ("apply-raises", "legal-actions-loops", "own-base-exception",
                                       "sys-exit-in-the-first-deal"):
        pytest.skip("one failure of each kind across processes is enough")
    monkeypatch.setattr(engine_faults, "SECONDS_PER_ACTION", 1.0)  # a worker forked from here inherits it
    if workers == "2":  # exceptions then pickle with their chain, as once Dask is imported (it installs tblib)
        tblib = pytest.importorskip("tblib.pickling_support")
        tblib.install()
    body, words = BROKEN[name]
    folder, line = broken_game(tmp_path, body)
    started = time.monotonic()
    # without its guard a case would run for ever: Ctrl-C it after 60 s (main then returns 130, not 2)
    stop = threading.Timer(60, _thread.interrupt_main)
    stop.start()
    try:
        code = main(["simulate", str(folder), "--games", "4", "--players", "2", "--workers", workers, "--seed", "1",
                     "--luck-games", "0"])
    finally:
        stop.cancel()
    elapsed = time.monotonic() - started
    captured = capsys.readouterr()
    print(f"\n{name} ({workers} workers): exit {code} in {elapsed:.1f} s: {captured.err.splitlines()[0] if captured.err else ''}")
    assert code == 2, captured.err
    assert re.search(rf"rules\.py:{line}:1: ", captured.err), captured.err
    assert words in captured.err, captured.err
    assert "Traceback" not in captured.err and "hit a bug" not in captured.err
    assert elapsed < 60


@pytest.mark.parametrize("name", ["apply-raises", "sys-exit-in-apply", "system-exit-3-in-apply", "own-base-exception",
                                  "generator-exit", "sys-exit-in-the-first-deal"])
def test_check_engine_blames_an_engine_that_raises_anything_on_its_line(name, tmp_path, capsys):
    """Before: sys.exit(0) in apply() ended check-engine with exit 0 and no output, SystemExit(3) with
    exit 3, and a BaseException of the engine's own or GeneratorExit with a traceback."""
    body, _ = BROKEN[name]
    folder, line = broken_game(tmp_path, body)
    code = main(["check-engine", str(folder), "--no-workers", "--games", "1", "--random-games", "0"])
    captured = capsys.readouterr()
    assert code == 2, captured
    # a game's failure is a [play] finding; one in the first deal, before any game, stops the check there
    assert re.search(rf"rules\.py:{line}:1: (\[play\] |the engine failed in __init__)", captured.err), captured.err
    what = {"sys-exit-in-apply": "it called sys.exit(0)", "system-exit-3-in-apply": "it called sys.exit(3)",
            "own-base-exception": "Mine: not an Exception", "generator-exit": "GeneratorExit: closed",
            "apply-raises": "ZeroDivisionError", "sys-exit-in-the-first-deal": "it called sys.exit(0)"}[name]
    assert what in captured.err
    assert "Traceback" not in captured.err + captured.out and "hit a bug" not in captured.err


def test_sys_exit_while_loading_is_an_error_not_a_silent_success(tmp_path, capsys):
    folder, _ = broken_game(tmp_path, "    pass\n")
    (folder / "rules.py").write_text("import sys\n\nsys.exit(0)\n")
    for argv in (["check-engine", str(folder)], ["simulate", str(folder), "--games", "2", "--workers", "1"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert re.search(r"rules\.py:3:1: the engine called sys\.exit\(0\) while loading", err), err


def test_a_sound_engine_still_gives_valid_json(tmp_path, capsys):
    assert main(["simulate", str(FIXTURES / "toy-game"), "--games", "20", "--workers", "1", "--json", "--luck-games", "0"]) == 0
    report = json.loads(capsys.readouterr().out)  # bare NaN would not parse strictly below
    json.loads(json.dumps(report), parse_constant=lambda name: pytest.fail(f"{name} in the JSON"))


SLOW_PLAYER = """from spellpress.simulate.engine_faults import progress
from tests.simulate.toy import KeepHigh, ToyRules
import time


class Slow(KeepHigh):
    def act(self, state, seat, rng):
        if state.turns == 1:
            {work}
        return super().act(state, seat, rng)


class SlowRules(ToyRules):
    def heuristic_player(self, skill=1.0):
        return Slow(skill)


RULES = SlowRules()
"""
WORK = {  # what the slow move does for 1.2 s, against a 0.5 s limit
    "waits for a core": "time.sleep(1.2)",  # the clock runs, the process's CPU does not
    "searches, saying so": "end = time.process_time() + 1.2\n            while time.process_time() < end:\n"
                           "                sum(range(1000))\n                progress()",
}


@pytest.mark.parametrize("work", WORK)
def test_a_slow_move_that_is_not_a_hung_engine_is_not_stopped(work, tmp_path, capsys, monkeypatch):
    """The watchdog counts CPU time without progress: a move that waits for a core (a loaded machine)
    or a search that reports its playouts is not an endless loop."""
    monkeypatch.setattr(engine_faults, "SECONDS_PER_ACTION", 0.5)
    folder, _ = broken_game(tmp_path, "    pass\n")
    (folder / "rules.py").write_text(SLOW_PLAYER.replace("{work}", WORK[work]))
    code = main(["simulate", str(folder), "--games", "1", "--players", "2", "--workers", "1", "--seed", "1",
                 "--luck-games", "0"])
    err = capsys.readouterr().err
    assert code == 0, err


def test_a_first_deal_that_exits_is_blamed_before_a_search_player_is_set_up(tmp_path, capsys):
    """Before: `--agents ismcts` dealt a probe game outside any guard, and sys.exit(0) there was exit 0."""
    folder, line = broken_game(tmp_path, BROKEN["sys-exit-in-the-first-deal"][0])
    assert main(["simulate", str(folder), "--games", "2", "--workers", "1", "--agents", "ismcts"]) == 2
    err = capsys.readouterr().err
    assert re.search(rf"rules\.py:{line}:1: the engine failed in __init__\(\)", err) and "Traceback" not in err
