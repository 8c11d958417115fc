"""The worker processes of the raster exports: one pool for a whole command, or one per build.

Workers are forked (early, from a small process: the fewer pages a fork shares, the fewer
the kernel copies on write) and run the jobs of write/pixels.py by name, so that this
process imports the pixel code only when it draws something itself.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
from concurrent.futures import Executor, Future, ProcessPoolExecutor

from spellpress.pools import close_pool, process_pool, release_free_memory

PARALLEL_FROM = 4  # fewer pieces of work than this are done in this process (unless a pool is running anyway)


def run_pixel_job(job: str, *arguments):
    """Run a job of write/pixels.py (named, so that this process need not import it), then give
    the memory it freed back: a worker lives for a whole command."""
    from spellpress.write import pixels

    try:
        return getattr(pixels, job)(*arguments)
    finally:
        release_free_memory()


def _import_pixels() -> None:
    import spellpress.write.pixels  # noqa: F401


class InThisProcess(Executor):
    """Runs work in this process (one core, a small job, or threads that a fork could not copy)."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


_SHARED: list[ProcessPoolExecutor] = []  # the pool of the command running now (shared_workers), if any


def _fork_pool(count: int) -> ProcessPoolExecutor:
    return process_pool(count, mp_context=multiprocessing.get_context("fork"))


@contextlib.contextmanager
def shared_workers(workers: int | None = None):
    """One pool of worker processes for every game a command builds, forked once, early."""
    count = workers or default_workers()
    if count <= 1 or threading.active_count() > 1 or _SHARED:
        yield
        return
    pool = _fork_pool(count)
    # a first job forks the workers now, and one of them imports the pixel code while this process
    # loads and lays out (one, not all: on two cores this process keeps the other)
    pool.submit(_import_pixels)
    _SHARED.append(pool)
    failed = True
    try:
        yield
        failed = False
    finally:
        _SHARED.remove(pool)
        close_pool(pool, failed=failed)


class Workers:
    """The pool one build draws with: the command's shared pool, a pool of its own, or none
    (one worker, or a process with other threads, which a fork could not copy)."""

    def __init__(self, count: int | None = None):
        self.count = count or default_workers()
        self._pool: ProcessPoolExecutor | None = None
        self._own = False

    def start(self) -> None:
        if self.count > 1 and _SHARED:
            self._pool = _SHARED[0]
        elif self.count > 1 and threading.active_count() == 1:
            self._pool, self._own = _fork_pool(self.count), True

    def stop(self, failed: bool) -> None:
        if self._pool is not None and self._own:
            close_pool(self._pool, failed=failed)
        self._pool, self._own = None, False

    @property
    def shared(self) -> bool:
        """True when the pool outlives this build (its queued work must be cancelled one by one)."""
        return self._pool is not None and not self._own

    def for_jobs(self, jobs: int) -> Executor:
        """The workers, unless the job is too small to be worth starting a pool of its own for."""
        if self._pool is not None and (jobs >= PARALLEL_FROM or not self._own):
            return self._pool
        return InThisProcess()
