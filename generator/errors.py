"""User errors: every mistake in a definition names its file, line and column; a mistake in a
command-line option names the option."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Location:
    path: Path
    line: int = 0  # 1-based; 0 when unknown
    column: int = 0

    def __str__(self) -> str:
        shown = display_path(self.path)
        if self.line:
            return f"{shown}:{self.line}:{self.column}"
        return shown


@dataclass(frozen=True)
class Option:
    """The command-line option a problem is about, such as `--dask` (in place of a file)."""

    name: str

    def __str__(self) -> str:
        return self.name


Where = Location | Option
"""What a problem is about: a place in a file, or an option of the command."""


SHIPPED_ROOT: Path | None = None  # where the shipped templates and games are; set by spellpress.paths


def display_path(path: Path) -> str:
    """The path relative to the working folder, as the user typed it; a file Spellpress ships (a shared
    template, a shipped game's file) outside the working folder as 'shipped templates/deck-back.yaml'."""
    try:
        shown = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        shown = str(path)
    if shown.startswith(os.pardir) and SHIPPED_ROOT is not None:
        root = os.path.abspath(SHIPPED_ROOT)
        absolute = os.path.abspath(path)
        if absolute.startswith(root + os.sep):
            return "shipped " + os.path.relpath(absolute, root).replace(os.sep, "/")
    return shown


@dataclass(frozen=True)
class Problem:
    location: Where
    message: str
    subject: str = ""  # the card or face it was found on, when the same mistake can recur on many
    origin: Location | None = None  # where that card is written, when the mistake is told elsewhere (its template)

    def __str__(self) -> str:
        return f"{self.location}: {self.named}: {self.message}" if self.subject else f"{self.location}: {self.message}"

    @property
    def named(self) -> str:
        """The subject, and where it is written when that is not the problem's location."""
        return f"{self.subject} at {self.origin}" if self.origin is not None else self.subject


MAX_SUBJECTS_SHOWN = 5


_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def report_lines(problems: list[Problem]) -> list[str]:
    """One line a mistake: the same message found on several cards is one line naming them and their count."""
    return [report_line(found) for found in grouped(problems)]


def grouped(problems: list[Problem]) -> list[list[Problem]]:
    """The problems by mistake: one message found on several cards (subjects) is one group."""
    groups: dict[tuple[str, str], list[Problem]] = {}
    for problem in problems:
        # the same mistake on each card may measure differently on each (how far its ink reaches)
        shape = _NUMBER.sub("#", problem.message)
        key = (shape, "") if problem.subject else (problem.message, str(problem.location))
        groups.setdefault(key, []).append(problem)
    return list(groups.values())


def report_line(found: list[Problem]) -> str:
    first = found[0]
    if len(found) == 1:
        return str(first)
    names = ", ".join(p.named for p in found[:MAX_SUBJECTS_SHOWN])
    more = f" and {len(found) - MAX_SUBJECTS_SHOWN:,} more" if len(found) > MAX_SUBJECTS_SHOWN else ""
    figures = "" if all(p.message == first.message for p in found) else "; the figures are the first face's"
    return f"{first.location}: {first.message} (on {len(found):,} faces: {names}{more}{figures})"


def _reading_order(problem: Problem) -> tuple:
    """Options first, then files in path, line and column order."""
    where = problem.location
    if isinstance(where, Option):
        return (0, where.name, 0, 0, ("", 0, 0), problem.message)
    origin = problem.origin  # a template's mistake: the cards it was found on in their order
    return (1, str(where.path), where.line, where.column,
            (str(origin.path), origin.line, origin.column) if origin is not None else ("", 0, 0), problem.message)


class UserError(Exception):
    """One or more mistakes in what the user wrote or asked for (exit code 2)."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems), key=_reading_order)
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self):
        # an error raised in a worker process must reach the parent whole
        return (UserError, (self.problems,))

    @classmethod
    def at(cls, location: Where, message: str) -> UserError:
        return cls([Problem(location, message)])


@dataclass
class Problems:
    """Collects every problem of a run so they are reported at once."""

    items: list[Problem] = field(default_factory=list)

    def add(self, location: Where, message: str, subject: str = "", origin: Location | None = None) -> None:
        self.items.append(Problem(location, message, subject, origin))

    def extend(self, error: UserError) -> None:
        self.items.extend(error.problems)

    def raise_if_any(self) -> None:
        if self.items:
            raise UserError(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)
