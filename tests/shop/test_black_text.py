"""Black type in black ink: in every CMYK shop file of every shipped game, dark text at 12 pt or less and
dark lines up to 1 pt are 100% K alone, which misregistration cannot fringe; a designer's colour of clear
chroma is kept in its inks."""

from __future__ import annotations

import pytest

from spellpress.layout.ops import FaceLayout, Icon, Line, Text
from spellpress.paths import list_game_folders
from spellpress.render.paint import BlackText, CmykPaint
from spellpress.shop.build import build_for_shop
from spellpress.shop.pdfx import cmyk_faces_pdf
from spellpress.shop.presets import DEFAULT_CMYK_PROFILE, shop
from tests.conftest import ROOT
from tests.shop.text_inks import dark, inks, lightness_chroma, runs

GAMES = list_game_folders(ROOT / "cards")
CMYK_SHOPS = ["drivethrucards", "offset"]
# the profile's round trip moves L* and C* by a unit or two: the check leaves that much room at the rule's edges
ROUND_TRIP = 2.0


def offending(pdf, preset) -> list:
    rule = preset.spec.black_text
    profile = str(preset.profile_path())
    bad = []
    for run in runs(pdf):
        limit = rule.size if run.kind == "text" else rule.line
        if run.size <= limit + 1e-6 and dark(run, profile, rule.lightness - ROUND_TRIP, rule.chroma - ROUND_TRIP):
            if tuple(run.colour) != (0.0, 0.0, 0.0, 1.0):
                bad.append(run)
    return bad


@pytest.mark.slow
@pytest.mark.parametrize("folder", GAMES, ids=[f.name for f in GAMES])
def test_small_dark_type_and_lines_are_black_ink_only_in_every_shop_file(folder, tmp_path):
    for name in CMYK_SHOPS:
        preset = shop(name)
        result = build_for_shop(folder, name, tmp_path, ink_limit=False)
        pdfs = [path for path in result.files if path.suffix == ".pdf" and "home" not in path.parts]
        assert pdfs
        for pdf in pdfs:
            assert offending(pdf, preset) == [], (name, pdf.name)


def face_with(colour, size=9.0, width=0.4) -> FaceLayout:
    return FaceLayout(20, 20, 0, (Text(2, 10, "EBGaramond-Regular", size, colour, "Spell"),
                                  Line(2, 5, 10, 0, colour, width)))


@pytest.mark.parametrize("colour, size, k_only", [
    ((0x22 / 255, 0x21 / 255, 0x3B / 255, 1.0), 9.5, True),  # the body text the review found as C62 M51 Y8 K84
    ((0x22 / 255, 0x21 / 255, 0x3B / 255, 1.0), 14.0, False),  # a heading above the threshold keeps its rich black
    ((0x7A / 255, 0x4F / 255, 0xA0 / 255, 1.0), 9.0, False),  # a clear purple: the designer's colour
    ((0x5B / 255, 0x5A / 255, 0x78 / 255, 1.0), 9.0, False),  # a mid grey-violet (L* 39): not dark
])
def test_the_rule_on_single_colours(colour, size, k_only, tmp_path):
    pdf = tmp_path / "face.pdf"
    pdf.write_bytes(cmyk_faces_pdf([face_with(colour, size)], "t", CmykPaint(DEFAULT_CMYK_PROFILE)))
    text = [run for run in runs(pdf) if run.kind == "text"]
    assert len(text) == 1 and text[0].size == pytest.approx(size)
    assert (tuple(text[0].colour) == (0.0, 0.0, 0.0, 1.0)) == k_only
    if not k_only:
        assert inks(text[0].colour) >= 3


def test_a_hairline_is_black_ink_and_the_rule_can_be_turned_off(tmp_path):
    navy = (0x22 / 255, 0x21 / 255, 0x3B / 255, 1.0)
    pdf = tmp_path / "face.pdf"
    pdf.write_bytes(cmyk_faces_pdf([face_with(navy)], "t", CmykPaint(DEFAULT_CMYK_PROFILE)))
    stroke = [run for run in runs(pdf) if run.kind == "stroke"]
    assert stroke and all(tuple(run.colour) == (0.0, 0.0, 0.0, 1.0) for run in stroke)
    pdf.write_bytes(cmyk_faces_pdf([face_with(navy)], "t", CmykPaint(DEFAULT_CMYK_PROFILE, BlackText(size_pt=0, line_pt=0))))
    assert all(inks(run.colour) >= 3 for run in runs(pdf))
    lightness, _ = lightness_chroma(tuple(runs(pdf)[0].colour), str(DEFAULT_CMYK_PROFILE))
    assert lightness < 30


def fills(pdf) -> set[tuple[float, ...]]:
    """Every CMYK fill colour set anywhere in the file (pages and forms)."""
    import pikepdf

    found = set()
    with pikepdf.open(pdf) as document:
        streams = [page.obj for page in document.pages]
        streams += [obj for obj in document.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form"]
        for stream in streams:
            for operands, operator in pikepdf.parse_content_stream(stream):
                if str(operator) == "k":
                    found.add(tuple(round(float(v), 3) for v in operands))
    return found


@pytest.mark.parametrize("height, k_only", [(3.4, True), (10.0, False)])
def test_an_inline_icon_the_size_of_type_is_black_ink_like_its_words(height, k_only, tmp_path):
    """Spelled's 3.4 mm icons sit in lines of 100% K type in the text's navy: printed in four inks they
    would fringe and stand out from the words beside them. An icon up to the type threshold's height
    (12 pt, 4.2 mm) follows the type; a larger one, an illustration, keeps its inks."""
    navy = (0x22 / 255, 0x21 / 255, 0x3B / 255, 1.0)
    icon = Icon(str(ROOT / "templates" / "icons" / "quill-ink.svg"), 2, 2, height, height, navy)
    pdf = tmp_path / "face.pdf"
    pdf.write_bytes(cmyk_faces_pdf([FaceLayout(20, 20, 0, (icon,))], "t", CmykPaint(DEFAULT_CMYK_PROFILE)))
    inked = {colour for colour in fills(pdf) if any(colour)}
    assert inked
    assert (inked == {(0.0, 0.0, 0.0, 1.0)}) == k_only
