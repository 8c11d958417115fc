"""Pydantic validation whose errors point at the YAML that caused them."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from spellpress.errors import Problems
from spellpress.load.yamlsrc import Document, Key
from spellpress.model.types import describe
from spellpress.suggest import did_you_mean, keys_at

M = TypeVar("M", bound=BaseModel)


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
            hint = did_you_mean(loc[-1] if loc else None, keys_at(model, loc)) if at_key else ""
            problems.add(doc.locate((*key, *loc), at_key=at_key), describe(error) + hint)
        return None

