"""`spellpress play` against hostile input (issue 43): records that must never be lost or overwritten,
records to replay that are not what they claim, a records folder with strays in it, and options the
table cannot use. Each failed before with a traceback, an HTTP 500 or a lost game; now each is
refused before the server starts (exit 2, one line naming what is wrong) or done right."""

from __future__ import annotations

import json
import os
import random
import shutil
import stat

import pytest

from spellpress.cli import main
from spellpress.load.game import load_game
from spellpress.play import command as play_command
from spellpress.play.records import load, replay_problem
from spellpress.play.table import SeatSpec, Table
from spellpress.rules.plugins import rules_for
from tests.conftest import FIXTURES
from tests.hostile import refused

TOY = FIXTURES / "toy-game"


@pytest.fixture
def no_server(monkeypatch):
    """The server must not start: every case here is refused before it."""
    def serve(*args, **kwargs):
        pytest.fail("the server started")
    monkeypatch.setattr(play_command, "serve", serve)


def toy_table(records, seed: int = 7) -> Table:
    game = load_game(TOY)
    return Table(game, rules_for(game), [SeatSpec("human"), SeatSpec("heuristic")], seed=seed, records=records)


def finish(table: Table, rng: random.Random) -> None:
    while not table.over():
        seat = table.to_move()
        if table.seats[seat].kind == "human":
            table.play(seat, rng.choice(table.legal()))
        else:
            table.bot_step()


# -- records are never lost or overwritten ---------------------------------------------------
def test_two_games_with_one_seed_ending_in_one_second_are_two_records(tmp_path, monkeypatch):
    """Before: both were named GAME-STAMP-seed7-1.json and the second replaced the first."""
    monkeypatch.setattr("time.strftime", lambda *args: "20260101-120000")
    first, second = toy_table(tmp_path), toy_table(tmp_path)
    finish(first, random.Random(1))
    finish(second, random.Random(2))
    assert first.saved != second.saved
    saved = sorted((tmp_path / "toy-game").iterdir())
    assert len(saved) == 2 and all(p.suffix == ".json" for p in saved)  # and no temporary file left
    assert {tuple(load(p).actions) for p in saved} == {tuple(first.record.actions), tuple(second.record.actions)}


def test_a_huge_seed_still_saves_its_record_under_a_short_name(tmp_path):
    """Before: a 250-digit seed made the file name too long and the game was lost at its end (HTTP 500)."""
    seed = int("9" * 250)
    table = toy_table(tmp_path, seed=seed)
    finish(table, random.Random(3))
    assert table.saved is not None and len(table.saved.name) <= 120
    assert load(table.saved).seed == seed


def test_an_unusable_records_folder_is_found_at_the_start(tmp_path, capsys, no_server):
    """Before: found only when the first game ended, and the game was lost."""
    (tmp_path / "play").write_text("a file where the folder should be")
    refused(["play", str(TOY), "--out", str(tmp_path), "--port", "0"], capsys, "play")
    if os.geteuid() != 0:
        locked = tmp_path / "locked"
        (locked / "play" / "toy-game").mkdir(parents=True)
        (locked / "play" / "toy-game").chmod(stat.S_IRUSR | stat.S_IXUSR)
        try:
            refused(["play", str(TOY), "--out", str(locked), "--port", "0"], capsys, "toy-game")
        finally:
            (locked / "play" / "toy-game").chmod(stat.S_IRWXU)


def test_out_inside_the_game_folder_is_refused_as_build_refuses_it(tmp_path, capsys, no_server):
    game = tmp_path / "toy-game"
    shutil.copytree(TOY, game)
    refused(["play", str(game), "--out", str(game / "output"), "--port", "0"], capsys, "inside the game folder")
    assert not (game / "output").exists()


# -- records to replay ---------------------------------------------------------------------
def a_record(tmp_path) -> dict:
    table = toy_table(tmp_path / "kept")
    finish(table, random.Random(4))
    return json.loads(table.saved.read_text())


TAMPERED = {
    "seats that are not seat names": (lambda r: {**r, "seats": [0, 1]}, "seats"),
    "an infinite seed": (lambda r: {**r, "seed": float("inf")}, "seed"),
    "a seed that is not a whole number": (lambda r: {**r, "seed": 1.5}, "seed"),
    "an illegal action": (lambda r: {**r, "actions": [*r["actions"][:1], "fly", *r["actions"][2:]]}, "action 2"),
    "a missing action list": (lambda r: {k: v for k, v in r.items() if k != "actions"}, "actions"),
    "an unknown seat": (lambda r: {**r, "seats": ["human", "wizard"]}, "wizard"),
}


@pytest.mark.parametrize("case", TAMPERED)
def test_a_tampered_record_is_refused_before_the_server_starts(case, tmp_path, capsys, no_server):
    change, word = TAMPERED[case]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(change(a_record(tmp_path))))  # inf is written as Infinity, as 1e999 reads
    err = refused(["play", str(TOY), "--replay", str(path), "--out", str(tmp_path), "--port", "0"], capsys, "record.json")
    assert word in err


def test_a_deeply_nested_record_is_refused(tmp_path, capsys, no_server):
    path = tmp_path / "record.json"
    path.write_text('{"version": 1, "game": "toy-game", "seed": 1, "seats": ["human", "heuristic"], "actions": ['
                    + "[" * 50_000 + "]" * 50_000 + "]}")
    refused(["play", str(TOY), "--replay", str(path), "--out", str(tmp_path), "--port", "0"], capsys, "record.json")


def test_a_seed_of_1e999_is_refused(tmp_path, capsys, no_server):
    record = a_record(tmp_path)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record).replace(f'"seed": {record["seed"]}', '"seed": 1e999'))
    refused(["play", str(TOY), "--replay", str(path), "--out", str(tmp_path), "--port", "0"], capsys, "record.json", "seed")


# -- --agreement over a folder of records --------------------------------------------------
def test_agreement_names_and_skips_what_is_not_a_record(tmp_path, capsys):
    table = toy_table(tmp_path / "play")
    finish(table, random.Random(5))
    folder = tmp_path / "play" / "toy-game"
    (folder / "notes.json").write_text('{"what": "my notes"}')
    (folder / "list.json").write_text("[1, 2, 3]")
    (folder / "torn.json").write_text('{"version": 1, "game": "toy-')
    code = main(["play", str(TOY), "--agreement", "--out", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "1 recorded game(s)" in captured.out
    for name in ("notes.json", "list.json", "torn.json"):
        assert name in captured.err
    assert "Traceback" not in captured.err


def test_agreement_skips_an_old_record_the_game_can_no_longer_replay(tmp_path, capsys):
    """Before: a card's count set to 0 since made every old record crash the command."""
    table = toy_table(tmp_path / "play")
    finish(table, random.Random(6))
    game = tmp_path / "toy-game"
    shutil.copytree(TOY, game)
    (game / "numbers.yaml").write_text(_count_zero((game / "numbers.yaml").read_text(), table.record.actions[0]))
    code = main(["play", str(game), "--agreement", "--out", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert table.saved.name in captured.err and "no longer replays" in captured.err
    assert "Traceback" not in captured.err


def _count_zero(numbers: str, card: str) -> str:
    import yaml

    ids = [c.id for c in load_game(TOY).component("numbers").cards]
    data = yaml.safe_load(numbers)
    data["cards"][ids.index(card)]["count"] = 0
    return yaml.safe_dump(data, sort_keys=False)


# -- options the table cannot use ----------------------------------------------------------
@pytest.mark.parametrize("pause", ["inf", "nan", "-1", "1e9"])
def test_a_pause_that_is_not_a_sane_number_of_seconds_is_refused(pause, tmp_path, capsys, no_server):
    """Before: --pause inf made every /api/state an HTTP 500 (Infinity is no JSON)."""
    refused(["play", str(TOY), f"--pause={pause}", "--out", str(tmp_path), "--port", "0"], capsys, "--pause")


@pytest.mark.parametrize("think", ["inf", "nan", "1e9"])
def test_a_think_time_that_is_not_a_sane_number_of_seconds_is_refused(think, tmp_path, capsys, no_server):
    refused(["play", str(TOY), f"--think={think}", "--out", str(tmp_path), "--port", "0"], capsys, "--think")


# -- an engine that fails during play --------------------------------------------------------
@pytest.mark.parametrize("name", ["apply-raises", "sys-exit-in-apply", "own-base-exception"])
def test_an_engine_failing_during_play_is_a_json_error_at_its_line(name, tmp_path, capsys):
    """Before: HTTP 500 and the server's raw traceback; now the message `simulate` gives, as JSON."""
    from starlette.testclient import TestClient

    from spellpress.play.app import create_app
    from spellpress.serve.guard import TOKEN_HEADER, Guard
    from spellpress.serve.preview import Preview
    from tests.simulate.test_engine_faults import BROKEN, broken_game

    folder, line = broken_game(tmp_path, BROKEN[name][0])
    game = load_game(folder)
    table = Table(game, rules_for(game), [SeatSpec("human"), SeatSpec("human")], seed=5, records=tmp_path / "play") \
        if name == "apply-raises" else None
    if table is None:  # these fail at the first action, in the table's first deal: refused at the start
        refused(["play", str(folder), "--out", str(tmp_path), "--port", "0"], capsys, f"rules.py:{line}:1: ")
        return
    guard = Guard.for_address("127.0.0.1", 8766)
    client = TestClient(create_app(table, Preview(folder), guard), base_url="http://127.0.0.1:8766")
    headers = {"Origin": "http://127.0.0.1:8766", "Content-Type": "application/json", TOKEN_HEADER: guard.token}
    for _ in range(10):
        view = client.get("/api/state").json()
        answer = client.post("/api/move", json={"move": 0, "step": view["step"], "games": view["games"]}, headers=headers)
        if answer.status_code != 200:
            break
    assert answer.status_code == 500 and answer.headers["content-type"] == "application/json"
    error = answer.json()["error"]
    assert f"rules.py:{line}:1: the engine failed in apply() in game 1 (seed 5): ZeroDivisionError" in error
    err = capsys.readouterr().err
    assert error in err and "Traceback" not in err
    # the table is back where its record replays to: the half-applied move is not in it
    assert replay_problem(table.rules, game, table.record) is None
    assert all(d.step < len(table.record.actions) for d in table.record.decisions)
    assert table.view()["step"] == view["step"]


SLOW_BOT = """import time

from tests.simulate.toy import KeepHigh, ToyRules


class Ponders(KeepHigh):
    def act(self, state, seat, rng):
        time.sleep(60)  # a bot thinking long, as an ismcts seat may
        return super().act(state, seat, rng)


class PondersRules(ToyRules):
    def heuristic_player(self, skill=1.0):
        return Ponders(skill)


RULES = PondersRules()
"""


@pytest.mark.slow
def test_ctrl_c_while_a_bot_thinks_says_interrupted_and_nothing_else(tmp_path):
    """Before: the server's "Exception in ASGI application" and a CancelledError traceback, then exit 130."""
    import re
    import signal
    import subprocess
    import sys
    import threading
    import time
    import urllib.request

    from spellpress.serve.guard import TOKEN_HEADER, TOKEN_META
    from tests.conftest import ROOT

    game = tmp_path / "toy-game"
    shutil.copytree(TOY, game)
    (game / "rules.py").write_text(SLOW_BOT)
    run = subprocess.Popen([sys.executable, "-m", "spellpress", "play", str(game), "--seats", "heuristic,heuristic",
                            "--port", "0", "--out", str(tmp_path / "out"), "--pause", "0"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        url = re.search(r"http://127\.0\.0\.1:\d+/", run.stdout.readline()).group(0)
        page = urllib.request.urlopen(url, timeout=30).read().decode()
        token = re.search(rf'<meta name="{TOKEN_META}" content="([^"]+)">', page).group(1)
        view = json.loads(urllib.request.urlopen(url + "api/state", timeout=30).read())
        step = urllib.request.Request(url + "api/step", method="POST", data=json.dumps(
            {"step": view["step"], "games": view["games"]}).encode(), headers={
            "Origin": url.rstrip("/"), "Content-Type": "application/json", TOKEN_HEADER: token})
        threading.Thread(target=lambda: _ignore_errors(urllib.request.urlopen, step, timeout=90), daemon=True).start()
        time.sleep(1.5)  # the bot is thinking
        sent = time.monotonic()
        os.killpg(run.pid, signal.SIGINT)
        out, err = run.communicate(timeout=30)
        stopped = time.monotonic() - sent
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    print(f"stopped {stopped:.2f} s after the Ctrl-C")
    assert run.returncode == 130, err
    assert err.strip() == "interrupted", err
    assert stopped < 5


def _ignore_errors(call, *args, **kwargs):
    try:
        call(*args, **kwargs)
    except OSError:
        pass
