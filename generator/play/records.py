"""A played game as JSON: the game, the seed, who sat where, every action (chance included).

Actions are the engine's own values (tuples of strings, numbers and booleans); JSON keeps a
tuple as a list, so reading turns every list back into a tuple. Replaying the actions from
`rules.new_state(game, players)` gives the same game move by move: chance is recorded, not
drawn again.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

VERSION = 1


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


@dataclass
class Decision:
    """A human's move and what the game's heuristic would have played there."""

    step: int  # index in the actions
    seat: int
    chosen: str
    heuristic: str

    @property
    def agrees(self) -> bool:
        return self.chosen == self.heuristic


@dataclass
class Record:
    game: str
    seed: int
    seats: list[str]
    actions: list[Any] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    scores: list[float] | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"version": VERSION, "game": self.game, "seed": self.seed, "seats": self.seats,
                "options": self.options, "scores": self.scores,
                "actions": [to_json_value(a) for a in self.actions],
                "decisions": [vars(d) for d in self.decisions]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Record":
        return cls(game=data["game"], seed=int(data["seed"]), seats=list(data["seats"]),
                   actions=[from_json_value(a) for a in data["actions"]],
                   decisions=[Decision(**d) for d in data.get("decisions", [])],
                   scores=data.get("scores"), options=dict(data.get("options") or {}))


def save(record: Record, folder: Path, name: str) -> Path:
    """Write the record atomically as folder/name.json."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".", suffix=".json.part")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(record.to_json(), out, indent=1)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def load(path: Path) -> Record:
    return Record.from_json(json.loads(path.read_text(encoding="utf-8")))
