"""The last tune's JSON as `--apply N` reads it: every field it uses checked, a mistake named by file and field.

The file is Spellpress's own output, but it lies in the user's output folder: an edit by hand, a
truncated copy or a game changed since (a component file renamed, a card removed) must end in a
one-line error, exit 2, never a traceback.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from spellpress.errors import Location, Option, UserError

SCALARS = (bool, int, float, str)


def _error(saved: Path, field: str, message: str) -> UserError:
    return UserError.at(Location(saved), f"{field}: {message}")


def read_report(saved: Path) -> dict:
    if not saved.exists():
        raise UserError.at(Option("--apply"), f"no tune to apply: {saved} does not exist (run spellpress tune first)")
    try:
        report = json.loads(saved.read_bytes().decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError as exc:
        raise UserError.at(Location(saved), f"not UTF-8 text ({exc.reason}); run spellpress tune again") from None
    except json.JSONDecodeError as exc:
        raise UserError.at(Location(saved, exc.lineno, exc.colno),
                           f"not a tune's JSON ({exc.msg}); run spellpress tune again") from None
    except ValueError as exc:  # NaN or Infinity, which no tune writes
        raise UserError.at(Location(saved), f"not a tune's JSON ({exc}); run spellpress tune again") from None
    except RecursionError:
        raise UserError.at(Location(saved), "not a tune's JSON (nested far too deep); run spellpress tune again") from None
    except OSError as exc:
        raise UserError.at(Location(saved), f"cannot read: {exc.strerror}") from None
    if not isinstance(report, dict):
        raise _error(saved, "the file", f"expected a JSON object, got {type(report).__name__}")
    return report


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a tune writes")


def proposal(saved: Path, report: dict, game, number: int) -> tuple[tuple[tuple[str, Any], ...], str]:
    """Proposal `number` (1-based) of the report: its variant, checked against the game as it is now, and its verdict."""
    if report.get("game") != game.id:
        raise _error(saved, "game", f"this tune is of {report.get('game')!r}, not {game.id!r}")
    rows = report.get("proposals")
    if not isinstance(rows, list):
        raise _error(saved, "proposals", f"expected a list, got {type(rows).__name__}")
    if not rows:
        raise _error(saved, "proposals", "the last tune has no proposals to apply")
    if not 1 <= number <= len(rows):
        raise UserError.at(Option("--apply"), f"the last tune has {len(rows)} proposals; choose 1 to {len(rows)}")
    field = f"proposals[{number - 1}]"
    row = rows[number - 1]
    if not isinstance(row, dict):
        raise _error(saved, field, f"expected an object, got {type(row).__name__}")
    pairs = row.get("variant")
    if not isinstance(pairs, list):
        raise _error(saved, f"{field}.variant", f"expected a list of [KEY, VALUE], got {type(pairs).__name__}")
    variant = tuple(_pair(saved, f"{field}.variant[{index}]", pair) for index, pair in enumerate(pairs))
    if len({key for key, _ in variant}) < len(variant):
        raise _error(saved, f"{field}.variant", "a key is given twice")
    for index, (key, _) in enumerate(variant):
        _check_key(saved, f"{field}.variant[{index}]", game, key)
    _check_values(saved, f"{field}.variant", game, variant)
    verified = row.get("verified", {})
    verdict = verified.get("verdict") if isinstance(verified, dict) else None
    return variant, verdict if isinstance(verdict, str) else "not verified"


def _pair(saved: Path, field: str, pair: Any) -> tuple[str, Any]:
    if not isinstance(pair, list) or len(pair) != 2 or not isinstance(pair[0], str):
        raise _error(saved, field, f"expected [KEY, VALUE], got {json.dumps(pair)[:60]}")
    key, value = pair
    if not isinstance(value, SCALARS) or isinstance(value, float) and not math.isfinite(value):
        raise _error(saved, f"{field}[1]", f"expected a number, text or true/false, got {json.dumps(value)[:60]}")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise _error(saved, f"{field}[1]", "the text has a lone surrogate, which no file can hold") from None
    return key, value


def _check_key(saved: Path, field: str, game, key: str) -> None:
    """The key names something the game has now: a rules key, or a card's field of a component."""
    from spellpress.simulate.api import find_card

    head, *path = key.split(".")
    if head == "rules" and path and all(path):
        return
    if head != "cards" or len(path) != 3 or not all(path):
        raise _error(saved, f"{field}[0]", f"expected rules.KEY or cards.COMPONENT.CARD.FIELD, got {key[:60]!r}")
    known = [c.id for c in game.components]
    if path[0] not in known:
        raise _error(saved, f"{field}[0]", f"{key}: the game has no component {path[0]!r} now (components: "
                                           f"{', '.join(known)}); was a file renamed? run spellpress tune again")
    try:
        find_card(game.component(path[0]), path[1], key)
    except UserError as exc:
        raise _error(saved, f"{field}[0]", f"{exc.problems[0].message}; run spellpress tune again") from None


def _check_values(saved: Path, field: str, game, variant) -> None:
    """Each value has the type the game's files have there (the check `--vary` makes)."""
    from spellpress.simulate.variants import apply_variant

    engine_keys = {key.split(".")[1] for key, _ in variant if key.startswith("rules.")}  # may be left to their defaults
    try:
        apply_variant(game, variant, engine_keys)
    except UserError as exc:
        raise _error(saved, field, f"{exc.problems[0].message}; run spellpress tune again") from None
