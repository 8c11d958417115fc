"""Actions as JSON values: a game record (`spellpress play`) keeps an engine's actions so, and check-engine
makes sure each comes back equal. Tuples become lists and come back as tuples; anything else JSON cannot
hold is refused."""

from __future__ import annotations

from typing import Any


def to_json_value(action: Any) -> Any:
    if isinstance(action, (tuple, list)):
        return [to_json_value(part) for part in action]
    if isinstance(action, (str, int, float, bool)) or action is None:
        return action
    raise TypeError(f"an action part that JSON cannot hold: {action!r}")


def from_json_value(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(from_json_value(part) for part in value)
    return value
