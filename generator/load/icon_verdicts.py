"""Icons that passed every check (svg_refs.check_icon, svglib's reading included), remembered between
processes, so a later load (a simulation's first game, a `check`) neither parses them nor imports lxml
and svglib.

Only a self-contained icon is remembered (no `href`, no `url(...)`: nothing it draws comes from another
file), so its checks depend on nothing but its bytes, the code that checks it (svglib, reportlab, svg_refs.py,
images.py: each file's size and time) and the limits it is checked against: all of them go into the digest
that names the verdict (disk_cache.py's folder).
An icon that fails a check is never remembered, and is refused every time.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from pathlib import Path

from spellpress.disk_cache import known_good, remember_good
from spellpress.model import limits

FORMAT = 1  # raise to check every icon again
CHECKED_BY = ("svglib", "reportlab", "spellpress.load.svg_refs", "spellpress.images")  # the code a verdict depends on
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
    digest = hashlib.blake2b(data, digest_size=16)
    for module in CHECKED_BY:  # found, not imported: a changed library or check reads every icon again
        spec = importlib.util.find_spec(module)
        origin = spec.origin if spec is not None else None
        stat = os.stat(origin) if origin else None
        digest.update(f"{origin}:{stat.st_mtime_ns if stat else 0}:{stat.st_size if stat else 0};".encode())
    limits_used = [getattr(limits, name) for name in sorted(vars(limits)) if name.startswith("MAX_ICON")]
    digest.update(f"{FORMAT}:{limits_used}".encode())
    return digest.hexdigest()


def passed_before(svg: Path) -> bool:
    digest = icon_digest(svg)
    return digest is not None and known_good(KIND, digest)


def remember_passed(svg: Path) -> None:
    digest = icon_digest(svg)
    if digest is not None:
        remember_good(KIND, digest)
