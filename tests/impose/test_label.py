"""The sheet label goes where the cards and marks leave room, or is left out."""

from __future__ import annotations

import pytest

from spellpress.impose.grid import MARK_EDGE, Slot, best_grid, crop_marks
from spellpress.impose.label import ASCENT, LABEL_HEIGHT, label_spot
from spellpress.model.sizes import CARD_SIZES, PAPER_SIZES


def label_box(spot):
    """The rectangle (x0, y0, x1, y1) the label's line may cover."""
    half = spot.length / 2
    if spot.angle == 0:
        return (spot.x - half, spot.y - (LABEL_HEIGHT - ASCENT), spot.x + half, spot.y + ASCENT)
    return (spot.x - ASCENT, spot.y - half, spot.x + LABEL_HEIGHT - ASCENT, spot.y + half)


def crosses(box, mark) -> bool:
    x0, y0, x1, y1 = box
    return (min(mark.x1, mark.x2) < x1 and max(mark.x1, mark.x2) > x0
            and min(mark.y1, mark.y2) < y1 and max(mark.y1, mark.y2) > y0)


@pytest.mark.parametrize("paper, angle", [("a4", 0), ("letter", 90)])
def test_the_label_sits_clear_of_cards_and_marks(paper, angle):
    size = PAPER_SIZES[paper]
    grid = best_grid(size, CARD_SIZES["poker"], bleed=3, margin=4)
    marks = crop_marks(grid.slots, size)
    spot = label_spot(size, grid.slots, tuple(marks))
    assert spot is not None and spot.angle == angle  # Letter's 9-up has no band at the top: up the side
    box = label_box(spot)
    assert not any(crosses(box, mark) for mark in marks)
    for slot in grid.slots:
        cx, cy, cw, ch = slot.clip
        assert box[2] <= cx or box[0] >= cx + cw or box[3] <= cy or box[1] >= cy + ch
    assert box[0] >= MARK_EDGE - 1e-6 and box[1] >= MARK_EDGE - 1e-6
    assert box[2] <= size[0] - MARK_EDGE + 1e-6 and box[3] <= size[1] - MARK_EDGE + 1e-6
    assert spot.length >= 40


def test_a_sheet_without_room_has_no_label():
    size = PAPER_SIZES["a4"]
    everywhere = Slot(0, 0, 4, 4, size[0] - 8, size[1] - 8, (3.5, 3.5, size[0] - 7, size[1] - 7))
    assert label_spot(size, (everywhere,)) is None


def test_a_blank_back_is_labelled_with_its_sheets_components(build_game):
    from pypdf import PdfReader

    from tests.conftest import WISE

    pdf, manifest, _ = build_game(WISE, backs="duplex-long")
    reader = PdfReader(pdf)
    blank = [number for number, kind in enumerate(manifest["page_kinds"])
             if kind == "backs" and not any(p["page"] == number + 1 for c in manifest["components"]
                                            for card in c["cards"] for copy in card["copies"] for p in copy["placements"])]
    assert blank, "Word to the Wise has one-sided parts (dice, score sheet): their backs are blank"
    for number in blank:
        text = reader.pages[number].extract_text()
        assert "· · " not in text and "backs (blank)" in text
        fronts = reader.pages[number - 1].extract_text()
        components = text.split(" · ")[1]
        assert components and f"· {components} · sheet" in fronts  # the same components as its fronts
