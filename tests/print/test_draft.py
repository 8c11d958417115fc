"""--draft: a low-ink proof, rasterized and measured."""

import numpy as np
import pypdfium2 as pdfium

from spellpress.build import BuildOptions, build
from tests.conftest import ROOT


def _pixels(pdf, page=0, dpi=40):
    document = pdfium.PdfDocument(str(pdf))
    return np.asarray(document[page].render(scale=dpi / 72).to_pil().convert("RGB"), dtype=np.int16)


def test_draft_sheets_are_grey_and_use_a_fraction_of_the_ink(tmp_path):
    game = ROOT / "cards" / "spelled"
    normal = build(game, BuildOptions(out=tmp_path / "normal", cache=False))
    draft = build(game, BuildOptions(out=tmp_path / "draft", draft=True, cache=False))
    draft_pdf = next(p for p in draft.files if p.name.endswith("-draft.pdf"))
    normal_pdf = next(p for p in normal.files if p.suffix == ".pdf")
    for page in (0, 1):  # fronts and the deck backs (a dark fill in colour)
        ink = _pixels(draft_pdf, page)
        assert np.abs(ink[..., 0] - ink[..., 1]).max() <= 2 and np.abs(ink[..., 1] - ink[..., 2]).max() <= 2
        draft_ink = (255 - ink.mean(axis=-1)).mean()
        normal_ink = (255 - _pixels(normal_pdf, page).mean(axis=-1)).mean()
        assert draft_ink < 0.6 * normal_ink, (page, draft_ink, normal_ink)  # fronts are pale already; backs drop most
