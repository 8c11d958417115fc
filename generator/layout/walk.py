"""One walk over a face's drawing operations: every operation that puts ink on the page, in drawing
order, with the rotated Groups it sits in. Consumers `match` what it yields and end with
`assert_never`, so an operation type one of them does not handle fails the type check."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from spellpress.layout.ops import Drawn, Group, Op


@dataclass(frozen=True, eq=False)
class Scope:
    """A Group the walk has entered, inside the scope around it (None: the face itself). A new
    object each time the walk enters a Group, so two equal Groups side by side are two scopes."""

    group: Group
    outer: Scope | None = None


def walk(ops: Iterable[Op], scope: Scope | None = None) -> Iterator[tuple[Drawn, Scope | None]]:
    """Each drawn operation of `ops`, Groups opened, with the innermost Group around it."""
    for op in ops:
        if isinstance(op, Group):
            yield from walk(op.ops, Scope(op, scope))
        else:
            yield op, scope


def enclosing(scope: Scope | None) -> list[Scope]:
    """The scopes from the outermost one in to `scope` (none at the top level)."""
    found: list[Scope] = []
    while scope is not None:
        found.append(scope)
        scope = scope.outer
    return found[::-1]
