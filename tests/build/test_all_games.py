"""Every shipped game builds on A4 and Letter with every font embedded and every copy placed."""

from pathlib import Path

import pytest
from pypdf import PdfReader

from spellpress.load.game import load_game
from spellpress.paths import list_game_folders
from tests.write.test_pdf import fonts_of

ROOT = Path(__file__).resolve().parents[2]
GAMES = list_game_folders(ROOT / "cards")


SHIPPED = {"ein-wort-an-die-weisen", "evocabulary", "lost-words", "magic-spell", "spelled",
           "un-mot-au-sage", "una-palabra-al-sabio", "word-rummy", "word-to-the-wise"}


def test_the_nine_games_are_shipped():
    assert {folder.name for folder in GAMES} == SHIPPED


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("folder", GAMES, ids=[f.name for f in GAMES])
def test_game_prints(build_game, folder, paper):
    pdf, manifest, _ = build_game(folder, paper=paper)
    game = load_game(folder)
    reader = PdfReader(pdf)
    assert len(reader.pages) == manifest["pages"]
    fonts = fonts_of(reader)
    assert fonts and all(fonts.values()), fonts
    for component, listed in zip(game.components, manifest["components"], strict=False):
        assert listed["copies"] == component.copies
        for card in listed["cards"]:
            for copy in card["copies"]:
                sides = [p["side"] for p in copy["placements"]]
                assert sides.count("front") == 1
                assert sides.count("back") == (1 if component.back is not None else 0)
