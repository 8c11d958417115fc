"""Looking inside a state from outside: which containers two states share, and a comparable snapshot.

Both follow the default `State.clone()`'s rule of what is static: an attribute of the state that
is not a plain container (a catalog, a definitions table), and that object's own attributes, is
the game's unchanging data; it is neither walked nor compared, only its identity counts.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from spellpress.rules.protocol import CONTAINERS, State

MUTABLE = (list, dict, set, deque, bytearray)  # Counter and defaultdict are dicts
ATOMS = (str, bytes, int, float, complex, bool, type(None))


def static_ids(state: State) -> set[int]:
    ids = set()
    for value in vars(state).values():
        if isinstance(value, (State, *ATOMS, *CONTAINERS)):
            continue
        ids.add(id(value))
        ids.update(id(inner) for inner in getattr(value, "__dict__", {}).values())
    return ids


def _children(value: Any) -> list[tuple[str, Any]]:
    """(path step, child) of a container or a plain object's attributes."""
    if isinstance(value, dict):
        return [(f"[{key!r}]", item) for key, item in value.items()] + [("(key)", key) for key in value]
    if isinstance(value, (list, tuple, deque)):
        return [(f"[{index}]", item) for index, item in enumerate(value)]
    if isinstance(value, (set, frozenset)):
        return [("{}", item) for item in value]
    fields = getattr(value, "__dict__", None)
    if fields is None:
        fields = {name: getattr(value, name) for name in getattr(type(value), "__slots__", ()) if hasattr(value, name)}
    return [(f".{name}", item) for name, item in fields.items()]


def mutable_containers(state: State) -> dict[int, str]:
    """id -> where (e.g. `hands[1]`) of every list, dict or set the state holds outside its static data."""
    static = static_ids(state)
    found: dict[int, str] = {}
    seen: set[int] = set()
    stack = [(name, value) for name, value in vars(state).items()]
    while stack:
        path, value = stack.pop()
        if isinstance(value, (ATOMS, State)) or id(value) in static or id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, MUTABLE):
            found[id(value)] = path
        stack.extend((path + step, child) for step, child in _children(value))
    return found


def shared_containers(original: State, copy: State) -> list[str]:
    """Where `copy` holds the very list, dict or set that `original` holds: a change to one shows in the other."""
    theirs = mutable_containers(original)
    return sorted(path for key, path in mutable_containers(copy).items() if key in theirs)


def snapshot(state: State, caches: bool = True) -> list[tuple[str, Any]]:
    """(where, what) for everything the state holds outside its static data, in order (compare with ==).

    Static data shows as its type only. Without `caches`, attributes whose names start with an
    underscore (by convention what the state remembers to save work) are left out."""
    static = static_ids(state)
    flat: list[tuple[str, Any]] = []

    def walk(path: str, value: Any, depth: int) -> None:
        if isinstance(value, ATOMS):
            flat.append((path, value))
        elif id(value) in static or isinstance(value, State) or depth > 40:
            flat.append((path, ("static", type(value).__name__)))
        elif isinstance(value, (set, frozenset)):
            flat.append((path, ("set", sorted(map(repr, value)))))
        else:
            children = _children(value)
            flat.append((path, (type(value).__name__, len(children))))
            for step, child in children:
                walk(path + step, child, depth + 1)

    for name, value in vars(state).items():
        if caches or not name.startswith("_"):
            walk(name, value, 0)
    return flat


def first_difference(one: list[tuple[str, Any]], other: list[tuple[str, Any]]) -> str | None:
    """Where two snapshots first differ (e.g. `hands[1][0]`), or None."""
    for mine, theirs in zip(one, other, strict=False):
        if mine != theirs:
            return mine[0] if mine[0] == theirs[0] else f"{mine[0]} / {theirs[0]}"
    return None if len(one) == len(other) else (one[len(other)][0] if len(one) > len(other) else other[len(one)][0])
