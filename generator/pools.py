"""Worker process pools that Ctrl-C stops at once: workers ignore the interrupt, the parent ends them."""

from __future__ import annotations

import signal
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def _leave_interrupts_to_the_parent() -> None:
    """A worker ignores Ctrl-C (the terminal sends it to every process): the parent stops it cleanly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def process_pool(workers: int, **options: Any) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers, initializer=_leave_interrupts_to_the_parent, **options)


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
