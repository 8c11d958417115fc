"""The registry (exporters/) only wires the exports: a build through it writes the same bytes as the PDF
writers called directly, for the home sheets (A4, duplex-long), the print-shop PDF and a shop preset."""

from __future__ import annotations

import pytest

from spellpress.build import BuildOptions, build, plan
from spellpress.cli import main
from spellpress.load.game import load_game
from spellpress.render.draw import painting
from spellpress.render.paint import RgbPaint
from spellpress.shop.build import build_for_shop
from spellpress.write.metadata import document_info
from spellpress.write.pdf import print_shop_pdf, sheets_pdf
from tests.conftest import ROOT

GAMES = [ROOT / "cards" / "word-to-the-wise", ROOT / "cards" / "lost-words"]


@pytest.mark.slow
@pytest.mark.parametrize("folder", GAMES, ids=lambda f: f.name)
def test_home_sheets_and_print_shop_pdf_are_the_writers_bytes(folder, tmp_path):
    options = BuildOptions(paper="a4", backs="duplex-long", print_shop=True, cache=False, out=tmp_path)
    result = build(folder, options)
    game = load_game(folder)
    laid, pages, _ = plan(game, options)
    info = document_info(game)
    with painting(RgbPaint()):
        sheets = sheets_pdf(pages, info)
    pairs = [(f.front, f.back) for f in laid for _ in range(f.card.count)]
    written = {path.name: path.read_bytes() for path in result.files}
    assert written[f"{game.id}-a4.pdf"] == sheets
    assert written[f"{game.id}-print-shop.pdf"] == print_shop_pdf(pairs, info)
    # the PDFs come first, in the registry's order, and the manifest names the sheets
    assert [p.name for p in result.files[:2]] == [f"{game.id}-a4.pdf", f"{game.id}-print-shop.pdf"]


@pytest.mark.slow
def test_a_shop_preset_through_the_command_line_is_the_shop_builds_bytes(tmp_path):
    folder = GAMES[0]
    assert main(["build", str(folder), "--shop", "drivethrucards", "--out", str(tmp_path / "cli")]) == 0
    direct = build_for_shop(folder, "drivethrucards", tmp_path / "direct")
    assert direct.files
    for path in direct.files:
        relative = path.relative_to(tmp_path / "direct")
        assert (tmp_path / "cli" / relative).read_bytes() == path.read_bytes(), relative
