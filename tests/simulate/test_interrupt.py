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


@pytest.mark.parametrize("command", [
    # far more games than can finish: only an interrupt ends this run in time
    ["simulate", "word-to-the-wise", "--games", "1000000", "--workers", "2", "--seed", "1"],
], ids=["simulate"])
def test_ctrl_c_stops_pooled_work_within_seconds_and_leaves_no_worker(tmp_path, command):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if command[0] == "build":
        command = [*command, "--out", str(tmp_path / "out")]
    # as from a terminal: Ctrl-C's signal at its default (a shell's background job would inherit it ignored)
    run = subprocess.Popen([sys.executable, "-m", "generator", *command], start_new_session=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 120
        while len(group_members(run.pid)) < 3 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.02)
        assert len(group_members(run.pid)) >= 3, "the worker pool never started"
        time.sleep(1.0 if command[0] == "simulate" else 4.0)  # work is running
        sent = time.monotonic()
        os.killpg(run.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: every process of the group
        _, err = run.communicate(timeout=60)
        stopped = time.monotonic() - sent
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 130, err
    assert stopped < 5, f"took {stopped:.1f} s to stop"
    assert err.strip().splitlines() == ["interrupted"], err  # no worker's traceback
    time.sleep(0.5)
    assert group_members(run.pid) == [], "a worker outlived the interrupted run"
