"""Variants of a game for sweeps: `rules.KEY=V` and `cards.COMPONENT.CARD.FIELD=V` applied to a loaded game.

A variant is a tuple of (key, value) pairs. `apply_variant` returns a new Game with them
applied in memory (the YAML files are never touched); `checked_variant` also validates
the result like a build does: the key must exist, the value must have the type the YAML
has there, and the engine's settings model must accept the rules.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from collections.abc import Set as AbstractSet
from typing import Any

from spellpress.errors import Option, Problem, UserError
from spellpress.model.game import FrozenDict, Game
from spellpress.model.limits import MAX_CARDS_PER_GAME, MAX_COPIES_PER_CARD

VARY = Option("--vary")
MAX_NUMBER = 1e15  # of a --vary value: far past any count, score or size, and exact as a float
NUMBER = re.compile(r"[+-]?(\d[\d_]*\.?\d*|\.\d+)([eE][+-]?\d+)?")
CARD_NAMES = ("letter", "word", "name", "title")  # a card may be named by one of these fields as well as its id


def parse_value(text: str) -> Any:
    """A command-line value: true/false, an integer, a number, else the text."""
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def split_vary(items: list[str], form: str = "KEY=V1,V2,...") -> list[tuple[str, str]]:
    """--vary items -> [(key, the values' text)]: each key a rules. or cards. key, none twice."""
    pairs: list[tuple[str, str]] = []
    for item in items:
        key, sep, values = item.partition("=")
        key = key.strip()
        if not sep or not key or not values.strip():
            raise UserError.at(VARY, f"expected {form}, got {item!r}")
        if not key.startswith(("rules.", "cards.")):
            raise UserError.at(VARY, f"{key!r}: a key starts with rules. (a game.yaml rules: key) or cards. "
                                     "(cards.COMPONENT.CARD.FIELD, e.g. cards.consonants.q.count)")
        if key == "rules.engine":
            raise UserError.at(VARY, "rules.engine cannot be varied: a sweep or tune plays the game's one engine "
                                     "(sweep each engine's game on its own)")
        if key in (k for k, _ in pairs):
            raise UserError.at(VARY, f"{key!r} is varied twice")
        _refuse_huge_numbers(key, values)
        pairs.append((key, values))
    if not pairs:
        raise UserError.at(VARY, f"give at least one --vary {form}")
    return pairs


def _refuse_huge_numbers(key: str, values: str) -> None:
    """A number past MAX_NUMBER (5,000 digits, 1e999) is refused here: int() refuses more than 4,300
    digits, and a range's ends overflow a float later, both as tracebacks."""
    for piece in re.split(r",|\.\.", values):
        piece = piece.strip()
        if NUMBER.fullmatch(piece):
            number = float(piece.replace("_", ""))
            if not (math.isfinite(number) and abs(number) <= MAX_NUMBER):
                shown = piece if len(piece) <= 24 else f"{piece[:12]}...{piece[-6:]} ({len(piece):,} characters)"
                raise UserError.at(VARY, f"{key}: {shown} is too large a number; a value is at most {MAX_NUMBER:g}")


def parse_vary(items: list[str]) -> list[tuple[str, list[Any]]]:
    """--vary KEY=V1,V2,... (repeatable) -> [(key, [values])]."""
    return [(key, [parse_value(v) for v in values.split(",") if v.strip()]) for key, values in split_vary(items)]


def grid(axes: list[tuple[str, list[Any]]]) -> list[tuple[tuple[str, Any], ...]]:
    """Every combination of the axes' values, the first axis slowest."""
    keys = [key for key, _ in axes]
    return [tuple(zip(keys, combo, strict=False)) for combo in itertools.product(*(values for _, values in axes))]


def _same_type(key: str, old: Any, new: Any) -> Any:
    if old is None or isinstance(new, type(old)) and not (isinstance(new, bool) and not isinstance(old, bool)):
        return new
    if isinstance(old, float) and isinstance(new, int) and not isinstance(new, bool):
        return float(new)
    if isinstance(old, str):
        return str(new)
    raise UserError.at(VARY, f"{key}: expected {type(old).__name__} like the YAML's {old!r}, got {new!r}")


def _set_rules(game: Game, key: str, path: list[str], value: Any, known: set[str]) -> Game:
    rules = _thaw(game.spec.rules)
    node, parents = rules, []
    for depth, part in enumerate(path):
        last = depth == len(path) - 1
        if not isinstance(node, dict):
            raise UserError.at(VARY, f"{key}: {'.'.join(path[:depth])} is not a map")
        name = next((k for k in node if str(k) == part), None)
        if name is None:
            if depth == 0 and part in known:
                name = part  # a key the engine reads, left to its default in game.yaml
            else:
                have = sorted(set(map(str, node)) | (known if depth == 0 else set()))
                raise UserError.at(VARY, f"{key}: no rules key {part!r} there (known: {', '.join(have)})")
        if last:
            node[name] = _same_type(key, node.get(name), value)
        else:
            parents.append(node)
            node = node.setdefault(name, {})
    spec = game.spec.model_copy(update={"rules": rules})
    return dataclasses.replace(game, spec=spec)


def _thaw(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_thaw(v) for v in value]
    return value


def _find_card(component, name: str, key: str):
    exact = [card for card in component.cards if card.id == name]
    if exact:
        return exact[0]
    named = [card for card in component.cards
             if any(str(card.fields.get(f, "")).lower() == name.lower() for f in CARD_NAMES)]
    if len(named) == 1:
        return named[0]
    if len(named) > 1:
        raise UserError.at(VARY, f"{key}: {len(named)} cards of {component.id} are called {name!r}; use a card id")
    ids = ", ".join(card.id for card in component.cards[:8]) + (", ..." if len(component.cards) > 8 else "")
    raise UserError.at(VARY, f"{key}: no card {name!r} in {component.id} (ids: {ids}, or a card's "
                             f"{'/'.join(CARD_NAMES)})")


def _set_card(game: Game, key: str, path: list[str], value: Any) -> Game:
    if len(path) != 3:
        raise UserError.at(VARY, f"{key}: expected cards.COMPONENT.CARD.FIELD")
    comp_id, card_name, field = path
    components = {c.id: c for c in game.components}
    if comp_id not in components:
        raise UserError.at(VARY, f"{key}: no component {comp_id!r} (known: {', '.join(components)})")
    component = components[comp_id]
    card = _find_card(component, card_name, key)
    if field == "count":
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_COPIES_PER_CARD:
            raise UserError.at(VARY, f"{key}: a count is a whole number from 1 to {MAX_COPIES_PER_CARD:,}, as in the "
                                     f"YAML, got {value!r}")
        new_card = dataclasses.replace(card, count=value)
    elif field in card.fields:
        new_card = dataclasses.replace(card, fields=FrozenDict({**card.fields, field: _same_type(key, card.fields[field],
                                                                                                 value)}))
    else:
        raise UserError.at(VARY, f"{key}: card {card.id} has no field {field!r} (fields: count, {', '.join(card.fields)})")
    cards = tuple(new_card if c is card else c for c in component.cards)
    total = sum(c.count for other in game.components for c in (cards if other is component else other.cards))
    if total > MAX_CARDS_PER_GAME:
        raise UserError.at(VARY, f"{key}={value!r}: the game would have {total:,} cards; a game may have at most "
                                 f"{MAX_CARDS_PER_GAME:,}")
    new_component = dataclasses.replace(component, cards=cards)
    return dataclasses.replace(game, components=tuple(new_component if c is component else c for c in game.components))


def apply_variant(game: Game, variant: tuple[tuple[str, Any], ...], known_rules: AbstractSet[str] = frozenset()) -> Game:
    for key, value in variant:
        head, *path = key.split(".")
        if not path:
            raise UserError.at(VARY, f"{key!r}: name a key under {head}.")
        if key == "words.vocabulary":  # --vocabulary, carried to the worker processes as a variant
            from spellpress.words.vocabulary import with_vocabulary

            game = with_vocabulary(game, value)
            continue
        game = _set_rules(game, key, path, value, set(known_rules)) if head == "rules" else _set_card(game, key, path, value)
    return game


def known_rules_keys(rules) -> set[str]:
    settings = getattr(rules, "settings", None)
    return set(settings.model_fields) if settings is not None else set()


def checked_variant(game: Game, rules, variant: tuple[tuple[str, Any], ...], options: dict | None = None) -> Game:
    """The variant applied and validated like a build; a UserError (exit 2) names what is wrong."""
    from spellpress.rules.plugins import checked_settings

    changed = apply_variant(game, variant, known_rules_keys(rules))
    try:
        checked_settings(changed, rules, options)
    except UserError as exc:
        shown = ", ".join(f"{k}={v}" for k, v in variant)
        raise UserError([Problem(p.location, f"variant {shown}: {p.message}") for p in exc.problems]) from None
    return changed
