"""SVG icons as reportlab vector drawings, loaded once and recoloured per use."""

from __future__ import annotations

import copy
from functools import lru_cache

from reportlab.graphics.shapes import Drawing, Group
from reportlab.lib.colors import Color

from spellpress.layout.svg import load_icon

DRAWING_FONT = "EBGaramond-Regular"  # registered by every face context (a shared font)


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
