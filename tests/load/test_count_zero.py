"""`count: 0` leaves a card out for a while: checked, not printed, not dealt, said in the build summary."""

from __future__ import annotations

import subprocess
import sys

import pypdf
import pytest

from spellpress.load.game import load_game
from spellpress.scaffold.new import new_game


@pytest.mark.slow
def test_count_zero_leaves_the_card_out_and_the_summary_says_so(tmp_path):
    folder = tmp_path / "g"
    new_game(folder, "poker")
    out = tmp_path / "out"
    before = subprocess.run([sys.executable, "-m", "spellpress", "build", str(folder), "--out", str(out)],
                            capture_output=True, text=True, check=True)
    assert "g: 6 cards on " in before.stdout and "left out" not in before.stdout
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace("    count: 3\n", "    count: 0\n"))
    game = load_game(folder)
    (component,) = game.components
    assert [card.id for card in component.cards] == ["second", "third"] and component.left_out == ("first",)
    assert component.copies == 3
    after = subprocess.run([sys.executable, "-m", "spellpress", "build", str(folder), "--out", str(out)],
                           capture_output=True, text=True, check=True)
    assert "g: 3 cards on 2 pages in" in after.stdout  # a page of fronts, a page of backs
    assert "left out (count: 0) from Cards: first" in after.stdout
    text = "".join(page.extract_text() for page in pypdf.PdfReader(out / "g" / "g-a4.pdf").pages)
    assert "First card" not in text and "Second card" in text
