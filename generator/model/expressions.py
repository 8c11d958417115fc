"""Jinja2 expressions in template values, run in a sandbox over a card's fields."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

import jinja2
from jinja2.sandbox import SandboxedEnvironment


class ExpressionError(ValueError):
    pass


_ENV = SandboxedEnvironment(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False)


def has_expression(value: Any) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


@lru_cache(maxsize=4096)
def compiled(source: str) -> jinja2.Template:
    try:
        return _ENV.from_string(source)
    except jinja2.TemplateSyntaxError as exc:
        raise ExpressionError(f"template expression error: {exc.message}") from None


def render(source: str, context: Mapping[str, Any]) -> str:
    try:
        return compiled(source).render(context)
    except jinja2.exceptions.SecurityError as exc:
        raise ExpressionError(f"expression not allowed: {exc}") from None
    except jinja2.UndefinedError as exc:
        raise ExpressionError(f"{exc.message}") from None
    except ExpressionError:
        raise
    except Exception as exc:  # a user's expression can fail in many ways (1/0, bad filter args)
        raise ExpressionError(f"expression failed: {exc}") from None


def resolve_value(value: Any, context: Mapping[str, Any], *, text: bool = False) -> Any:
    """Render expressions; unless `text`, a result that reads as a number or boolean becomes one."""
    if not has_expression(value):
        return value
    rendered = render(value, context)
    if text:
        return rendered
    stripped = rendered.strip()
    if stripped in ("True", "true"):
        return True
    if stripped in ("False", "false", "", "None"):
        return False
    try:
        return int(stripped)
    except ValueError:
        pass
    try:
        return float(stripped)
    except ValueError:
        return rendered
