"""A played game as JSON: the game, the seed, who sat where, every action (chance included).

Actions are the engine's own values (tuples of strings, numbers and booleans); JSON keeps a
tuple as a list, so reading turns every list back into a tuple. Replaying the actions from
`rules.new_state(game, players)` gives the same game move by move: chance is recorded, not
drawn again.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spellpress.rules.action_json import from_json_value, to_json_value

VERSION = 1
MAX_NAME = 100  # characters of a record's file name (before -2 and .json): a long game id or seed is cut and hashed
MAX_DEPTH = 32  # lists in lists in an action: the engines' are two deep
MAX_BYTES = 64 * 1024 * 1024  # a record read back: a long game is a few hundred kilobytes
SAME_NAME_TRIES = 1000


class NotARecord(ValueError):
    """A file that is not a game record this version can replay, and why."""


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
    def from_json(cls, data: Any) -> Record:
        """The record, or NotARecord naming the first field that is not what a record holds."""
        if not isinstance(data, dict):
            raise NotARecord(f"a JSON {type(data).__name__}, not an object with game, seed, seats and actions")
        for key in ("game", "seed", "seats", "actions"):
            if key not in data:
                raise NotARecord(f"no {key!r}")
        if data.get("version", VERSION) != VERSION:
            raise NotARecord(f"version {data['version']!r}; this Spellpress reads version {VERSION}")
        game, seed, seats, actions = data["game"], data["seed"], data["seats"], data["actions"]
        if not isinstance(game, str):
            raise NotARecord(f"'game' is {game!r}, not a game id")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise NotARecord(f"'seed' is {_short(seed)}, not a whole number")
        if not isinstance(seats, list) or not seats or not all(isinstance(label, str) for label in seats):
            raise NotARecord(f"'seats' is {_short(seats)}, not a list of seat names such as \"human\"")
        if not isinstance(actions, list):
            raise NotARecord(f"'actions' is {_short(actions)}, not a list")
        for number, action in enumerate(actions, 1):
            problem = _not_an_action(action, 0)
            if problem:
                raise NotARecord(f"action {number} {problem}")
        scores = data.get("scores")
        if scores is not None and not (isinstance(scores, list) and all(_finite(s) for s in scores)):
            raise NotARecord(f"'scores' is {_short(scores)}, not a list of numbers")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise NotARecord(f"'options' is {_short(options)}, not an object")
        return cls(game=game, seed=seed, seats=list(seats), actions=[from_json_value(a) for a in actions],
                   decisions=_decisions(data.get("decisions") or []), scores=scores, options=dict(options))


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _not_an_action(value: Any, depth: int) -> str | None:
    if depth > MAX_DEPTH:
        return f"is nested more than {MAX_DEPTH} lists deep"
    if isinstance(value, list):
        return next((p for p in (_not_an_action(part, depth + 1) for part in value) if p), None)
    if isinstance(value, float) and not math.isfinite(value):
        return f"holds {value!r}, not a finite number"
    if isinstance(value, (str, int, float, bool)) or value is None:
        return None
    return f"holds a JSON {type(value).__name__}, which no action holds"


def _decisions(items: Any) -> list[Decision]:
    fields = {"step": int, "seat": int, "chosen": str, "heuristic": str}
    if not isinstance(items, list):
        raise NotARecord(f"'decisions' is {_short(items)}, not a list")
    decisions = []
    for number, item in enumerate(items, 1):
        if not (isinstance(item, dict) and set(item) == set(fields)
                and all(isinstance(item[k], kind) and not isinstance(item[k], bool) for k, kind in fields.items())):
            raise NotARecord(f"decision {number} is {_short(item)}, not {{step, seat, chosen, heuristic}}")
        decisions.append(Decision(**item))
    return decisions


def file_name(name: str) -> str:
    """`name` short enough for any file system: a long one is cut, and told apart by a hash of the whole."""
    if len(name) <= MAX_NAME:
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{name[:MAX_NAME - 13]}-{digest}"


def save(record: Record, folder: Path, name: str) -> Path:
    """Write the record atomically as folder/name.json, or name-2.json (-3 ...) when that is taken:
    a record is never overwritten (two tables of one seed may end in the same second)."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = file_name(name)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".", suffix=".json.part")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(record.to_json(), out, indent=1)
        for attempt in range(1, SAME_NAME_TRIES + 1):
            path = folder / (f"{stem}.json" if attempt == 1 else f"{stem}-{attempt}.json")
            try:
                _claim(temporary, path)
            except FileExistsError:
                continue
            return path
        raise FileExistsError(f"{folder / stem}.json and {SAME_NAME_TRIES - 1} more names are taken")
    finally:
        Path(temporary).unlink(missing_ok=True)


def _claim(temporary: str, path: Path) -> None:
    """Give the written file its name; FileExistsError, never a replaced record, when the name is taken."""
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: reserve the name, then move the file onto it
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        os.replace(temporary, path)


def writable_folder(folder: Path) -> str | None:
    """Why records cannot be saved in `folder` (made if missing), or None: asked at the start, so a game
    is not lost at its end."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".", suffix=".json.part")
        os.close(handle)
        os.unlink(temporary)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def load(path: Path) -> Record:
    """The record in `path`; OSError if it cannot be read, NotARecord if it is not a record."""
    with open(path, "rb") as source:
        data = source.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise NotARecord(f"more than {MAX_BYTES // 2**20} MB: no game record is that long")
    try:
        parsed = json.loads(data.decode("utf-8"))  # NaN and 1e999 read as floats: refused where they stand
    except UnicodeDecodeError as exc:
        raise NotARecord(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise NotARecord(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise NotARecord("JSON nested too deeply to be a record") from None
    return Record.from_json(parsed)


def replay_problem(rules, game, record: Record) -> str | None:
    """Why the record's actions cannot be replayed on this game as it is now (the first action that is not
    legal there, or a player count it does not take), or None."""
    from spellpress.rules.protocol import CHANCE, TERMINAL

    allowed = rules.players_allowed(game)
    if len(record.seats) not in allowed:
        return f"{len(record.seats)} seats; {game.name} is for {allowed.start} to {allowed.stop - 1} players"
    state = rules.new_state(game, len(record.seats), record.options or None)
    for number, action in enumerate(record.actions, 1):
        seat = state.current_player()
        if seat == TERMINAL:
            return f"action {number} comes after the game's end"
        possible = [a for a, _ in state.chance_outcomes()] if seat == CHANCE else list(state.legal_actions())
        if action not in possible:
            who = "chance" if seat == CHANCE else f"seat {seat + 1}"
            return f"action {number} ({_short(action)}) is not one {who} can take there"
        state.apply(action)
    return None
