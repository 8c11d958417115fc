"""Values computed once per object and kept on that object, so they live and die with it.

Engines read a game's cards into their own tables once per game (and per options); the
renderer keys each face once. Such a value is stored in the object's own `__dict__` (a
frozen dataclass refuses attribute assignment, not its dict), never in a module-level
table keyed by `id(obj)`: an id is reused as soon as its object is freed, so such a table
either hands one game's data to the next or keeps every game alive. Copies made by
`pickle` or `copy` leave the stored values behind (see `Game.__getstate__`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

SLOT = "_memo"  # the attribute that holds an object's stored values


def memo_on(obj: Any, kind: str, key: Hashable, build: Callable[[], T]) -> T:
    """`build()` for this object, kind of value and key: computed the first time, then the
    same value for as long as the object lives."""
    store = vars(obj).get(SLOT)
    if store is None:
        store = vars(obj).setdefault(SLOT, {})
    entry = (kind, key)
    if entry in store:
        return store[entry]
    value = store[entry] = build()
    return value


def without_memo(state: dict[str, Any]) -> dict[str, Any]:
    """An object's `__dict__` for pickling or copying: its stored values are not copied."""
    return {k: v for k, v in state.items() if k != SLOT}
