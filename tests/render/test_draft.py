"""--draft: a low-ink proof, rasterized and measured."""

import numpy as np
import pikepdf
import pypdfium2 as pdfium
import pytest

from spellpress.build import BuildOptions, build
from tests.conftest import ROOT


def _pixels(pdf, page=0, dpi=40):
    document = pdfium.PdfDocument(str(pdf))
    return np.asarray(document[page].render(scale=dpi / 72).to_pil().convert("RGB"), dtype=np.int16)


@pytest.mark.slow
def test_draft_sheets_are_grey_and_use_a_fraction_of_the_ink(tmp_path):
    game = ROOT / "cards" / "spelled"
    normal = build(game, BuildOptions(out=tmp_path / "normal", cache=False))
    draft = build(game, BuildOptions(out=tmp_path / "draft", draft=True, cache=False))
    draft_pdf = next(p for p in draft.files if p.name.endswith("-draft.pdf"))
    normal_pdf = next(p for p in normal.files if p.suffix == ".pdf")
    for page in (0, 1):  # fronts and the deck backs (a dark fill in colour)
        ink = _pixels(draft_pdf, page)
        draft_ink = (255 - ink.mean(axis=-1)).mean()
        normal_ink = (255 - _pixels(normal_pdf, page).mean(axis=-1)).mean()
        assert draft_ink < 0.6 * normal_ink, (page, draft_ink, normal_ink)  # fronts are pale already; backs drop most
    assert_black_ink_only(draft_pdf)


def assert_black_ink_only(pdf) -> None:
    """Every colour the draft sets is K only (c = m = y = 0): no printer mixes colour inks for its greys."""
    from tests.shop.test_preflight import walk

    with pikepdf.open(pdf) as document:
        ops, _ = walk(document)
    colours = [(name, values) for name, values in ops if name in ("k", "K", "rg", "RG", "g", "G")]
    assert colours
    for name, values in colours:
        if name in ("k", "K"):
            assert values[:3] == [0, 0, 0], (name, values)
        elif name in ("rg", "RG"):
            assert values == [0, 0, 0], (name, values)  # renderPDF opens each icon with black, then sets its colour


@pytest.mark.slow
def test_a_cmyk_draft_is_pdf_x1a_with_black_ink_only(tmp_path):
    from tests.shop.test_preflight import preflight

    result = build(ROOT / "cards" / "spelled", BuildOptions(out=tmp_path, draft=True, color="cmyk", cache=False))
    pdf = next(p for p in result.files if p.name.endswith("-draft-cmyk.pdf"))
    preflight(pdf, 100)
    assert_black_ink_only(pdf)
