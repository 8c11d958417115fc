"""Typography in text boxes: paragraph spacing, hanging bullets, typographic quotes (a box may opt
out), and an inline icon that stays on the line of its word."""

from __future__ import annotations

import pytest

from spellpress.layout import fonts
from spellpress.layout.markup import typographic
from spellpress.layout.ops import Icon, Text
from spellpress.layout.text import fit_text
from spellpress.paths import SHARED_FONTS
from spellpress.units import MM_PER_POINT

SIZE = 10.0
LEADING = 1.2


@pytest.fixture(scope="module")
def faces():
    names = {(False, False): "EBGaramond-Regular", (True, False): "EBGaramond-Bold"}
    return {style: fonts.register(name, SHARED_FONTS / f"{name}.ttf") for style, name in names.items()}


def fit(text, faces, width=50.0, **kw):
    args = dict(box=(0.0, 0.0, width, 60.0), font=faces[(False, False)], size=SIZE, min_size=SIZE, leading=LEADING,
                align="left", valign="top", color=(0, 0, 0, 1), icons={"owl": "owl.svg"},
                style_font=lambda bold, italic: faces[(bold, italic)])
    args.update(kw)
    return fit_text(text, **args)[0]


def baselines(ops):
    return sorted({op.y for op in ops if isinstance(op, Text)}, reverse=True)


def test_a_blank_line_is_paragraph_spacing_not_a_whole_line(faces):
    close = baselines(fit("One\nTwo", faces))
    apart = baselines(fit("One\n\nTwo", faces))
    line = SIZE * LEADING * MM_PER_POINT
    assert close[0] - close[1] == pytest.approx(line, abs=1e-3)
    assert apart[0] - apart[1] == pytest.approx(line + 0.5 * SIZE * MM_PER_POINT, abs=1e-3)
    wider = baselines(fit("One\n\nTwo", faces, paragraph=1.0))
    assert wider[0] - wider[1] == pytest.approx(line + SIZE * MM_PER_POINT, abs=1e-3)
    assert baselines(fit("\n\nOne", faces))[0] == close[0]  # no space above the first paragraph


def test_a_bullet_hangs_its_wrapped_lines_behind_the_bullet(faces):
    ops = fit("- the first item runs long enough to wrap onto a second line and a third\n• short", faces, width=30.0)
    texts = [op for op in ops if isinstance(op, Text)]
    bullets = [op for op in texts if op.text == "\u2022"]
    assert len(bullets) == 2 and all(op.x == 0 for op in bullets)
    words = [op for op in texts if op.text != "\u2022"]
    assert len({op.y for op in words}) >= 4  # three lines of the first item, one of the second
    starts = {op.y: op.x for op in reversed(words)}  # each line's first run
    indent = starts[bullets[0].y]
    assert indent > fonts.width("\u2022", faces[(False, False)], SIZE) * MM_PER_POINT
    assert all(x == pytest.approx(indent) for x in starts.values())


def test_a_dash_inside_a_line_is_no_bullet(faces):
    texts = [op.text for op in fit("two - three", faces) if isinstance(op, Text)]
    assert "\u2022" not in "".join(texts)


def test_bold_runs_in_a_bullet(faces):
    ops = fit("- **Score:** your words", faces)
    bold = [op for op in ops if isinstance(op, Text) and op.font == faces[(True, False)]]
    assert [op.text.strip() for op in bold] == ["Score:"]


def test_an_icon_alone_stays_on_the_line_of_the_word_after_it(faces):
    text = "aaaa bbbb cccc :owl: WILD is any letter"
    # a width where the icon would still fit on the first line but its word would not
    first = fonts.width("aaaa bbbb cccc ", faces[(False, False)], SIZE) + SIZE * 0.8
    ops = fit(text, faces, width=(first + 1) * MM_PER_POINT)
    icon = next(op for op in ops if isinstance(op, Icon))
    wild = next(op for op in ops if isinstance(op, Text) and "WILD" in op.text)
    assert icon.y == wild.y
    assert icon.x < wild.x


def test_an_icon_ending_a_paragraph_stays_with_the_word_before_it(faces):
    text = "aaaa bbbb cccc +2 :owl:"
    first = fonts.width("aaaa bbbb cccc +2 ", faces[(False, False)], SIZE)
    ops = fit(text, faces, width=(first + 1) * MM_PER_POINT)
    icon = next(op for op in ops if isinstance(op, Icon))
    two = next(op for op in ops if isinstance(op, Text) and "+2" in op.text)
    assert icon.y == two.y and icon.y < max(baselines(ops))


@pytest.mark.parametrize("straight, curly", [
    ("don't", "don\u2019t"), ("the players' hands", "the players\u2019 hands"),
    ('"Wild," she said', "\u201cWild,\u201d she said"), ("a 'wild' card", "a \u2018wild\u2019 card"),
    ("(\"x\")", "(\u201cx\u201d)"), ("no quotes", "no quotes"),
])
def test_straight_quotes_become_typographic(straight, curly):
    assert typographic(straight) == curly


def quoted_game(tmp_path):
    from spellpress.scaffold.new import new_game

    folder = tmp_path / "g"
    new_game(folder, "poker")
    template = folder / "templates" / "my-card.yaml"
    template.write_text(template.read_text() + "  quote:\n    kind: text\n    x: 6mm\n    y: 70mm\n    w: 50mm\n"
                        "    h: 8mm\n    text: \"don't\"\n  straight:\n    kind: text\n    x: 6mm\n    y: 62mm\n"
                        "    w: 50mm\n    h: 8mm\n    text: \"6'2\\\"\"\n    smart_quotes: false\n")
    return folder


def first_front_texts(folder):
    from spellpress.layout.deck import layout_game
    from spellpress.load.game import load_game

    return {op.text for op in layout_game(load_game(folder), 0.0)[0].front.ops if isinstance(op, Text)}


def test_text_boxes_print_typographic_quotes_unless_they_opt_out(tmp_path):
    texts = first_front_texts(quoted_game(tmp_path))
    assert "don\u2019t" in texts and "6'2\"" in texts


def test_a_font_without_curly_quotes_keeps_them_straight(tmp_path, monkeypatch):
    from spellpress.layout import face

    folder = quoted_game(tmp_path)
    real = fonts.missing_characters
    monkeypatch.setattr(face.fonts, "missing_characters",
                        lambda text, font: "".join(c for c in text if c in "\u2018\u2019\u201c\u201d") + real(text, font))
    assert "don't" in first_front_texts(folder)


def test_an_icon_starting_a_line_is_its_bullet_in_a_left_aligned_box(faces):
    text = ":owl: Draw a letter from the deck and keep going until this wraps twice over"
    ops = fit(text, faces, width=30.0)
    icon = next(op for op in ops if isinstance(op, Icon))
    words = [op for op in ops if isinstance(op, Text)]
    starts = {op.y: op.x for op in reversed(words)}
    assert icon.x == 0 and len(starts) >= 3
    assert all(x == pytest.approx(starts[icon.y]) for x in starts.values()) and starts[icon.y] > icon.w
    centred = fit(text, faces, width=30.0, align="center")
    assert len({round(op.x, 3) for op in centred if isinstance(op, Text)}) > 1  # no hanging in a centred box


def test_an_icon_after_an_amount_stays_with_the_amount(faces):
    text = "aaaa bbbb cccc 1 :owl: each time"
    first = fonts.width("aaaa bbbb cccc 1 ", faces[(False, False)], SIZE)
    ops = fit(text, faces, width=(first + 1) * MM_PER_POINT)
    icon = next(op for op in ops if isinstance(op, Icon))
    one = next(op for op in ops if isinstance(op, Text) and op.text.strip().endswith("1"))
    assert icon.y == one.y
