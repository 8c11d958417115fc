"""Futures chained by hand: a job submitted once the jobs it needs are done, work split in chunks."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, Future


def submit_when_done(pool: Executor, sources: dict[Hashable, bytes | tuple[Future, int]],
                     submit: Callable[[Executor, dict], Future]) -> Future:
    """A job submitted once every input it needs is ready: `sources` are bytes, or (job, index)
    of a job whose result is a list. `submit(pool, inputs)` submits it with the inputs as bytes.
    The returned future has the job's result, or the first failure."""
    result: Future = Future()
    waiting = {source[0] for source in sources.values() if isinstance(source, tuple)}
    left, lock = [len(waiting)], threading.Lock()

    def settle(job: Future) -> None:
        if result.cancelled():
            return
        if job.cancelled():
            result.cancel()
        elif job.exception() is not None:
            result.set_exception(job.exception())
        else:
            result.set_result(job.result())

    def launch() -> None:
        try:
            inputs = {name: source if isinstance(source, bytes) else source[0].result()[source[1]]
                      for name, source in sources.items()}
            job = submit(pool, inputs)
        except BaseException as exc:  # an input that failed, or a pool that was shut down
            if not result.cancelled():
                result.set_exception(exc)
            return
        job.add_done_callback(settle)

    def one_done(_: Future) -> None:
        with lock:
            left[0] -= 1
            ready = left[0] == 0
        if ready:
            launch()

    if not waiting:
        launch()
    for job in waiting:
        job.add_done_callback(one_done)
    return result


def chunks(items: list, count: int) -> list[list]:
    """`items` in at most `count` runs of nearly equal length, in order."""
    size = max(1, math.ceil(len(items) / count))
    return [items[start : start + size] for start in range(0, len(items), size)]
