"""A run of 10**12 games: it shows its progress, and Ctrl-C, even pressed again and again, ends it cleanly."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time

import pytest

from tests.conftest import ROOT
from tests.simulate.test_interrupt import group_members

pytestmark = pytest.mark.slow  # make test-fast leaves this module out

ENDLESS = ["simulate", "word-to-the-wise", "--games", "1000000000000", "--seed", "1"]


def start(argv: list[str], **streams) -> subprocess.Popen:
    # as from a terminal: Ctrl-C's signal at its default, the command and its workers one process group
    return subprocess.Popen([sys.executable, "-m", "spellpress", *argv], start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, **streams)


def test_an_endless_run_shows_its_progress_on_a_terminal():
    """It printed nothing (and grew without bound) before: now a bar counts the games as they are folded."""
    leader, follower = pty.openpty()
    run = start([*ENDLESS, "--workers", "1"], stdout=subprocess.DEVNULL, stderr=follower)
    os.close(follower)
    shown = b""
    try:
        deadline = time.monotonic() + 120
        while b"500/" not in shown and time.monotonic() < deadline:
            if select.select([leader], [], [], 1.0)[0]:
                shown += os.read(leader, 65536)
        os.killpg(run.pid, signal.SIGINT)
        assert run.wait(timeout=30) == 130
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
        os.close(leader)
    assert b"word-to-the-wise, 2 players" in shown and b"500/" in shown, shown[-500:]


def test_ctrl_c_pressed_three_times_leaves_no_worker_and_no_traceback():
    """Three Ctrl-C used to leave a worker running at 100% CPU, orphaned and growing."""
    run = start([*ENDLESS, "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while len(group_members(run.pid)) < 3 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.02)
        assert len(group_members(run.pid)) >= 3, "the worker pool never started"
        time.sleep(1.0)
        sent = time.monotonic()
        for _ in range(3):
            os.killpg(run.pid, signal.SIGINT)
            time.sleep(0.1)
        _, err = run.communicate(timeout=60)
        stopped = time.monotonic() - sent
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    # exit 130, or ended by the repeated signal itself: a shell shows 130 for both
    assert run.returncode in (130, -signal.SIGINT), err
    assert stopped < 5, f"took {stopped:.1f} s to stop"
    assert "Traceback" not in err, err
    time.sleep(0.5)
    assert group_members(run.pid) == [], "a worker outlived the interrupted run"
