"""A Word to the Wise and its French edition share one engine: each is judged on its own word list,
whichever was loaded first in the process (the engine's word finders were once keyed without the list)."""

from __future__ import annotations

import pytest

from spellpress.load.game import load_game
from spellpress.rules.word_to_the_wise.content import _word_tables
from tests.conftest import ROOT


@pytest.mark.slow
def test_each_edition_gets_its_own_word_list_in_one_process():
    french = load_game(ROOT / "cards" / "un-mot-au-sage")
    english = load_game(ROOT / "cards" / "word-to-the-wise")
    _, french_words = _word_tables(french)
    _, english_words = _word_tables(english)
    assert "cat" in english_words and "cat" not in french_words
    assert "chat" in french_words
