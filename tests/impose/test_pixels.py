"""Rasterized pages: backs behind fronts after the flip, marks clear of every face."""

import numpy as np
import pypdfium2 as pdfium
import pytest

from spellpress.units import MM_PER_INCH
from tests.conftest import DUPLEX

DPI = 300
PX_PER_MM = DPI / MM_PER_INCH
MARKER_FROM_TOP_LEFT = (7.0, 7.0)  # the fixture's front marker centre, mm from the trim's top-left


def render(pdf, index: int) -> np.ndarray:
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[index].render(scale=DPI / 72).to_numpy()[:, :, :3].astype(int)
    finally:
        document.close()
    return image


def dark_centroid(image: np.ndarray, centre_mm: tuple[float, float], paper_h: float, radius_mm: float = 4.0):
    """Centroid (mm, PDF coordinates) of the black pixels within radius_mm of centre_mm."""
    cx, cy = centre_mm[0] * PX_PER_MM, (paper_h - centre_mm[1]) * PX_PER_MM
    r = radius_mm * PX_PER_MM
    y0, y1 = int(cy - r), int(cy + r)
    x0, x1 = int(cx - r), int(cx + r)
    window = image[y0:y1, x0:x1]
    ys, xs = np.nonzero(window.sum(axis=2) < 150)
    assert len(xs) > 100, f"no marker near {centre_mm}"
    return (x0 + xs.mean() + 0.5) / PX_PER_MM, paper_h - (y0 + ys.mean() + 0.5) / PX_PER_MM


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["duplex-long", "duplex-short"])
@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.8)])
def test_each_back_lands_behind_its_front(build_game, mode, offset):
    pdf, manifest, _ = build_game(DUPLEX, backs=mode, back_offset=offset)
    width, height = manifest["paper_mm"]
    pages = {}
    checked = 0
    for component in manifest["components"]:
        w, h = component["size_mm"]
        for card in component["cards"]:
            for copy in card["copies"]:
                by_side = {p["side"]: p for p in copy["placements"]}
                front, back = by_side["front"], by_side["back"]
                for number in (front["page"], back["page"]):
                    if number not in pages:
                        pages[number] = render(pdf, number - 1)
                marker = (front["x_mm"] + MARKER_FROM_TOP_LEFT[0], front["y_mm"] + h - MARKER_FROM_TOP_LEFT[1])
                seen_front = dark_centroid(pages[front["page"]], marker, height)
                # turning the sheet over: the point behind (x, y) on the back page
                if mode == "duplex-long":
                    behind = (width - seen_front[0], seen_front[1])
                else:
                    behind = (seen_front[0], height - seen_front[1])
                # the back marker should sit behind the front's, moved by the printer correction
                expected = (behind[0] + offset[0], behind[1] + offset[1])
                seen_back = dark_centroid(pages[back["page"]], expected, height)
                assert abs(seen_back[0] - expected[0]) < 0.5 and abs(seen_back[1] - expected[1]) < 0.5
                checked += 1
    assert checked == 16


@pytest.mark.parametrize("mode", ["duplex-long", "fold"])
def test_crop_marks_never_touch_a_face(build_game, mode):
    pdf, manifest, _ = build_game(DUPLEX, backs=mode)
    image = render(pdf, 0)
    red = (image[:, :, 0] > 200) & (image[:, :, 1] < 60) & (image[:, :, 2] < 60)
    blue = (image[:, :, 2] > 200) & (image[:, :, 0] < 60) & (image[:, :, 1] < 60)
    face = red | blue
    dark = image.sum(axis=2) < 600  # anti-aliased hairlines are grey, not black
    # grow the faces by two pixels: no mark pixel may touch them
    grown = face.copy()
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            grown |= np.roll(np.roll(face, dy, axis=0), dx, axis=1)
    # markers inside a face are dark too; they are surrounded by face colour, so take only dark
    # pixels outside every face's bounding area
    rows, cols = np.nonzero(face)
    inside = np.zeros_like(face)
    inside[rows.min():rows.max() + 1, cols.min():cols.max() + 1] = True
    marks = dark & ~inside
    assert marks.sum() > 300, "expected crop marks on the page"
    assert not (marks & grown).any()
