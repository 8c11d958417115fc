"""SVG icons as reportlab vector drawings, loaded once and recoloured per use."""

from __future__ import annotations

import copy
import io
import logging
from functools import lru_cache

from reportlab.graphics.shapes import Drawing, Group
from reportlab.lib.colors import Color

from spellpress import icon_library


DRAWING_FONT = "EBGaramond-Regular"  # registered by every face context (a shared font)


class IconError(ValueError):
    pass


@lru_cache(maxsize=512)
def load_icon(path: str) -> Drawing:
    from svglib.svglib import svg2rlg

    logging.getLogger("svglib").setLevel(logging.ERROR)
    try:
        source = io.BytesIO(icon_library.svg_text(icon_library.name_of(path)).encode()) if icon_library.is_library_path(path) else path
        drawing = svg2rlg(source)
    except Exception as exc:  # svglib raises whatever its XML and CSS parsers raise
        raise IconError(f"icon {path} is not a readable SVG: {exc}") from None
    if drawing is None or not drawing.width or not drawing.height:
        raise IconError(f"icon {path} is not a readable SVG")
    return drawing


@lru_cache(maxsize=2048)
def coloured(path: str, rgba: tuple[float, float, float, float]) -> Drawing:
    drawing = copy.deepcopy(load_icon(path))
    # renderPDF otherwise opens each drawing with an unembedded Helvetica
    drawing.initialFontName = DRAWING_FONT
    colour = Color(*rgba[:3], alpha=rgba[3])
    _paint(drawing, colour)
    return drawing


def painted(path: str, colour) -> Drawing:
    """The icon in any reportlab colour (a CMYK one for print shops)."""
    drawing = copy.deepcopy(load_icon(path))
    drawing.initialFontName = DRAWING_FONT
    _paint(drawing, colour)
    return drawing


def _paint(node, colour: Color) -> None:
    for child in getattr(node, "contents", []):
        if isinstance(child, Group):
            _paint(child, colour)
            continue
        if getattr(child, "fillColor", None) is not None:
            child.fillColor = colour
        if getattr(child, "strokeColor", None) is not None:
            child.strokeColor = colour
