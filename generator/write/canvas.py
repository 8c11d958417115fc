"""A reportlab canvas set up for reproducible, fully embedded output."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from io import BytesIO

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from spellpress.layout import fonts
from spellpress.paths import SHARED_FONTS
from spellpress.units import mm_to_pt

LABEL_FONT = "EBGaramond-Regular"


@dataclass(frozen=True)
class DocumentInfo:
    """The PDF's Info dictionary (write/metadata.py fills it from a game)."""

    title: str
    author: str = ""
    subject: str = ""
    date: datetime | None = None  # creation and modification date; None: reportlab's fixed 2000-01-01


def new_canvas(buffer: BytesIO, size_mm: tuple[float, float], title: str | DocumentInfo) -> Canvas:
    rl_config.invariant = 1  # no clock time or random ids: identical input gives identical bytes
    info = title if isinstance(title, DocumentInfo) else DocumentInfo(title)
    font = fonts.register(LABEL_FONT, SHARED_FONTS / f"{LABEL_FONT}.ttf")
    canvas = Canvas(
        buffer,
        pagesize=(mm_to_pt(size_mm[0]), mm_to_pt(size_mm[1])),
        invariant=1,
        pageCompression=1,
        initialFontName=font,  # otherwise every page starts with an unembedded Helvetica
        initialFontSize=8,
    )
    canvas.setTitle(info.title)
    canvas.setAuthor(info.author)
    canvas.setSubject(info.subject)
    if info.date is not None:
        stamp = info.date.strftime("D:%Y%m%d%H%M%S+00'00'")
        canvas.setDateFormatter(lambda *_: stamp)
    canvas.setCreator("Spellpress")
    canvas.setProducer("Spellpress (reportlab)")
    return canvas
