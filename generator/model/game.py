"""The loaded game: immutable objects the printer and the rules engines share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spellpress.errors import Location
from spellpress.model.memo import without_memo
from spellpress.model.schema import GameSpec, LetterRole


@dataclass(frozen=True)
class RawBox:
    """A template box as written (expressions unresolved), with where it was written."""

    name: str
    values: Mapping[str, Any]
    location: Location


@dataclass(frozen=True)
class Template:
    name: str
    boxes: tuple[RawBox, ...]
    location: Location


@dataclass(frozen=True)
class Card:
    id: str
    fields: Mapping[str, Any]
    count: int
    back_fields: Mapping[str, Any]
    location: Location

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)


@dataclass(frozen=True)
class BackFace:
    """What is printed behind a component's cards."""

    template: str
    fields: Mapping[str, Any]
    per_card: bool  # True: double-sided, each card's back is its own face
    location: Location | None = None  # a shared back's fields in game.yaml (`backs:`), where its mistakes are reported


@dataclass(frozen=True)
class Component:
    id: str
    name: str
    kind: str
    size: tuple[float, float]  # trim width, height in mm
    template: str
    back: BackFace | None
    letters: LetterRole
    cards: tuple[Card, ...]
    location: Location
    size_location: Location | None = None  # its `size:` line, blamed when the size does not fit the paper
    left_out: tuple[str, ...] = ()  # ids of its cards with count: 0, checked but not printed or played

    @property
    def copies(self) -> int:
        return sum(card.count for card in self.cards)


@dataclass(frozen=True)
class Game:
    id: str
    root: Path
    spec: GameSpec
    components: tuple[Component, ...]
    templates: Mapping[str, Template]
    fonts: Mapping[str, Path]
    icons: Mapping[str, Path]
    location: Location

    @property
    def name(self) -> str:
        return self.spec.name

    def __getstate__(self) -> dict:
        return without_memo(vars(self))  # engines' tables (model/memo.py) stay with this copy

    def component(self, component_id: str) -> Component:
        for component in self.components:
            if component.id == component_id:
                return component
        raise KeyError(component_id)


class FrozenDict(dict):
    """A read-only dict that still pickles (simulation workers receive games)."""

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("card data is read-only")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items(), key=lambda item: str(item[0]))))

    def __reduce__(self):
        return (FrozenDict, (dict(self),))


def freeze(value: Any) -> Any:
    """Deeply immutable copy of YAML data (dicts become read-only dicts, lists tuples)."""
    if isinstance(value, dict):
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value
