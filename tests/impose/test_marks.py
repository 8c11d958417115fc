"""Cut lines, corner guides and print-and-cut registration marks: geometry, then real pixels."""

import numpy as np
import pypdfium2 as pdfium
import pytest

from spellpress.build import BuildOptions, build
from spellpress.impose.grid import MARK_EDGE, cut_lines
from spellpress.impose.marks import CUTTER, cutter_room, within_cutter_area
from spellpress.impose.sheets import SheetSettings, plan_pages
from spellpress.layout.deck import items, layout_game
from spellpress.load.game import load_game
from spellpress.model.sizes import PAPER_SIZES
from tests.conftest import ROOT

SPELLED = ROOT / "cards" / "spelled"


def pages_for(paper, marks, backs="duplex-long", radius=0.0):
    game = load_game(SPELLED)
    settings = SheetSettings(paper=PAPER_SIZES[paper], bleed=3, margin=4, cut="shared", gutter=0, backs=backs,
                             back_offset=(0, 0), marks=marks, corner_radius=radius)
    return plan_pages(items(layout_game(game, 3)), settings, "Spelled")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_cutter_sheets_keep_every_card_inside_the_registration_marks(paper):
    for page in pages_for(paper, "cutter"):
        slots = tuple(p.slot for p in page.placed)
        assert within_cutter_area(slots, page.paper)
        if page.kind != "backs":
            assert len(page.decor.rects) == 5 and not page.marks
            top_square = page.decor.rects[0]
            assert top_square[:2] == pytest.approx((CUTTER.inset, page.paper[1] - CUTTER.inset - CUTTER.square))
            # the label sits inside the marks, below the top ones and above the cards
            ink_top = max(s.clip[1] + s.clip[3] for s in slots)
            assert ink_top < page.decor.label.y < page.paper[1] - cutter_room()


def test_full_cut_lines_run_through_every_cut_inside_the_printable_area():
    page = pages_for("a4", "lines")[0]
    xs, ys = cut_lines(tuple(p.slot for p in page.placed))
    vertical = {round(line.x1, 4) for line in page.decor.lines if line.x1 == line.x2}
    horizontal = {round(line.y1, 4) for line in page.decor.lines if line.y1 == line.y2}
    assert vertical == set(xs) and horizontal == set(ys)
    width, height = page.paper
    for line in page.decor.lines:
        for v, limit in ((line.x1, width), (line.x2, width), (line.y1, height), (line.y2, height)):
            assert MARK_EDGE - 1e-6 <= v <= limit - MARK_EDGE + 1e-6


def test_rounded_corner_guides_are_four_arcs_a_card():
    page = pages_for("a4", "crop", radius=3)[0]
    assert len(page.decor.guides) == 4 * len(page.placed)


def _render(pdf, dpi=72):
    document = pdfium.PdfDocument(str(pdf))
    return np.asarray(document[0].render(scale=dpi / 72).to_pil().convert("L"))


def test_cutter_page_pixels_square_where_silhouette_looks_and_a_clear_dead_band(tmp_path):
    result = build(SPELLED, BuildOptions(out=tmp_path, marks="cutter", cache=False))
    pdf = next(p for p in result.files if p.suffix == ".pdf")
    dpi = 72
    px = _render(pdf, dpi)
    scale = dpi / 25.4
    height = px.shape[0]
    inset, square = CUTTER.inset, CUTTER.square
    # the square's centre is black
    cy = height - int((PAPER_SIZES["a4"][1] - inset - square / 2) * scale)
    cx = int((inset + square / 2) * scale)
    assert px[cy, cx] < 50
    # the band between the paper's edge and the marks holds no ink
    band = int((inset - 1) * scale)
    for strip in (px[:band, :], px[-band:, :], px[:, :band], px[:, -band:]):
        assert strip.min() > 200


def test_cutter_builds_write_one_cut_file_a_sheet_with_every_card_outline(tmp_path):
    import xml.etree.ElementTree as ET

    result = build(SPELLED, BuildOptions(out=tmp_path, marks="cutter", cache=False))
    cuts = sorted(p for p in result.files if p.suffix == ".svg")
    fronts = [p for p in pages_for("a4", "cutter") if p.kind != "backs"]
    assert len(cuts) == len(fronts)
    root = ET.parse(cuts[0]).getroot()
    rects = root.findall(".//{http://www.w3.org/2000/svg}rect")
    assert len(rects) == len(fronts[0].placed)
    first = fronts[0].placed[0].slot
    assert float(rects[0].get("x")) == pytest.approx(first.x, abs=1e-3)
    assert float(rects[0].get("y")) == pytest.approx(297 - first.y - first.h, abs=1e-3)


def test_a_score_sheet_in_a_cutter_build_is_printed_whole_with_crop_marks(tmp_path):
    wise = ROOT / "cards" / "word-to-the-wise"  # its 180 x 250 mm score sheet does not fit inside the registration marks
    result = build(wise, BuildOptions(out=tmp_path, marks="cutter", cache=False))
    manifest = next(p for p in result.files if p.name == "manifest.json")
    import json

    kinds = json.loads(manifest.read_text())["page_kinds"]
    cut_files = [p for p in result.files if p.suffix == ".svg"]
    assert len(cut_files) == sum(1 for kind in kinds if kind != "backs") - 1  # every sheet but the score sheet's
    game = load_game(wise)
    settings = SheetSettings(paper=PAPER_SIZES["a4"], bleed=3, margin=4, cut="shared", gutter=0, backs="duplex-long",
                             back_offset=(0, 0), marks="cutter")
    pages = plan_pages(items(layout_game(game, 3)), settings, "Wise")
    sheet = next(p for p in pages if p.placed and p.placed[0].item.kind == "sheet")
    assert not sheet.decor.rects and sheet.marks  # crop marks, no registration marks
    cards = [p for p in pages if p.kind != "backs" and p.placed[0].item.kind == "card"]
    assert cards and all(p.decor.rects for p in cards)
