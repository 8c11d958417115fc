"""'Did you mean ...?': the nearest valid name to a misspelt one."""

from __future__ import annotations

import typing
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel


def did_you_mean(name: object, known: Iterable[str]) -> str:
    """' (did you mean 'points'?)' when a known name is close to `name`, else ''."""
    if not isinstance(name, str):
        return ""
    import difflib  # only a mistake needs it

    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def keys_at(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """The keys a model accepts at the mapping that holds `loc`'s last part (best effort: [] if unsure)."""
    current: Any = model
    for part in loc[:-1]:
        current = _inside(current, part)
        if current is None:
            return []
    target = _model_of(current)
    return list(target.model_fields) if target is not None else []


def _inside(annotation: Any, part: Any) -> Any:
    model = _model_of(annotation)
    if model is not None and isinstance(part, str) and part in model.model_fields:
        return model.model_fields[part].annotation
    for arg in typing.get_args(annotation):  # dict[str, X], list[X], X | None: step into X
        if _model_of(arg) is not None or typing.get_args(arg):
            if isinstance(part, (str, int)) and (model is None or part not in getattr(model, "model_fields", {})):
                return arg
    return None


def _model_of(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    models = [a for a in typing.get_args(annotation) if isinstance(a, type) and issubclass(a, BaseModel)]
    return models[0] if len(models) == 1 and typing.get_origin(annotation) is not dict else None
