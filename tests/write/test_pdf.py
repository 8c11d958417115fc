"""Real PDFs of real games, read back with pypdf."""

import pytest
from pypdf import PdfReader

from spellpress.impose.grid import MARK_EDGE
from spellpress.model.sizes import PAPER_SIZES
from spellpress.units import MM_PER_POINT
from tests.conftest import DUPLEX, WISE


def fonts_of(reader: PdfReader) -> dict[str, bool]:
    """Every font resource used on any page or form: name -> embedded?"""
    found: dict[str, bool] = {}
    seen = set()

    def visit(resources):
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            embedded = any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
            found[str(font.get("/BaseFont"))] = embedded
        for xobject in (resources.get("/XObject") or {}).values():
            if xobject.idnum in seen:
                continue
            seen.add(xobject.idnum)
            visit(xobject.get_object().get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pages_have_the_paper_size(build_game, paper):
    pdf, manifest, _ = build_game(WISE, paper=paper)
    reader = PdfReader(pdf)
    assert len(reader.pages) == manifest["pages"]
    width, height = PAPER_SIZES[paper]
    for page in reader.pages:
        box = page.mediabox
        assert float(box.width) * MM_PER_POINT == pytest.approx(width, abs=0.01)
        assert float(box.height) * MM_PER_POINT == pytest.approx(height, abs=0.01)


def test_every_font_is_embedded_and_subset(build_game):
    pdf, _, _ = build_game(WISE)
    found = fonts_of(PdfReader(pdf))
    assert found, "no fonts found at all"
    assert all(found.values()), found
    names = set(found)
    assert any("Cinzel" in name for name in names) and any("EBGaramond" in name for name in names)
    # subset fonts carry a six-letter tag: ABCDEF+Name
    assert all("+" in name for name in names), names
    assert not any("Helvetica" in name for name in names)


@pytest.mark.slow
def test_card_text_is_in_the_pdf(build_game):
    pdf, _, _ = build_game(WISE)
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    for expected in ("WILD", "A Word to the Wise", "points", "Total"):
        assert expected in text


def test_every_copy_is_placed_once_per_side(build_game):
    _, manifest, _ = build_game(WISE)
    consonants = next(c for c in manifest["components"] if c["id"] == "consonants")
    assert consonants["copies"] == 108
    positions = set()
    for card in consonants["cards"]:
        assert len(card["copies"]) == card["count"]
        for copy in card["copies"]:
            sides = sorted(p["side"] for p in copy["placements"])
            assert sides == ["back", "front"]
            for placement in copy["placements"]:
                key = (placement["page"], placement["row"], placement["column"], placement["side"])
                assert key not in positions
                positions.add(key)


def test_manifest_pages_match_the_forms_drawn(build_game):
    """Each front placement in the manifest is a Form drawn on that page."""
    pdf, manifest, _ = build_game(DUPLEX)
    reader = PdfReader(pdf)
    per_page: dict[int, int] = {}
    for component in manifest["components"]:
        for card in component["cards"]:
            for copy in card["copies"]:
                for placement in copy["placements"]:
                    per_page[placement["page"]] = per_page.get(placement["page"], 0) + 1
    for number, page in enumerate(reader.pages, start=1):
        content = page.get_contents().get_data().decode("latin-1")
        assert content.count(" Do") == per_page.get(number, 0)


def test_a_distinct_face_is_drawn_once(build_game):
    pdf, manifest, _ = build_game(WISE)
    reader = PdfReader(pdf)
    forms = set()
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject") or {}
        forms.update(ref.idnum for ref in xobjects.values())
    distinct_cards = sum(len(c["cards"]) for c in manifest["components"])
    # one form per distinct front, plus the shared deck back
    assert len(forms) <= distinct_cards + 1
    assert len(forms) >= 21


@pytest.mark.slow
def test_two_builds_are_byte_identical(tmp_path):
    from spellpress.build import BuildOptions, build

    first = build(WISE, BuildOptions(out=tmp_path / "one"))
    second = build(WISE, BuildOptions(out=tmp_path / "two"))
    for a, b in zip(first.files, second.files, strict=False):
        assert a.read_bytes() == b.read_bytes(), a.name


@pytest.mark.parametrize("backs", ["none", "duplex-long", "duplex-short", "fold"])
def test_every_back_mode_builds(build_game, backs):
    pdf, manifest, _ = build_game(DUPLEX, backs=backs)
    kinds = manifest["page_kinds"]
    if backs == "none":
        assert set(kinds) == {"fronts"}
    elif backs == "fold":
        assert set(kinds) == {"fold"}  # every fixture card has a back
    else:
        assert kinds[::2] == ["fronts"] * (len(kinds) // 2) and kinds[1::2] == ["backs"] * (len(kinds) // 2)
    assert len(PdfReader(pdf).pages) == manifest["pages"]


def test_print_shop_pages_are_one_card_with_trim_and_bleed_boxes(build_game):
    _, _, result = build_game(DUPLEX, print_shop=True)
    shop = next(p for p in result.files if p.name.endswith("print-shop.pdf"))
    reader = PdfReader(shop)
    assert len(reader.pages) == 2 * 16  # back then front for each of 16 cards
    page = reader.pages[1]
    media = page.mediabox
    trim = page.trimbox
    bleed = page.bleedbox
    assert float(media.width) * MM_PER_POINT == pytest.approx(63 + 6, abs=0.01)
    assert float(trim.width) * MM_PER_POINT == pytest.approx(63, abs=0.01)
    assert float(trim.left) * MM_PER_POINT == pytest.approx(3, abs=0.01)
    assert float(bleed.width) == pytest.approx(float(media.width))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("backs", ["duplex-long", "duplex-short", "fold"])
def test_every_sheet_prints_its_label_inside_the_printable_area(build_game, paper, backs):
    pdf, manifest, _ = build_game(DUPLEX, paper=paper, backs=backs)
    reader = PdfReader(pdf)
    width_pt, height_pt = (v / MM_PER_POINT for v in PAPER_SIZES[paper])
    for number, page in enumerate(reader.pages, start=1):
        found = []

        def visit(text, cm, tm, font, size, found=found):
            if "print at actual size" in text:  # where the line starts, in points from the bottom-left corner
                tx, ty = tm[4], tm[5]
                found.append((cm[0] * tx + cm[2] * ty + cm[4], cm[1] * tx + cm[3] * ty + cm[5]))

        page.extract_text(visitor_text=visit)
        assert found, f"page {number} has no sheet label"
        edge_pt = MARK_EDGE / MM_PER_POINT  # home printers' dead margin
        assert all(edge_pt <= x <= width_pt - edge_pt and edge_pt <= y <= height_pt - edge_pt for x, y in found)
