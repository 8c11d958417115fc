"""Ctrl-C stops a simulation at once: queued batches dropped, workers gone, exit 130."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # make test-fast leaves this module out


def group_members(group: int) -> list[int]:
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":  # fields: state, ppid, pgrp, ...
            members.append(int(entry.name))
    return members


def big_game(folder: Path, count: int = 4000) -> Path:
    """A game whose build takes seconds: 4,000 different cards (about 9 s here), or `count` of them."""
    subprocess.run([sys.executable, "-m", "spellpress", "new", str(folder)], check=True, capture_output=True,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})
    cards = folder / "cards.yaml"
    head = cards.read_text().split("cards:")[0]
    rows = "".join(f"  - {{id: c{i}, count: 1, title: Card {i}, body: Text {i} of a long deck, points: {i % 10}}}\n"
                   for i in range(count))
    cards.write_text(head + "cards:\n" + rows)
    return folder


# (command, processes once it works: the parent and its pool's workers, or the parent alone)
COMMANDS = {
    # far more games than can finish (and than memory would hold as records): only an interrupt ends these
    "simulate": (["simulate", "word-to-the-wise", "--games", "1000000000000", "--workers", "2", "--seed", "1"], 3),
    "report": (["report", "word-to-the-wise", "--games", "1000000", "--workers", "2", "--players", "2"], 3),
    "letters": (["letters", "word-to-the-wise", "--hand", "12"], 1),  # exact odds of 12-card hands: a minute
    "build": (["build", "{game}", "--no-cache"], 1),
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_ctrl_c_stops_work_within_seconds_and_leaves_no_worker_and_no_output(tmp_path, name):
    command, processes = COMMANDS[name]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = tmp_path / "out"
    if name == "build":
        game = str(big_game(tmp_path / "big"))
        command = [part.replace("{game}", game) for part in command]
    if name in ("build", "report", "letters"):
        command = [*command, "--out", str(out)]
    # as from a terminal: Ctrl-C's signal at its default (a shell's background job would inherit it ignored)
    run = subprocess.Popen([sys.executable, "-m", "spellpress", *command], start_new_session=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 120
        while len(group_members(run.pid)) < processes and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.02)
        assert len(group_members(run.pid)) >= processes, "the worker pool never started"
        time.sleep(1.0 if processes > 1 else 2.5)  # work is running (a lone process has loaded the game by now)
        assert run.poll() is None, "the command ended before it could be interrupted"
        sent = time.monotonic()
        os.killpg(run.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: every process of the group
        _, err = run.communicate(timeout=60)
        stopped = time.monotonic() - sent
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 130, err
    assert stopped < 5, f"took {stopped:.1f} s to stop"
    assert err.strip().splitlines()[-1:] == ["interrupted"], err
    assert "Traceback" not in err, err  # no worker's traceback
    time.sleep(0.5)
    assert group_members(run.pid) == [], "a worker outlived the interrupted run"
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) if out.exists() else []
    assert [p for p in written if not p.startswith(".cache/")] == [], "an interrupted command left output behind"
