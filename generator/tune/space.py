"""The search space of `spellpress tune`: `--vary` keys as lists, ranges and card families.

    rules.next_starter=clockwise,trailing   a list: one of these values
    rules.hand_start=3..6                   a whole-number range, both ends included
    cards.spells.sycophant.cost=-1..+2      a change to the current value (a `+` on the upper end)
    cards.letters.*.points=-2..+2           a family: that change for every card of the component;
                                            with --max-changes N, at most N of its cards change

A candidate is a variant: the (key, value) pairs it changes, in the order the keys were given,
applied by `variants.apply_variant` like a sweep's. Keys use sweep's syntax (docs/simulate.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from spellpress.errors import UserError
from spellpress.simulate.api import find_card
from spellpress.simulate.variants import VARY, apply_variant, known_rules_keys, parse_value, split_vary

RANGE = re.compile(r"^\s*([+-]?\d+(?:\.\d+)?)\s*\.\.\s*([+-]?\d+(?:\.\d+)?)\s*$")
NO_CARD = "-"  # a family slot that changes nothing


@dataclass(frozen=True)
class Dimension:
    """One key and what it may take: `choices`, or a range [low, high] (a change when `relative`)."""

    key: str
    current: Any
    choices: tuple = ()
    low: float | int | None = None
    high: float | int | None = None
    relative: bool = False

    def value(self, drawn: Any) -> Any:
        """The value a drawn parameter gives this key."""
        if self.relative:
            return type(self.current)(self.current + drawn)
        return drawn


@dataclass(frozen=True)
class Family:
    """`cards.COMPONENT.*.FIELD`: the same range or change for every card of the component."""

    pattern: str
    members: tuple[Dimension, ...]


@dataclass(frozen=True)
class Space:
    dimensions: tuple[Dimension, ...]
    families: tuple[Family, ...]
    max_changes: int | None = None  # the families together change at most this many cards; None: any number

    def size(self) -> int | None:
        """The number of grid points of the space (None when a range is continuous)."""
        total = 1
        for dim in self.dimensions + tuple(m for f in self.families for m in f.members):
            if dim.choices:
                total *= len(dim.choices)
            elif isinstance(dim.low, int) and isinstance(dim.high, int):
                total *= dim.high - dim.low + 1
            else:
                return None
        return total


def current_value(game, rules, key: str) -> Any:
    """What the unchanged game has at a --vary key (an engine default for a rules key left out of game.yaml)."""
    head, *path = key.split(".")
    if head == "rules":
        node: Any = game.spec.rules
        for depth, part in enumerate(path):
            if isinstance(node, dict) and part in map(str, node):
                node = next(v for k, v in node.items() if str(k) == part)
            elif depth == 0 and part in known_rules_keys(rules):
                return rules.settings.model_fields[part].default
            else:
                apply_variant(game, ((key, 0),), known_rules_keys(rules))  # raises the sweep's message
                raise UserError.at(VARY, f"{key}: no such rules key")
        return node
    if len(path) != 3:
        raise UserError.at(VARY, f"{key}: expected cards.COMPONENT.CARD.FIELD")
    component = next((c for c in game.components if c.id == path[0]), None)
    if component is None:
        raise UserError.at(VARY, f"{key}: no component {path[0]!r} (known: {', '.join(c.id for c in game.components)})")
    card = find_card(component, path[1], key)
    if path[2] == "count":
        return card.count
    if path[2] not in card.fields:
        raise UserError.at(VARY, f"{key}: card {card.id} has no field {path[2]!r} (fields: count, {', '.join(card.fields)})")
    return card.fields[path[2]]


def _number(text: str) -> int | float:
    return float(text) if "." in text else int(text)


def _dimension(game, rules, key: str, values: str) -> Dimension:
    current = current_value(game, rules, key)
    match = RANGE.match(values)
    if match:
        low_text, high_text = match.groups()
        relative = high_text.startswith("+")
        low, high = _number(low_text), _number(high_text)
        if low > high:
            raise UserError.at(VARY, f"{key}: the range {values} runs backwards; write LOW..HIGH")
        if isinstance(current, bool) or not isinstance(current, (int, float)):
            raise UserError.at(VARY, f"{key}: a range needs a number there, the game has {current!r}; list the values")
        if isinstance(current, int) and (isinstance(low, float) or isinstance(high, float)):
            raise UserError.at(VARY, f"{key}: the game has the whole number {current}; give a whole-number range")
        if isinstance(current, float):
            low, high = float(low), float(high)
        return Dimension(key, current, low=low, high=high, relative=relative)
    choices = tuple(parse_value(v) for v in values.split(",") if v.strip())
    if not choices:
        raise UserError.at(VARY, f"{key}: give values V1,V2,... or a range LOW..HIGH")
    return Dimension(key, current, choices=tuple(dict.fromkeys(choices)))


def parse_space(game, rules, items: list[str], max_changes: int | None) -> Space:
    """--vary items -> a Space, every key checked against the game (exit 2 naming the key)."""
    dimensions, families = [], []
    for key, values in split_vary(items, "KEY=V1,V2,... or KEY=LOW..HIGH"):
        parts = key.split(".")
        if "*" in parts:
            if parts[0] != "cards" or len(parts) != 4 or parts[2] != "*":
                raise UserError.at(VARY, f"{key}: a family is cards.COMPONENT.*.FIELD (every card of the component)")
            component = next((c for c in game.components if c.id == parts[1]), None)
            if component is None:
                raise UserError.at(VARY, f"{key}: no component {parts[1]!r} (known: {', '.join(c.id for c in game.components)})")
            # a card that leaves the field empty (a spell with no cost) is not one of the family
            members = tuple(_dimension(game, rules, f"cards.{parts[1]}.{card.id}.{parts[3]}", values)
                            for card in component.cards
                            if parts[3] == "count" or card.fields.get(parts[3]) is not None)
            if not members:
                raise UserError.at(VARY, f"{key}: no card of {parts[1]} has a value in field {parts[3]!r}")
            families.append(Family(key, members))
        else:
            dimensions.append(_dimension(game, rules, key, values))
    if max_changes is not None and not families:
        raise UserError.at(VARY, "--max-changes limits a family (cards.COMPONENT.*.FIELD); none is varied")
    return Space(tuple(dimensions), tuple(families), max_changes)


def _draw(trial, name: str, dim: Dimension) -> Any:
    if dim.choices:
        return trial.suggest_categorical(name, list(dim.choices))
    if isinstance(dim.low, int):
        return trial.suggest_int(name, dim.low, dim.high)
    return trial.suggest_float(name, dim.low, dim.high)


def suggest(trial, space: Space) -> tuple[tuple[str, Any], ...]:
    """Ask an Optuna trial for a candidate; keys whose value stays the game's are left out."""
    changes: dict[str, Any] = {}
    for dim in space.dimensions:
        changes[dim.key] = dim.value(_draw(trial, dim.key, dim))
    if space.max_changes is None:
        for dim in (m for family in space.families for m in family.members):
            changes[dim.key] = dim.value(_draw(trial, dim.key, dim))
    else:
        # each of max_changes slots names one family member (or none) and draws its change, under a
        # parameter of that member's family: the range is the family's
        members = {_member_label(dim.key): (family, dim) for family in space.families for dim in family.members}
        for slot in range(1, space.max_changes + 1):
            chosen = trial.suggest_categorical(f"change #{slot}", [NO_CARD, *members])
            if chosen == NO_CARD:
                continue
            family, dim = members[chosen]
            drawn = _draw(trial, f"change #{slot} {family.pattern}", dim)
            changes.setdefault(dim.key, dim.value(drawn))  # a member drawn twice keeps its first change
    every = {dim.key: dim for dim in space.dimensions + tuple(m for f in space.families for m in f.members)}
    return tuple((key, value) for key, value in changes.items() if value != every[key].current)


def _member_label(key: str) -> str:
    """cards.spells.sycophant.cost -> sycophant.cost"""
    return ".".join(key.split(".")[2:])


def card_names(game) -> dict[str, str]:
    """'letters.letters-013' -> 'N': a card the loader numbered (no `id` in its file) is shown by its letter,
    word, name or title, when no other card of its component has the same; a card with an id by its id."""
    from spellpress.simulate.variants import CARD_NAMES

    names: dict[str, str] = {}
    for component in game.components:
        shown = {}
        for card in component.cards:
            if re.fullmatch(rf"{re.escape(component.id)}-\d{{3,}}", card.id):
                shown[card.id] = next((str(card.fields[f]) for f in CARD_NAMES if card.fields.get(f) not in (None, "")), card.id)
        repeated = {name for name in shown.values() if list(shown.values()).count(name) > 1}
        names.update({f"{component.id}.{card_id}": name for card_id, name in shown.items() if name not in repeated})
    return names


def label(variant, names: dict[str, str] | None = None, sep: str = ", ") -> str:
    """cards.spells.sycophant.cost=3 -> sycophant.cost=3; cards.letters.letters-013.points=5 -> N.points=5 (with
    `names` from card_names); rules.rounds=4 -> rounds=4; the unchanged game: (as shipped)."""
    if not variant:
        return "(as shipped)"
    names = names or {}
    shown = []
    for key, value in variant:
        parts = key.split(".")
        if parts[0] == "rules":
            shown.append(f"{'.'.join(parts[1:])}={value}")
        else:
            card = names.get(f"{parts[1]}.{parts[2]}", parts[2])
            shown.append(f"{card}.{'.'.join(parts[3:])}={value}")
    return sep.join(shown)
