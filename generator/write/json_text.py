"""JSON that every reader accepts: a number that is not finite (NaN, infinity) is never written bare.

json.dumps writes NaN and Infinity as bare words by default, which strict readers (browsers,
jq, other languages) refuse. Here such a number becomes null, and the report says why in
`null_reasons` (its path, and what the number was); json.dumps then runs with allow_nan=False,
so anything the walk missed is an error here, never an invalid file.
"""

from __future__ import annotations

import json
import math
from typing import Any

REASONS_KEY = "null_reasons"


def finite_json(value: Any, indent: int | None = 1) -> str:
    """`value` as strict JSON text; a non-finite number becomes null, listed under `null_reasons`
    (added to a top-level dict; a top-level list gets it in its first dict, else nowhere)."""
    reasons: dict[str, str] = {}
    cleaned = _finite(value, "", reasons)
    if reasons:
        holder = cleaned if isinstance(cleaned, dict) else next((item for item in cleaned if isinstance(item, dict)), None) \
            if isinstance(cleaned, list) else None
        if holder is not None:
            holder[REASONS_KEY] = reasons
    return json.dumps(cleaned, indent=indent, allow_nan=False)


def _finite(value: Any, path: str, reasons: dict[str, str]) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        reasons[path or "."] = f"not a finite number ({value!r}): written as null"
        return None
    if isinstance(value, dict):
        return {key: _finite(item, f"{path}.{key}" if path else str(key), reasons) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item, f"{path}[{index}]", reasons) for index, item in enumerate(value)]
    return value
