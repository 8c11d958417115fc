"""Worker process pools that Ctrl-C stops at once: workers ignore the interrupt, the parent ends them."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import Any

PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _leave_interrupts_to_the_parent() -> None:
    """A worker ignores Ctrl-C (the terminal sends it to every process): the parent stops it cleanly.

    The worker was forked with Ctrl-C blocked (InterruptiblePool); ignoring it before unblocking
    drops one pressed in between, which would otherwise raise inside the fork's own clean-up
    (logging's after-fork hook) and leave a broken worker for the parent to wait on.
    And a worker dies with its parent: if the parent is killed outright (kill -9, the out-of-memory
    killer), its workers would otherwise wait for work forever.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _die_with_parent()


def _die_with_parent() -> None:
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return  # best effort: without it the pool's own shutdown still ends the workers
    if os.getppid() == 1:  # the parent died before prctl took effect
        os._exit(1)


class InterruptiblePool(ProcessPoolExecutor):
    """Starts each worker with Ctrl-C blocked, so none arrives before the worker has chosen to ignore it.

    In the parent a Ctrl-C pressed meanwhile is only noted and raised once the worker is started:
    the signal may reach another thread of the parent (the mask is the main thread's), and its
    KeyboardInterrupt would then be raised inside the fork's own hooks (logging's), where Python
    reports it as "Exception ignored" and drops it.
    """

    def submit(self, fn, /, *args, **kwargs):
        """Threads the pool starts here (its manager, its queue's feeder) inherit Ctrl-C blocked, so the
        kernel delivers Ctrl-C to the main thread: delivered to one of them, it would not wake the main
        thread from its wait for results, and the interruption would come seconds late."""
        if threading.current_thread() is not threading.main_thread():
            return super().submit(fn, *args, **kwargs)
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            return super().submit(fn, *args, **kwargs)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)

    def _spawn_process(self) -> None:
        if threading.current_thread() is not threading.main_thread():  # only the main thread may set handlers
            self._spawn_blocked()
            return
        pressed: list[int] = []
        handler = signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum))
        try:
            self._spawn_blocked()
        finally:
            signal.signal(signal.SIGINT, handler)
        if pressed and callable(handler):
            handler(signal.SIGINT, None)  # Python's own raises KeyboardInterrupt here, in plain code

    def _spawn_blocked(self) -> None:
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            super()._spawn_process()  # type: ignore[misc]
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def process_pool(workers: int, **options: Any) -> ProcessPoolExecutor:
    return InterruptiblePool(max_workers=workers, initializer=_leave_interrupts_to_the_parent, **options)


def close_pool(pool: ProcessPoolExecutor, failed: bool) -> None:
    """Wait for the work when all went well; when interrupted or failed, drop the queue and stop the workers now."""
    if not failed:
        pool.shutdown()
        return
    workers = list((pool._processes or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        process.terminate()
    for process in workers:
        process.join(timeout=2)


def release_free_memory() -> None:
    """Hand the memory freed by a finished job back to the system (glibc keeps freed blocks for
    reuse, so a long-lived worker would otherwise stay as large as its largest job)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass  # not glibc
