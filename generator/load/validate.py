"""Pydantic validation whose errors point at the YAML that caused them."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from generator.errors import Problems
from generator.load.yamlsrc import Document, Key

M = TypeVar("M", bound=BaseModel)


def describe(error: dict[str, Any]) -> str:
    kind = error["type"]
    field = error["loc"][-1] if error["loc"] else None
    if kind == "extra_forbidden":
        return f"unknown key '{field}'"
    if kind == "missing":
        return f"missing required key '{field}'"
    message = error["msg"]
    if message.startswith("Value error, "):
        message = message[len("Value error, "):]
    if kind == "literal_error":
        return f"'{error.get('input')}' is not allowed: {message.lower()}"
    if field is not None and not isinstance(field, int):
        return f"{field}: {message}"
    return message


def validated(model: type[M], data: Any, doc: Document, key: Key, problems: Problems) -> M | None:
    """The model, or None with every error added to `problems` at its file:line:col."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        for error in exc.errors():
            loc = tuple(error["loc"])
            at_key = error["type"] in ("extra_forbidden",)
            if error["type"] == "missing":
                loc = loc[:-1]
            problems.add(doc.locate((*key, *loc), at_key=at_key), describe(error))
        return None

