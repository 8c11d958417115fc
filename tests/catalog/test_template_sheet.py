"""`spellpress templates` draws every shared template as a card, filled with its example fields."""

from __future__ import annotations

import numpy as np
import pypdf
from PIL import Image

from spellpress.catalog import template_sheet as sheet
from spellpress.cli import main
from spellpress.paths import SHARED_TEMPLATES
from tests.write.test_pdf import fonts_of

SHARED = sorted(path.stem for path in SHARED_TEMPLATES.glob("*.yaml"))


def test_the_contact_sheet_draws_each_shared_template_once(tmp_path, capsys):
    assert main(["templates", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert str(tmp_path / "templates" / "templates.pdf") in printed
    reader = pypdf.PdfReader(tmp_path / "templates" / "templates.pdf")
    per_page = sheet.COLUMNS * sheet.ROWS
    assert len(SHARED) >= 5 and len(reader.pages) == -(-len(SHARED) // per_page)
    placed = [name for page in reader.pages for name in page["/Resources"]["/XObject"]]
    assert len(placed) == len(SHARED)  # one drawn face a template, each different
    text = "".join(page.extract_text() for page in reader.pages)
    for name in SHARED:
        assert text.count(name) >= 1, name
    assert "letter-card (extends base-card)" in text and "100 x 75 mm, shown at 58%" in text
    fonts = fonts_of(reader)
    assert fonts and all(fonts.values()), fonts  # every font embedded
    assert any("Cinzel-Bold" in name for name in fonts) and any("EBGaramond" in name for name in fonts)


def test_the_picture_shows_a_drawn_card_in_each_cell(tmp_path, capsys):
    assert main(["templates", "--out", str(tmp_path)]) == 0
    picture = np.asarray(Image.open(tmp_path / "templates" / "templates.png").convert("RGB")).astype(int)
    assert picture.shape[:2] == (1754, 1240) or picture.shape[:2] == (1754, 1241)  # A4 at 150 dpi
    px = 150 / 25.4
    cell_w = (sheet.A4[0] - 2 * sheet.MARGIN) / sheet.COLUMNS
    cell_h = (sheet.A4[1] - 2 * sheet.MARGIN - sheet.TITLE_SPACE) / sheet.ROWS
    inked = []
    for index in range(sheet.COLUMNS * sheet.ROWS):
        left = sheet.MARGIN + index % sheet.COLUMNS * cell_w
        top = sheet.MARGIN + sheet.TITLE_SPACE + index // sheet.COLUMNS * cell_h
        cell = picture[int(top * px):int((top + cell_h - sheet.CAPTION) * px), int(left * px):int((left + cell_w) * px)]
        inked.append(float((cell.min(axis=2) < 245).mean()))  # not the white paper
    drawn = len(SHARED[:sheet.COLUMNS * sheet.ROWS])
    assert all(share > 0.15 for share in inked[:drawn]), inked  # a card face fills each used cell
    assert all(share == 0 for share in inked[drawn:]), inked
    navy = (np.abs(picture - np.array([0x1F, 0x2D, 0x4D])).sum(axis=2) < 30).mean()
    assert navy > 0.02, navy  # the deck back's example colour, #1f2d4d


def test_no_sheet_only_lists(tmp_path, capsys):
    assert main(["templates", "--no-sheet", "--out", str(tmp_path)]) == 0
    assert "letter-card (extends base-card)" in capsys.readouterr().out
    assert not (tmp_path / "templates").exists()
