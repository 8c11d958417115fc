"""An icon that passed every check is not checked again by a later load (generator/load/icon_verdicts.py):
the verdict is kept under a digest of its bytes, the installed svglib and reportlab and the icon limits, so
a simulation's first game imports neither lxml nor svglib; a changed icon, one that names other files,
and one that failed are checked every time."""

from __future__ import annotations

import pytest

from spellpress.errors import UserError
from spellpress.load import svg_refs
from spellpress.load.game import load_game
from tests.load.test_escapes import SVG_HEAD, game_with_icon

SQUARE = SVG_HEAD + '<path d="M1 1 L9 1 L9 9 Z"/>\n</svg>\n'


@pytest.fixture
def reads(tmp_path, monkeypatch):
    """The icons svglib is asked to read, with the verdicts kept in a folder of the test's own."""
    monkeypatch.setenv("SPELLPRESS_WORD_CACHE", str(tmp_path / "cache"))
    asked: list[str] = []
    real = svg_refs.read_svg

    def counted(path, shown):
        asked.append(shown)
        return real(path, shown)

    monkeypatch.setattr(svg_refs, "read_svg", counted)
    return asked


def test_an_icon_that_passed_is_not_checked_again(game_copy, tmp_path, reads):
    folder = game_with_icon(game_copy, tmp_path, SQUARE)
    first, again = load_game(folder), load_game(folder)
    assert reads == ["mark.svg"] and first.icons["mark"] == again.icons["mark"]
    (folder / "icons" / "mark.svg").write_text(SQUARE.replace("M1 1", "M2 2"))  # another drawing: checked again
    load_game(folder)
    assert reads == ["mark.svg", "mark.svg"]


def test_an_icon_that_failed_is_refused_every_time(game_copy, tmp_path, reads):
    folder = game_with_icon(game_copy, tmp_path, SQUARE.replace('viewBox="0 0 10 10"', 'width="0" height="0"'))
    messages = []
    for _ in range(2):
        with pytest.raises(UserError) as raised:
            load_game(folder)
        messages.append(str(raised.value))
    assert "mark.svg" in messages[0] and messages[0] == messages[1] and reads == ["mark.svg", "mark.svg"]


def test_an_icon_naming_other_files_is_checked_every_time(game_copy, tmp_path, reads):
    folder = game_with_icon(game_copy, tmp_path, SQUARE.replace("</svg>", '<use xlink:href="#none"/></svg>'))
    load_game(folder)
    load_game(folder)
    assert reads == ["mark.svg", "mark.svg"]


def test_no_verdicts_are_kept_when_the_cache_is_off(game_copy, tmp_path, reads, monkeypatch):
    monkeypatch.setenv("SPELLPRESS_WORD_CACHE", "off")
    folder = game_with_icon(game_copy, tmp_path, SQUARE)
    load_game(folder)
    load_game(folder)
    assert reads == ["mark.svg", "mark.svg"]
