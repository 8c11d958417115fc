"""A reportlab canvas set up for reproducible, fully embedded output."""

from __future__ import annotations

from io import BytesIO

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from spellpress.layout import fonts
from spellpress.paths import SHARED_FONTS
from spellpress.units import mm_to_pt

LABEL_FONT = "EBGaramond-Regular"


def new_canvas(buffer: BytesIO, size_mm: tuple[float, float], title: str) -> Canvas:
    rl_config.invariant = 1  # no dates or random ids: identical input gives identical bytes
    font = fonts.register(LABEL_FONT, SHARED_FONTS / f"{LABEL_FONT}.ttf")
    canvas = Canvas(
        buffer,
        pagesize=(mm_to_pt(size_mm[0]), mm_to_pt(size_mm[1])),
        invariant=1,
        pageCompression=1,
        initialFontName=font,  # otherwise every page starts with an unembedded Helvetica
        initialFontSize=8,
    )
    canvas.setTitle(title)
    canvas.setCreator("Spellpress")
    canvas.setProducer("Spellpress (reportlab)")
    return canvas
