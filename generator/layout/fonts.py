"""TrueType fonts: registered once with reportlab, for metrics (layout) and embedding (render)."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont


class FontError(ValueError):
    pass


_registered: dict[str, Path] = {}


def register(name: str, path: Path) -> str:
    """Register `path` under `name`; a font's registered name is unique to its file."""
    path = path.resolve()
    if _registered.get(name) == path:
        return name
    if name in _registered:
        # two games may use one name for different files: give this one its own name
        name = f"{name}-{hashlib.sha1(path.read_bytes()).hexdigest()[:8]}"
        if _registered.get(name) == path:
            return name
    try:
        pdfmetrics.registerFont(TTFont(name, str(path)))
    except TTFError as exc:
        raise FontError(f"font {path.name} cannot be used: {exc} (TrueType .ttf with TrueType outlines needed)") from None
    _registered[name] = path
    return name


def registered() -> dict[str, Path]:
    """Every font registered in this process, by name: what a worker process needs to draw the same text."""
    return dict(_registered)


def adopt(fonts: dict[str, Path]) -> None:
    """Register fonts under the names another process gave them (a worker drawing that process's faces)."""
    for name, path in fonts.items():
        if _registered.get(name) != path:
            pdfmetrics.registerFont(TTFont(name, str(path)))
            _registered[name] = path


def missing_characters(text: str, font: str) -> str:
    """The characters of `text` (other than spaces) that `font` has no glyph for, each once, in order."""
    cmap = pdfmetrics.getFont(font).face.charToGlyph
    return "".join(c for c in dict.fromkeys(text) if not c.isspace() and ord(c) not in cmap)  # each letter once


@lru_cache(maxsize=1 << 17)
def width(text: str, font: str, size_pt: float) -> float:
    """Advance width of `text` in points. Remembered: fitting a text box measures the same words and
    letters at each size it tries, and the ink check each letter of each line (issue 43: `check` of
    10,000 cards of 5,000 characters spent most of its 20 minutes here)."""
    return pdfmetrics.stringWidth(text, font, size_pt)


@lru_cache(maxsize=256)
def vertical_metrics(font: str) -> tuple[float, float]:
    """(ascent, descent) as fractions of the font size; descent is negative."""
    face = pdfmetrics.getFont(font).face
    return face.ascent / 1000.0, face.descent / 1000.0


def font_file(name: str) -> Path | None:
    """The file behind a registered font name (None for reportlab's built-in fonts)."""
    return _registered.get(name)
