"""Rich text: **bold**, *italic*, [colour](#rrggbb) and icons in one box, fitted and checked like plain text."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from spellpress.cli import main
from spellpress.layout import fonts
from spellpress.layout.ink_bounds import overflow
from spellpress.layout.markup import Span, parse
from spellpress.layout.ops import Icon, Text
from spellpress.layout.text import fit_text
from spellpress.paths import SHARED_FONTS
from tests.conftest import ROOT, WISE

BOX = (0.0, 0.0, 50.0, 30.0)


def test_markup_makes_styled_spans():
    assert parse("a **bold** and *italic* [red](#8b1e1e)") == [
        Span("a "), Span("bold", bold=True), Span(" and "), Span("italic", italic=True), Span(" "),
        Span("red", color="#8b1e1e")]
    assert parse("***both***") == [Span("both", bold=True, italic=True)]
    assert parse("[a **b**](#112233)") == [Span("a ", color="#112233"), Span("b", bold=True, color="#112233")]


def test_lone_markers_and_escapes_print_as_they_are():
    assert parse("5 * 3 = 15") == [Span("5 * 3 = 15")]
    assert parse(r"\*not\* [x] C:\dir") == [Span(r"*not* [x] C:\dir")]
    assert parse("**open") == [Span("**open")]


@pytest.fixture(scope="module")
def faces():
    return {(bold, italic): fonts.register(name, SHARED_FONTS / f"{name}.ttf")
            for (bold, italic), name in {(False, False): "EBGaramond-Regular", (True, False): "EBGaramond-Bold",
                                         (False, True): "EBGaramond-Italic"}.items()}


def fit(text, faces, **kw):
    args = dict(box=BOX, font=faces[(False, False)], size=12, min_size=4, leading=1.15, align="left", valign="top",
                color=(0, 0, 0, 1), icons={"owl": "owl.svg"}, style_font=lambda b, i: faces[(b, i)],
                color_of=lambda v: (1.0, 0.0, 0.0, 1.0))
    args.update(kw)
    return fit_text(text, **args)


def test_each_run_is_drawn_in_its_face_and_colour_one_after_another(faces):
    ops, _ = fit("plain **bold** *slanted* [red](#ff0000) :owl: end", faces)
    texts = [op for op in ops if isinstance(op, Text)]
    by_text = {op.text.strip(): op for op in texts}
    assert by_text["bold"].font == faces[(True, False)] and by_text["slanted"].font == faces[(False, True)]
    assert by_text["red"].color == (1.0, 0.0, 0.0, 1.0) and by_text["plain"].color == (0, 0, 0, 1)
    xs = [op.x for op in texts]
    assert xs == sorted(xs) and len({op.y for op in texts}) == 1  # one line, left to right
    bold_end = by_text["bold"].x + fonts.width(by_text["bold"].text, faces[(True, False)], 12) * 25.4 / 72
    assert by_text["slanted"].x >= bold_end - 1e-3  # measured in its own face: runs never overlap
    icon = next(op for op in ops if isinstance(op, Icon))
    assert icon.y == texts[0].y  # the inline icon sits on the baseline


def test_bold_text_shrinks_more_than_plain_and_its_ink_stays_inside(faces):
    words = "spell " * 40
    _, plain_size = fit(words, faces)
    ops, bold_size = fit(f"**{words.strip()}**", faces)
    assert bold_size < plain_size
    assert overflow(ops, BOX)[0] <= 0.2


@pytest.mark.slow
def test_the_shipped_reference_card_prints_bold_and_italic_faces(tmp_path, capsys):
    assert main(["build", str(ROOT / "cards" / "spelled"), "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    reader = PdfReader(tmp_path / "spelled" / "spelled-a4.pdf")
    page = next(p for p in reader.pages if "Reference" in p.extract_text())
    names = set()
    for form in page["/Resources"]["/XObject"].values():
        resources = form.get_object().get("/Resources", {})
        for font in resources.get("/Font", {}).values():
            names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    assert {"EBGaramond-Bold", "EBGaramond-Italic", "EBGaramond-Regular"} <= names, names


def test_a_style_the_family_lacks_is_an_error_naming_card_and_box(game_copy, tmp_path, capsys, monkeypatch):
    folder = game_copy(WISE)
    template = folder / "templates" / "consonant-card.yaml"
    template.write_text(template.read_text().replace('  letter: {color: "#1f2d4d"}',
                                                     '  letter: {color: "#1f2d4d", text: "*{{ letter }}*"}'))
    monkeypatch.chdir(tmp_path)
    assert main(["build", folder.name, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "box 'letter'" in err and "the italic of 'Cinzel-Bold': a font named 'Cinzel-BoldItalic'" in err


HOSTILE_MARKUP = {
    # name: (text, what it reads as)
    # rescanned from every bracket: 32 s at 20,000
    "100,000 open brackets then a star": ("[" * 100_000 + "*", "[" * 100_000 + "*"),
    "100,000 brackets then as many closing": ("[a" * 50_000 + "]" * 50_000, "[a" * 50_000 + "]" * 50_000),
    "50,000 escaped stars": ("\\*" * 50_000, "*" * 50_000),
    "30,000 colour spans": ("[a](#112233)" * 30_000, "a" * 30_000),
    "unclosed colour spans": ("[a](#1122" * 20_000, "[a](#1122" * 20_000),
}


@pytest.mark.parametrize("name", HOSTILE_MARKUP)
def test_markup_parses_in_linear_time(name):
    import signal
    import time

    text, reads = HOSTILE_MARKUP[name]

    def too_slow(*_):
        raise AssertionError(f"{name}: still parsing after 5 s")

    signal.signal(signal.SIGALRM, too_slow)
    signal.setitimer(signal.ITIMER_REAL, 5)
    try:
        started = time.perf_counter()
        spans = parse(text)
        elapsed = time.perf_counter() - started
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    print(f"\n{name}: {elapsed:.3f} s")
    assert "".join(span.text for span in spans) == reads
    if name.startswith("100,000"):
        assert elapsed < 1.0, f"{name}: {elapsed:.2f} s"


def test_control_characters_in_text_are_text_not_markers():
    """The parser once marked colour spans with \\x00 \\x01 \\x02 in the text itself: 'a*b\\x02c' raised IndexError."""
    assert parse("a*b\x02c") == [Span("a*b\x02c")]
    assert parse("x\x00#112233\x01y\x02 [z](#445566)") == [Span("x\x00#112233\x01y\x02 "), Span("z", color="#445566")]
    assert parse(r"\[not a span](#112233)") == [Span("[not a span](#112233)")]
