"""A progress bar that appears only when the work takes longer than a second; where stderr is not a terminal
(a pipe, a log file, CI) and the caller asks for it (`lines=True`), a plain line instead at every tenth of
the work and at least every LINE_EVERY_S seconds, so a log shows the work moving."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

from spellpress.ctrl_c import CtrlC

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

T = TypeVar("T")
DELAY_S = 1.0
LINE_EVERY_S = 10.0


class LazyProgress:
    def __init__(self, description: str, total: int, enabled: bool = True, lines: bool = False):
        self.description = description
        self.total = total
        terminal = sys.stderr.isatty()
        self.enabled = enabled and terminal
        self.lines = enabled and lines and not terminal
        self.started = self.said_at = time.monotonic()
        self.said_tenth = 0
        self.done = 0
        self.bar: Progress | None = None
        self.task: TaskID | None = None

    def _line(self) -> None:
        now = time.monotonic()
        tenth = 10 * self.done // self.total if self.total > 0 else 0
        if now - self.started < DELAY_S or (tenth <= self.said_tenth and now - self.said_at < LINE_EVERY_S):
            return
        self.said_tenth, self.said_at = tenth, now
        share = f" ({100 * self.done // self.total}%)" if self.total > 0 else ""
        print(f"{self.description}: {self.done:,} of {self.total:,}{share}, {now - self.started:.0f} s",
              file=sys.stderr, flush=True)

    def advance(self, steps: int = 1) -> None:
        CtrlC.check()  # a step of long work: where a Ctrl-C that a library swallowed is raised again
        self.done += steps
        if self.lines:
            self._line()
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

    def __enter__(self) -> LazyProgress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def track(items: Iterable[T], description: str, total: int, enabled: bool = True) -> Iterator[T]:
    with LazyProgress(description, total, enabled) as progress:
        for item in items:
            yield item
            progress.advance()
