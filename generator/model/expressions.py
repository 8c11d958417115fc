"""Jinja2 expressions in template values, run in a sandbox over a card's fields."""

from __future__ import annotations

import re
import signal
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment
from jinja2.utils import generate_lorem_ipsum

from spellpress.model.limits import EXPRESSION_SECONDS, MAX_EXPRESSION_OUTPUT, MAX_EXPRESSION_SOURCE, MAX_RANGE_ITEMS
from spellpress.suggest import did_you_mean


class ExpressionError(ValueError):
    pass


class _LimitedEnvironment(SandboxedEnvironment):
    """Jinja's sandbox, with the size of what `*` and `**` make bounded (they run in C, past any timer)."""

    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context, operator, left, right):
        if operator == "*":
            for sized, times in ((left, right), (right, left)):
                if isinstance(sized, (str, list, tuple)) and isinstance(times,
                                                                        int) and len(sized) * times > MAX_EXPRESSION_OUTPUT:
                    raise ExpressionError(f"expression makes more than {MAX_EXPRESSION_OUTPUT:,} characters or items")
        if operator == "**" and isinstance(left, int) and isinstance(right, int) and abs(left) > 1 and right > 256:
            raise ExpressionError("expression raises a number to a power above 256")
        return super().call_binop(context, operator, left, right)


class _Budget(threading.local):
    items = 0


_BUDGET = _Budget()


def _spend(items: int) -> None:
    _BUDGET.items += max(0, items)
    if _BUDGET.items > MAX_RANGE_ITEMS:
        raise ExpressionError(f"expression draws more than {MAX_RANGE_ITEMS:,} items from range() or lipsum()")


def _range(*args: int) -> range:
    numbers = range(*args)
    _spend(len(numbers))
    return numbers


def _lipsum(n: int = 5, html: bool = False, min: int = 20, max: int = 100) -> str:
    _spend(n * max)
    return generate_lorem_ipsum(n=n, html=html, min=min, max=max)


class _Undefined(jinja2.StrictUndefined):
    """Jinja's undefined value, with messages in the card's terms instead of Python's."""

    __slots__ = ()

    @property
    def _undefined_message(self) -> str:
        name, owner = self._undefined_name, self._undefined_obj
        if owner is jinja2.utils.missing:
            return f"'{name}' is undefined: not a field of this card"
        if isinstance(owner, Mapping):
            keys = ", ".join(repr(key) for key in list(owner)[:12]) or "none"
            return f"this map has no key {name!r}{did_you_mean(name, [str(k) for k in owner])} (its keys: {keys})"
        if isinstance(owner, (list, tuple)):
            return f"this list of {len(owner)} has no item {name!r} (items count from 0: [0] is the first)"
        return f"the value here is {_kind(owner)}, which has no {name!r}"


def _kind(value: Any) -> str:
    """Said without the value itself, so the same mistake on many cards reads the same."""
    return {str: "text", int: "a number", float: "a number", bool: "a yes/no value"}.get(type(value), "a single value")


_ENV = _LimitedEnvironment(undefined=_Undefined, autoescape=False, keep_trailing_newline=False)
_ENV.globals.update(range=_range, lipsum=_lipsum)


def has_expression(value: Any) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


@lru_cache(maxsize=4096)
def compiled(source: str) -> jinja2.Template:
    if len(source) > MAX_EXPRESSION_SOURCE:
        raise ExpressionError(f"a value with an expression may be at most {MAX_EXPRESSION_SOURCE:,} characters, this one has "
                              f"{len(source):,}")
    try:
        return _ENV.from_string(source)
    except jinja2.TemplateSyntaxError as exc:
        raise ExpressionError(f"template expression error: {exc.message}") from None
    except (RecursionError, MemoryError):
        raise ExpressionError("expression nests too deeply to read (too many brackets or signs in a row)") from None


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Stop an expression that runs too long; only the main thread can take a timer signal."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expired(signum, frame):
        raise ExpressionError(f"expression ran longer than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def render(source: str, context: Mapping[str, Any]) -> str:
    _BUDGET.items = 0
    try:
        with _time_limit(EXPRESSION_SECONDS):
            rendered = compiled(source).render(context)
        if len(rendered) > MAX_EXPRESSION_OUTPUT:
            raise ExpressionError(f"the text made here (the template with the card's fields) is {len(rendered):,} "
                                  f"characters; it may be at most {MAX_EXPRESSION_OUTPUT:,} characters")
        return rendered
    except (RecursionError, MemoryError):
        raise ExpressionError("expression nests too deeply or grows too large to run") from None
    except jinja2.exceptions.SecurityError as exc:
        raise ExpressionError(f"expression not allowed: {exc}") from None
    except jinja2.UndefinedError as exc:
        raise ExpressionError(_with_suggestion(str(exc.message), context)) from None
    except ExpressionError:
        raise
    except Exception as exc:  # a user's expression can fail in many ways (1/0, bad filter args)
        raise ExpressionError(f"expression failed: {exc}") from None


def _with_suggestion(message: str, context: Mapping[str, Any]) -> str:
    """An undefined name's message, with the closest name the card has and what it has."""
    missing = re.match(r"^'([^']+)' is undefined: not a field of this card$", message)
    if missing is None:
        return message
    names = sorted(str(key) for key in context)
    return f"{message}{did_you_mean(missing.group(1), names)} (it has: {', '.join(names)})"


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
