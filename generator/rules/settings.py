"""An engine's settings, checked like cards: its `rules:` keys as a pydantic model, and the
components and card fields it reads, each problem reported at its file:line:column."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from spellpress.errors import Location, Option, Problems
from spellpress.model.game import Card, Game
from spellpress.model.memo import memo_on
from spellpress.model.types import describe
from spellpress.suggest import did_you_mean, keys_at

OPTION = Option("--option")


class EngineSettings(BaseModel):
    """Base of every engine's `rules:` model: unknown keys are errors (a typo never passes silently).

    Subclasses list their keys as fields with defaults and say which components they read in
    `needs()`. `engine` is the key that names the engine; it is not passed to the model.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    def needs(self) -> list[Needs]:
        """The components (and their cards' fields) these settings make the engine read."""
        return []

    def problems(self, game: Game) -> list[tuple[tuple[str | int, ...] | Location, str]]:
        """Checks that need the whole game, as (rules key path or a card's location, message) pairs."""
        return []


@dataclass(frozen=True)
class Needs:
    """A component the engine reads, and the type of each field it reads from every card.

    `setting` is the `rules:` key that named the component (errors point at it), or None
    when the engine reads a fixed id. A field type is any type pydantic validates; a field
    whose type accepts None may be left out of a card.
    """

    component: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    setting: tuple[str | int, ...] | None = None
    back_fields: Mapping[str, Any] = field(default_factory=dict)


@lru_cache(maxsize=256)
def _adapter(kind: Any) -> TypeAdapter:
    return TypeAdapter(kind)


def _accepts_none(kind: Any) -> bool:
    try:
        _adapter(kind).validate_python(None)
        return True
    except ValidationError:
        return False


def _game_yaml(game: Game):
    from spellpress.load.yamlsrc import read_yaml  # only when a problem needs its line

    return read_yaml(game.root / "game.yaml")


Settings = TypeVar("Settings", bound="EngineSettings")


def settings_for(game: Game, model: type[Settings], engine: str,
                 options: Mapping[str, Any] | None = None) -> Settings:
    """The game's `rules:` (run options on top) as `model`, with its components checked; else a
    UserError listing every problem at its file:line:column. Checked once per game and options."""
    key = (model, engine, options_key(options))
    return memo_on(game, "settings", key, lambda: _checked(game, model, engine, options))


def options_key(options: Mapping[str, Any] | None) -> tuple:
    """Run options as a key for values computed once per game and options (any value, by its repr)."""
    return tuple(sorted((k, repr(v)) for k, v in dict(options or {}).items()))


def _checked(game: Game, model: type[Settings], engine: str, options: Mapping[str, Any] | None) -> Settings:
    written = {k: v for k, v in dict(game.spec.rules).items() if k != "engine"}
    # run options that set a rules key are checked with it; others are the engine's own what-ifs
    options = {k: v for k, v in dict(options or {}).items() if k in model.model_fields}
    problems = Problems()
    settings: Settings | None = None
    try:
        settings = model.model_validate(_plain({**written, **options}))
    except ValidationError as exc:
        doc = _game_yaml(game)
        for error in exc.errors():
            loc = tuple(error["loc"])
            where = OPTION if loc and loc[0] in options else None
            if error["type"] == "missing":
                loc = loc[:-1]
            if where is None:
                at_key = error["type"] == "extra_forbidden"
                where = doc.locate(("rules", *loc), at_key=at_key) if loc else doc.locate(("rules",))
            hint = did_you_mean(loc[-1], keys_at(model, loc)) if error["type"] == "extra_forbidden" and loc else ""
            problems.add(where, f"rules: {describe(error)}{hint} (the {engine} engine; see its rules: keys in docs/rules.md)"
                         if error["type"] in ("extra_forbidden", "missing") else f"rules: {describe(error)}")
        # the keys that are right still say which components to check: report those problems too
        wrong = {error["loc"][0] for error in exc.errors() if error["loc"]}
        try:
            settings = model.model_validate(_plain({k: v for k, v in {**written, **options}.items() if k not in wrong}))
        except ValidationError:
            settings = None
    if settings is not None:
        _check_components(game, settings.needs(), engine, problems)
        if not problems:
            found = settings.problems(game)
            doc = _game_yaml(game) if found else None
            for key, message in found:
                assert doc is not None
                if isinstance(key, Location):
                    problems.add(key, message)
                else:
                    problems.add(OPTION if key and key[0] in options else doc.locate(("rules", *key)), f"rules: {message}")
    problems.raise_if_any()
    assert settings is not None
    return settings


def _plain(value: Any) -> Any:
    """YAML's read-only dicts and tuples as plain dicts and lists for pydantic."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _check_components(game: Game, needs: list[Needs], engine: str, problems: Problems) -> None:
    ids = {component.id: component for component in game.components}
    doc = None
    for need in needs:
        component = ids.get(need.component)
        if component is None:
            if doc is None:
                doc = _game_yaml(game)
            where = doc.locate(("rules", *need.setting)) if need.setting else doc.locate(("components",))
            how = (f"rules: {'.'.join(map(str, need.setting))} names" if need.setting
                   else f"the {engine} engine reads")
            problems.add(where, f"{how} a component '{need.component}' that the game does not have "
                                f"(components: {', '.join(sorted(ids)) or 'none'})")
            continue
        for card in component.cards:
            _check_fields(card, card.fields, need.fields, component.id, engine, "", problems)
            if need.back_fields:
                _check_fields(card, card.back_fields, need.back_fields, component.id, engine, "back ", problems)


def _check_fields(card: Card, values: Mapping[str, Any], kinds: Mapping[str, Any], component: str, engine: str,
                  side: str, problems: Problems) -> None:
    for name, kind in kinds.items():
        if name not in values or values[name] is None:
            if not _accepts_none(kind):
                problems.add(card.location, f"card '{card.id}' of '{component}' has no {side}field '{name}', "
                                            f"which the {engine} engine reads")
            continue
        try:
            _adapter(kind).validate_python(_plain(values[name]))
        except ValidationError as exc:
            message = "; ".join(describe(e) for e in exc.errors()[:3])
            problems.add(card.location, f"card '{card.id}' of '{component}': {side}field '{name}' {message} "
                                        f"(the {engine} engine)")
