"""Nine poker cards a sheet on A4 and Letter, as print-and-play files everywhere print them."""

from __future__ import annotations

import shutil

import numpy as np
import pypdfium2 as pdfium
import pytest

from spellpress.build import BuildOptions, build
from spellpress.units import MM_PER_INCH
from tests.conftest import DUPLEX


@pytest.fixture(scope="module")
def sixty_poker_cards(tmp_path_factory):
    game = tmp_path_factory.mktemp("deck") / "deck"
    shutil.copytree(DUPLEX, game)
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("[cards.yaml, tiles.yaml]", "[cards.yaml]"))
    (game / "cards.yaml").write_text((game / "cards.yaml").read_text()
                                     .replace("{n: 1, count: 7}", "{n: 1, count: 31}").replace("{n: 2, count: 4}",
                                                                                               "{n: 2, count: 29}"))
    return game


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_sixty_poker_cards_take_seven_sheets_of_fronts(sixty_poker_cards, tmp_path, paper):
    result = build(sixty_poker_cards, BuildOptions(out=tmp_path, paper=paper, backs="none", cache=False))
    pdf = pdfium.PdfDocument(str(next(p for p in result.files if p.suffix == ".pdf")))
    assert len(pdf) == 7
    assert result.sheets == ["63 x 88 mm: 9 a sheet (3 x 3)" + (", outer bleed trimmed to 2.2 mm" if paper == "letter" else "")]
    # nothing printed within 3 mm of the paper's edge (home printers' dead margin), marks included
    page = np.asarray(pdf[0].render(scale=200 / 72).to_pil().convert("L"))
    edge = round(3 / MM_PER_INCH * 200) - 1
    border = np.concatenate([page[:edge].ravel(), page[-edge:].ravel(), page[:, :edge].ravel(), page[:, -edge:].ravel()])
    assert border.min() > 250
    # crop marks are drawn in each margin: dark pixels outside the cards' area on every side
    inked = np.argwhere(page < 128)
    assert inked[:, 0].min() < edge + round(4 / MM_PER_INCH * 200) and inked[:, 1].min() < edge + round(8 / MM_PER_INCH * 200)
