"""Worker pools and Ctrl-C: a worker never sees the interrupt, even one pressed while it is being forked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from spellpress.pools import close_pool, process_pool
from tests.conftest import ROOT


def _worker_signals() -> tuple[object, bool]:
    return signal.getsignal(signal.SIGINT), signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())


def test_a_worker_ignores_ctrl_c_and_the_parent_still_takes_it():
    pool = process_pool(2)
    try:
        handler, blocked = pool.submit(_worker_signals).result(timeout=30)
    finally:
        close_pool(pool, failed=False)
    assert handler == signal.SIG_IGN
    assert not blocked, "the worker left Ctrl-C blocked after choosing to ignore it"
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set()), "the parent left Ctrl-C blocked"


# Ctrl-C pressed (to the whole process group, as a terminal does) at seeded moments while workers are forked
STORM = textwrap.dedent("""
    import os, random, signal, sys, threading, time
    sys.path.insert(0, sys.argv[1])
    from spellpress.pools import close_pool, process_pool
    moments = random.Random(int(sys.argv[3]))
    close_pool(process_pool(1), failed=False)  # modules imported before the first Ctrl-C
    interrupted = 0
    for round in range(int(sys.argv[2])):
        pool = None
        try:
            threading.Timer(moments.uniform(0, 0.004), os.killpg, (0, signal.SIGINT)).start()
            pool = process_pool(2)
            futures = [pool.submit(pow, 2, n) for n in range(4)]
            time.sleep(0.2)
        except KeyboardInterrupt:
            interrupted += 1
            if pool is not None:
                close_pool(pool, failed=True)
            continue
        close_pool(pool, failed=False)
    print(interrupted)
""")


@pytest.mark.slow
def test_ctrl_c_while_workers_are_forked_reaches_the_parent_only():
    run = subprocess.run([sys.executable, "-c", STORM, str(ROOT), "40", "31"], capture_output=True, text=True, timeout=180,
                         start_new_session=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Traceback" not in run.stderr and "KeyboardInterrupt" not in run.stderr, run.stderr[-2000:]
    assert run.stdout.split()[-1] == "40", "every round's Ctrl-C reached the parent"


def _blocks_ctrl_c(native_id: int) -> bool:
    status = Path(f"/proc/self/task/{native_id}/status").read_text()
    mask = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigBlk:")), 16)
    return bool(mask & (1 << (signal.SIGINT - 1)))


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads each thread's signal mask from /proc (Linux)")
def test_the_pools_own_threads_leave_ctrl_c_to_the_main_thread():
    """Delivered to the pool's manager or feeder thread, a Ctrl-C would not wake the main thread from its
    wait for results (a build stopped 4 s late): the pool's threads block it, the main thread does not."""
    import threading

    before = {t.ident for t in threading.enumerate()}
    pool = process_pool(2)
    try:
        pool.submit(pow, 2, 3).result(timeout=30)
        started = [t for t in threading.enumerate() if t.ident not in before]
        assert started, "the pool started no thread"
        assert all(_blocks_ctrl_c(t.native_id) for t in started), [t.name for t in started]
        assert not _blocks_ctrl_c(threading.main_thread().native_id)
    finally:
        close_pool(pool, failed=False)
