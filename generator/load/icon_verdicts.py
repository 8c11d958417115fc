"""Icons that passed every check (svg_refs.check_icon, svglib's reading included), remembered between
processes, so a later load (a simulation's first game, a `check`) neither parses them nor imports lxml
and svglib.

Only a self-contained icon is remembered (no `href`, no `url(...)`: nothing it draws comes from another
file), so its checks depend on nothing but its bytes, the installed svglib and reportlab, and the limits
they are checked against: all of them go into the digest that names the verdict (table_cache.py's folder).
An icon that fails a check is never remembered, and is refused every time.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from pathlib import Path

from spellpress.model import limits
from spellpress.words.table_cache import known_good, remember_good

FORMAT = 1  # raise when svg_refs or images.read_svg check more, so icons that passed before are checked again
KIND = "icon"


def icon_digest(svg: Path) -> str | None:
    """The digest naming this icon's verdict, or None for an icon that cannot be remembered (one that names
    other files, or is not a regular file of at most MAX_ICON_BYTES)."""
    try:
        if not svg.is_file() or svg.stat().st_size > limits.MAX_ICON_BYTES:
            return None
        data = svg.read_bytes()
    except OSError:
        return None
    if b"href" in data or b"url(" in data.lower():
        return None
    from spellpress.images import MIN_ICON_SIZE  # a light module: what read_svg checks against

    digest = hashlib.blake2b(data, digest_size=16)
    for package in ("svglib", "reportlab"):
        spec = importlib.util.find_spec(package)
        origin = spec.origin if spec is not None else None
        digest.update(f"{origin}:{os.stat(origin).st_mtime_ns if origin else 0};".encode())
    limits_used = [MIN_ICON_SIZE] + [getattr(limits, name) for name in sorted(vars(limits)) if name.startswith("MAX_ICON")]
    digest.update(f"{FORMAT}:{limits_used}".encode())
    return digest.hexdigest()


def passed_before(svg: Path) -> bool:
    digest = icon_digest(svg)
    return digest is not None and known_good(KIND, digest)


def remember_passed(svg: Path) -> None:
    digest = icon_digest(svg)
    if digest is not None:
        remember_good(KIND, digest)
