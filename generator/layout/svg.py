"""SVG icons read once as reportlab drawings: what they draw and where their ink lies."""

from __future__ import annotations

import io
from functools import lru_cache

from spellpress import icon_library


class IconError(ValueError):
    pass


@lru_cache(maxsize=512)
def load_icon(path: str):
    """The icon as a reportlab Drawing (y up, in the SVG's own units)."""
    from spellpress.images import read_svg

    library = icon_library.is_library_path(path)
    source = io.BytesIO(icon_library.svg_text(icon_library.name_of(path)).encode()) if library else path
    try:
        return read_svg(source, path)
    except ValueError as exc:
        raise IconError(str(exc)) from None


@lru_cache(maxsize=512)
def icon_ink(path: str) -> tuple[float, float, float, float] | None:
    """Where the icon's paths lie, as shares (0..1) of its width and height: left, bottom, right, top.
    None when it draws nothing."""
    drawing = load_icon(path)
    try:
        left, bottom, right, top = drawing.getBounds()
    except (TypeError, ValueError):  # an empty drawing has no bounds
        return None
    return (left / drawing.width, bottom / drawing.height, right / drawing.width, top / drawing.height)
