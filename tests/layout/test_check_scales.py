"""`check` of many long cards (issue 43: 10,000 cards of 5,000 characters took some 20 minutes): text fitting
bisects the sizes and skips the letter-by-letter ink walk where a line cannot leave its box, with the very
same results as trying every size and walking every line."""

from __future__ import annotations

import random
import re

import pytest

from spellpress.geometry import Box
from spellpress.layout import fonts, ink_bounds, text
from spellpress.layout.ink_bounds import text_ink
from spellpress.layout.ops import Text
from spellpress.layout.text import INK_TOLERANCE_MM, SHRINK_STEP_PT, TextFitError, block_height_pt, fit_text, wrap
from spellpress.paths import SHARED_FONTS

FONTS = ["EBGaramond-Regular", "EBGaramond-Italic", "Cinzel-Bold"]  # an italic's hooks and Cinzel's Q reach past their advance
WORDS = ["Quill", "fjord", "jinx", "Wyvern", "ajar", "Q", "f", "spell", "letter", "gyp", "Æther", "vowel", "offhand"]


@pytest.fixture(scope="module")
def registered():
    return [fonts.register(name, SHARED_FONTS / f"{name}.ttf") for name in FONTS]


def every_size(words_text: str, box, font: str, size: float, min_size: float, leading: float):
    """The fitting as it was: every quarter point from `size` down, every line's ink walked."""
    x, y, w, h = box
    paragraphs = text.paragraphs_of(words_text, {}, None, lambda value: None)
    current = size
    while True:
        lines = wrap(paragraphs, font, current, w / 0.3527777777777778)
        last = current - SHRINK_STEP_PT < min_size - 1e-9
        if lines is not None and block_height_pt(lines, font, current, leading) <= h / 0.3527777777777778 + 1e-6:
            ops = text._place(lines, Box(x, y, w, h), font=font, size=current, leading=leading, paragraph=0.5, align="left",
                              valign="top", color=(0, 0, 0, 1), icons={})
            if walked_overflow(ops, box)[0] <= INK_TOLERANCE_MM:
                return ops, current
            if last:
                return None, "ink"
        elif last:
            return None, "fit"
        current = round(current - SHRINK_STEP_PT, 4)


def walked_overflow(ops, box):
    x, y, w, h = box
    worst, side = 0.0, ""
    for op in ops:
        ink = text_ink(op) if isinstance(op, Text) else None
        if ink is None:
            continue
        for excess, name in ((x - ink[0], "left"), (y - ink[1], "bottom"), (ink[2] - (x + w), "right"), (ink[3] - (y + h),
                                                                                                         "top")):
            if excess > worst:
                worst, side = excess, name
    return worst, side


def test_fitting_gives_what_trying_every_size_gave(registered):
    noise = random.Random(43)
    for _ in range(60):
        font = noise.choice(registered)
        words_text = "\n".join(" ".join(noise.choice(WORDS) for _ in range(noise.randrange(1, 40)))
                               for _ in range(noise.randrange(1, 4)))
        box = (noise.uniform(0, 5), noise.uniform(0, 5), noise.uniform(8, 60), noise.uniform(4, 60))
        size, min_size, leading = noise.choice([6, 9, 12, 20]), noise.choice([3, 4.5, 6]), noise.choice([1.0, 1.2])
        expected = every_size(words_text, box, font, size, min_size, leading)
        try:
            got = fit_text(words_text, box=box, font=font, size=size, min_size=min(min_size, size), leading=leading,
                           align="left", valign="top", color=(0, 0, 0, 1), icons={})
        except TextFitError as exc:
            assert expected[0] is None and ("ink" in str(exc)) == (expected[1] == "ink"), (words_text, box, exc)
            continue
        assert got == expected, (words_text, box, font, size)


def test_overflow_equals_walking_every_letter(registered):
    noise = random.Random(7)
    for _ in range(400):
        font = noise.choice(registered)
        run = " ".join(noise.choice(WORDS) for _ in range(noise.randrange(1, 6)))
        op = Text(noise.uniform(0, 3), noise.uniform(0, 3), font, noise.choice([6, 9, 30]), (0, 0, 0, 1), run)
        box = (noise.uniform(0, 3), noise.uniform(0, 3), noise.uniform(5, 40), noise.uniform(2, 12))
        assert ink_bounds.overflow((op,), box) == walked_overflow((op,), box)


def test_text_that_fits_at_no_size_is_wrapped_a_few_times_not_once_a_size(registered, monkeypatch):
    calls = []
    real_wrap = text.wrap
    monkeypatch.setattr(text, "wrap", lambda *args: calls.append(args[2]) or real_wrap(*args))
    long_text = " ".join(random.Random(1).choice(WORDS) for _ in range(900))  # about 5,000 characters
    with pytest.raises(TextFitError, match="does not fit.*lines need .* mm of height"):
        fit_text(long_text, box=(0, 0, 30, 20), font=registered[0], size=12, min_size=3, leading=1.2,
                 align="left", valign="top", color=(0, 0, 0, 1), icons={})
    assert len(calls) <= 7, calls  # 37 sizes from 12 pt down to 3 pt: one wrap each before


def test_a_game_past_the_text_limit_is_refused_before_any_layout(game_copy, tmp_path, capsys, monkeypatch):
    from spellpress.cli import main
    from spellpress.load import game as loading
    from tests.conftest import WISE

    monkeypatch.setattr(loading, "MAX_GAME_TEXT", 500)  # the real limit's file would take a test seconds to write
    folder = game_copy(WISE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(text, "fit_text", lambda *args, **kwargs: pytest.fail("laid out"))
    assert main(["check", folder.name]) == 2
    err = capsys.readouterr().err
    assert re.search(r"word-to-the-wise/game\.yaml:22:3: the game's cards hold [\d,]+ characters of text", err)
    assert "a game may hold at most 500" in err
