"""Numbers print in a face whose 1 and I, 0 and O cannot be mistaken ("11" must not read "II")."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from spellpress.layout.deck import layout_game
from spellpress.layout.ops import Group, Text
from spellpress.load.game import load_game
from spellpress.paths import list_game_folders

SIZE = 200
CONFUSABLE = 0.85  # share of ink two glyphs have in common, drawn centred on one baseline


@cache
def _glyph(font: str, char: str) -> np.ndarray:
    face = ImageFont.truetype(font, SIZE)
    image = Image.new("L", (2 * SIZE, 2 * SIZE), 0)
    draw = ImageDraw.Draw(image)
    left, _, right, _ = draw.textbbox((0, 0), char, font=face)
    draw.text((SIZE - (left + right) / 2, SIZE // 4), char, font=face, fill=255)
    return np.asarray(image) > 127


def overlap(font: str, a: str, b: str) -> float:
    first, second = _glyph(font, a), _glyph(font, b)
    return float((first & second).sum() / (first | second).sum())


def worst_confusion(font: str) -> float:
    return max(overlap(font, "1", "I"), overlap(font, "0", "O"))


def test_the_measure_tells_cinzels_figures_from_garamonds():
    fonts = Path(__file__).resolve().parents[2] / "fonts"
    assert overlap(str(fonts / "Cinzel-Bold.ttf"), "1", "I") > CONFUSABLE  # the "II" that is "11"
    assert worst_confusion(str(fonts / "EBGaramond-Bold.ttf")) < 0.8


def texts(ops):
    for op in ops:
        if isinstance(op, Group):
            yield from texts(op.ops)
        elif isinstance(op, Text):
            yield op


@pytest.mark.parametrize("folder", list_game_folders(), ids=lambda p: p.name)
def test_every_number_on_a_shipped_card_is_in_a_legible_face(folder):
    game = load_game(folder)
    misread = set()
    for faces in layout_game(game, bleed=0.0):
        for face in (faces.front, faces.back):
            for text in texts(face.ops if face else ()):
                if any(c in text.text for c in "01") and worst_confusion(str(game.fonts[text.font])) > CONFUSABLE:
                    misread.add((faces.component.id, text.font, text.text))
    assert not misread, sorted(misread)[:10]
