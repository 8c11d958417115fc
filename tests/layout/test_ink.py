"""A glyph's ink, not only its advance width, stays inside its box (a Q's tail, an italic's hook)."""

from __future__ import annotations

import pytest

from spellpress.cli import main
from spellpress.layout import fonts
from spellpress.layout.ink_bounds import overflow, text_ink
from spellpress.layout.ops import Text
from spellpress.layout.text import INK_TOLERANCE_MM, TextFitError, fit_text
from spellpress.paths import SHARED_FONTS
from tests.conftest import WISE

BOX = (0.0, 0.0, 30.0, 30.0)  # x, y, w, h in mm (y up): a 60 pt Q fits by its advance and line height


@pytest.fixture(scope="module")
def cinzel():
    return fonts.register("Cinzel-Bold", SHARED_FONTS / "Cinzel-Bold.ttf")


def fit(text, font, **kw):
    args = dict(box=BOX, font=font, size=60, min_size=20, leading=1.0, align="center", valign="middle",
                color=(0, 0, 0, 1), icons={})
    args.update(kw)
    return fit_text(text, **args)


def test_a_q_set_by_its_advance_width_draws_its_tail_past_the_box(cinzel):
    ops, size = fit("Q", cinzel, ink_may_overflow=True)
    past, side = overflow(ops, BOX)
    assert size == 60 and past > 1.0 and side in ("right", "bottom")  # the tail, by more than a millimetre


def test_the_q_shrinks_until_its_ink_is_inside(cinzel):
    ops, size = fit("Q", cinzel)
    assert size < 60
    assert overflow(ops, BOX)[0] <= INK_TOLERANCE_MM
    left, bottom, right, top = text_ink(ops[0])
    assert 0 - INK_TOLERANCE_MM <= left and right <= 30 + INK_TOLERANCE_MM and bottom >= -INK_TOLERANCE_MM


def test_ink_of_a_run_follows_the_glyph_outlines(cinzel):
    # an O is about as wide as its advance less its side bearings, and sits on the baseline
    op = Text(10.0, 5.0, cinzel, 72.0, (0, 0, 0, 1), "O")
    left, bottom, right, top = text_ink(op)
    advance = fonts.width("O", cinzel, 72.0) * 25.4 / 72
    assert 10.0 < left < right < 10.0 + advance
    assert bottom == pytest.approx(5.0, abs=0.5) and top > 5.0 + 15


def test_a_box_that_cannot_shrink_says_how_far_the_ink_reaches(cinzel):
    with pytest.raises(TextFitError, match=r"the ink of 'Q' reaches \d+\.\d mm past the box's (right|bottom) edge"):
        fit("Q", cinzel, min_size=60)


def test_a_box_may_let_its_glyphs_overflow(cinzel):
    ops, size = fit("Q", cinzel, min_size=60, ink_may_overflow=True)
    assert size == 60


def big_q_game(game_copy, overflow_line: str = ""):
    folder = game_copy(WISE)
    template = folder / "templates" / "consonant-card.yaml"
    template.write_text(template.read_text().replace(
        '  letter: {color: "#1f2d4d"}',
        '  letter: {color: "#1f2d4d", w: 40mm, x: 11mm, size: 80, min_size: 80' + overflow_line + '}'))
    return folder


def test_a_card_whose_ink_leaves_its_box_is_an_error_naming_card_and_box(game_copy, tmp_path, capsys, monkeypatch):
    folder = big_q_game(game_copy)
    monkeypatch.chdir(tmp_path)
    assert main(["build", folder.name, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "consonants.yaml" in err and "'letter'" in err and "the ink of 'Q' reaches" in err
    assert not (tmp_path / "out").exists()


def test_overflow_true_lets_it_print(game_copy, tmp_path, capsys, monkeypatch):
    folder = big_q_game(game_copy, ", overflow: true")
    monkeypatch.chdir(tmp_path)
    assert main(["build", folder.name, "--out", str(tmp_path / "out")]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("path", sorted(SHARED_FONTS.glob("*.ttf")), ids=lambda p: p.stem)
def test_glyph_bounds_read_from_the_parsed_font_match_fonttools(path):
    from fontTools.ttLib import TTFont

    from spellpress.layout.ink_bounds import glyph_bounds

    bounds = glyph_bounds(fonts.register(path.stem, path))
    with TTFont(str(path)) as reference:
        glyf = reference["glyf"]
        cmap = reference.getBestCmap()
        expected = {}
        for code, name in cmap.items():
            glyph = glyf[name]
            expected[code] = (glyph.xMin, glyph.yMin, glyph.xMax, glyph.yMax) if glyph.numberOfContours else None
    assert {code: bounds.get(code) for code in cmap} == expected
    assert any(expected.values()) and None in expected.values()  # outlines and a space, at least
    assert bounds.get(0x10FFFF) is None  # a character the font does not have


def test_text_that_cannot_fit_says_by_how_much(cinzel):
    with pytest.raises(TextFitError) as too_tall:
        fit("WORD " * 40, cinzel, box=(0.0, 0.0, 30.0, 10.0), size=12, min_size=6)
    message = str(too_tall.value)
    needed = float(message.split(" lines need ")[1].split(" mm")[0])
    short = float(message.split("of height, ")[1].split(" mm more")[0])
    assert needed > 10.0 and abs(needed - 10.0 - short) < 0.06 and "% less text would fit" in message
    with pytest.raises(TextFitError,
                       match=r"the word 'ANTIDISESTABLISHMENTARIANISM' alone is \d+\.\d mm wide, \d+\.\d mm more than the box"):
        fit("ANTIDISESTABLISHMENTARIANISM", cinzel, box=(0.0, 0.0, 20.0, 30.0), size=12, min_size=6)
