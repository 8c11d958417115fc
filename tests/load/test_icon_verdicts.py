"""An icon svglib read well is not read again by a later process (generator/load/svg_refs.py): the verdict
is kept under a digest of its bytes and the installed svglib and reportlab, so a simulation's first game
does not import svglib; a changed icon, or one that names other files, is read again every time."""

from __future__ import annotations

import pytest

from spellpress.errors import Problems
from spellpress.load import svg_refs

SQUARE = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
          '<path d="M1 1 L9 1 L9 9 Z"/></svg>\n')


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


def checked(path):
    problems = Problems()
    svg_refs.check_icon(path, path.parent, problems)
    return [item.message for item in problems.items]


def test_an_icon_read_well_is_not_read_again(tmp_path, reads):
    icon = tmp_path / "square.svg"
    icon.write_text(SQUARE)
    assert checked(icon) == [] and checked(icon) == []
    assert reads == ["square.svg"]
    icon.write_text(SQUARE.replace("M1 1", "M2 2"))  # another drawing: read again
    assert checked(icon) == [] and reads == ["square.svg", "square.svg"]


def test_an_unreadable_icon_is_refused_every_time(tmp_path, reads):
    icon = tmp_path / "flat.svg"
    icon.write_text(SQUARE.replace('width="10" height="10"', 'width="0" height="0"'))
    first, again = checked(icon), checked(icon)
    assert first and first == again and reads == ["flat.svg", "flat.svg"]


def test_an_icon_naming_other_files_is_read_every_time(tmp_path, reads):
    (tmp_path / "part.svg").write_text(SQUARE)
    icon = tmp_path / "whole.svg"
    icon.write_text(SQUARE.replace('<svg ', '<svg xmlns:xlink="http://www.w3.org/1999/xlink" ')
                    .replace("</svg>", '<image xlink:href="part.svg" width="5" height="5"/></svg>'))
    assert checked(icon) == [] and checked(icon) == []
    assert reads.count("whole.svg") == 2


def test_no_verdicts_are_kept_when_the_cache_is_off(tmp_path, reads, monkeypatch):
    monkeypatch.setenv("SPELLPRESS_WORD_CACHE", "off")
    icon = tmp_path / "square.svg"
    icon.write_text(SQUARE)
    assert checked(icon) == [] and checked(icon) == [] and reads == ["square.svg", "square.svg"]
