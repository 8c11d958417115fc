"""A Dask worker killed during `simulate --dask local`: its batch is run again, or, past Dask's retries,
a clear error naming --dask within a bounded time (issue 31 item 8: it waited silently, or gave tracebacks)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from spellpress.cli import main
from spellpress.simulate import runner

pytestmark = pytest.mark.slow
pytest.importorskip("dask.distributed")


def worker_processes() -> list[int]:
    """This process's children that are Dask workers (a LocalCluster's nannies run here, its workers apart)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(fields[1]) == os.getpid() and fields[0] != "Z" and b"multiprocessing" in command \
                    and b"resource_tracker" not in command:
                found.append(int(entry.name))
    return found


def kill_the_worker_once_a_batch_is_in(folded: threading.Event, killed: list[float]) -> None:
    """Kill the Dask worker as soon as the run has folded its first batch: the worker is then playing
    the next one (the run keeps 4 in flight), so the kill always lands mid-run, on any machine."""
    if not folded.wait(timeout=120):
        return
    workers = worker_processes()
    if workers:
        os.kill(workers[0], signal.SIGKILL)
        killed.append(time.monotonic())


@pytest.mark.parametrize("retries", [0, runner.DASK_ALLOWED_FAILURES])
def test_a_killed_worker_is_retried_or_a_clear_error(retries, capsys, monkeypatch):
    monkeypatch.setattr(runner, "DASK_ALLOWED_FAILURES", retries)
    folded = threading.Event()
    add = runner.RunResult.add

    def add_and_tell(self, record):
        add(self, record)
        folded.set()

    monkeypatch.setattr(runner.RunResult, "add", add_and_tell)
    killed: list[float] = []
    killer = threading.Thread(target=kill_the_worker_once_a_batch_is_in, args=(folded, killed), daemon=True)
    killer.start()
    code = main(["simulate", "word-to-the-wise", "--games", "400", "--players", "2", "--dask", "local",
                 "--workers", "1", "--seed", "1", "--luck-games", "0", "--json"])
    ended = time.monotonic()
    killer.join(timeout=1)
    captured = capsys.readouterr()
    assert killed, "no worker was killed: the run ended first"
    assert "Traceback" not in captured.err and "hit a bug" not in captured.err, captured.err[-2000:]
    if retries == 0:  # no retry allowed: the kill is the failure
        assert code == 2, captured.err[-2000:]
        assert ("--dask: the Dask cluster failed: a worker died playing a batch of games "
                "(1 try, as many as allowed") in captured.err
        assert ended - killed[0] < 30
    else:  # the batch is played again on the restarted worker: every game is in the figures
        assert code == 0, captured.err[-2000:]
        assert '"games": 400' in captured.out


def wait_for_games_on_the_worker(address: str, run: subprocess.Popen, seconds: float = 120) -> None:
    """Until the scheduler has simulate's batches processing on its worker (or the run ended)."""
    from dask.distributed import Client

    with Client(address, timeout=seconds) as watcher:
        deadline = time.monotonic() + seconds
        while run.poll() is None and time.monotonic() < deadline:
            if any(watcher.processing().values()):
                return
            time.sleep(0.1)
    pytest.fail("simulate never ran a batch on the Dask worker")


def test_a_killed_scheduler_is_a_clear_error_within_seconds(tmp_path):
    """`simulate --dask tcp://...` whose scheduler is killed mid-run: one error naming --dask, exit 2,
    no Dask tracebacks (there were three, reported as a Spellpress bug)."""
    dask_command = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    address_file = tmp_path / "scheduler.json"
    scheduler = subprocess.Popen([*dask_command, "--scheduler-file", str(address_file), "--port", "0", "--no-dashboard"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = run = None
    try:
        deadline = time.monotonic() + 60
        while not address_file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                                   str(address_file), "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        address = json.loads(address_file.read_text())["address"]
        run = subprocess.Popen([sys.executable, "-m", "spellpress", "simulate", "word-to-the-wise", "--games", "100000",
                                "--players", "2", "--dask", address, "--seed", "1", "--luck-games", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for_games_on_the_worker(address, run)  # a state, not a time: a loaded machine connects late
        assert run.poll() is None, run.communicate()
        scheduler.kill()
        killed = time.monotonic()
        _, err = run.communicate(timeout=60)
        stopped = time.monotonic() - killed
    finally:
        for process in (run, worker, scheduler):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
    assert run.returncode == 2, err[-2000:]
    assert "--dask: the Dask cluster failed: the scheduler is gone or does not answer" in err
    assert "Traceback" not in err, err[-2000:]
    assert stopped < 2 * runner.DASK_CONNECT_SECONDS + 5
