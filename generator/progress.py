"""A progress bar that appears only when the work takes longer than a second."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Iterable, Iterator, TypeVar

from spellpress.ctrl_c import CtrlC

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

T = TypeVar("T")
DELAY_S = 1.0


class LazyProgress:
    def __init__(self, description: str, total: int, enabled: bool = True):
        self.description = description
        self.total = total
        self.enabled = enabled and sys.stderr.isatty()
        self.started = time.monotonic()
        self.done = 0
        self.bar: Progress | None = None
        self.task: TaskID | None = None

    def advance(self, steps: int = 1) -> None:
        CtrlC.check()  # a step of long work: where a Ctrl-C that a library swallowed is raised again
        self.done += steps
        if self.bar is None and self.enabled and time.monotonic() - self.started > DELAY_S:
            from rich.console import Console  # imported only when a bar is shown
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                console=Console(stderr=True), transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task(self.description, total=self.total, completed=self.done)
        elif self.bar is not None and self.task is not None:
            self.bar.update(self.task, completed=self.done)

    def describe(self, description: str) -> None:
        self.description = description
        if self.bar is not None and self.task is not None:
            self.bar.update(self.task, description=description)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def __enter__(self) -> "LazyProgress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def track(items: Iterable[T], description: str, total: int, enabled: bool = True) -> Iterator[T]:
    with LazyProgress(description, total, enabled) as progress:
        for item in items:
            yield item
            progress.advance()
