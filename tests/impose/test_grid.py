"""Pure imposition geometry, with hypothesis over papers, cards and settings."""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from spellpress.geometry import Box, Margins
from spellpress.impose.grid import (
    MARK_EDGE,
    MIN_MARK,
    MIN_OUTER_BLEED,
    FitError,
    MarkStyle,
    best_grid,
    crop_marks,
    cut_lines,
    fit_grid,
    fold_back,
    fold_marks,
    mirror,
)
from spellpress.model.sizes import CARD_SIZES, PAPER_SIZES


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nine_poker_cards_fit_with_shared_cut_lines(paper):
    grid = fit_grid(PAPER_SIZES[paper], CARD_SIZES["poker"], bleed=3, margin=4, cut="shared")
    assert (grid.cols, grid.rows) == (3, 3)


def test_gutters_drop_to_fewer_cards_on_a4():
    grid = fit_grid(PAPER_SIZES["a4"], CARD_SIZES["poker"], bleed=3, margin=4, cut="gutter", gutter=2)
    assert grid.cols == 2 and grid.rows == 3


def test_a_card_larger_than_the_paper_is_an_error():
    with pytest.raises(FitError):
        fit_grid(PAPER_SIZES["a4"], (300, 300), bleed=3, margin=4)


papers = st.sampled_from(sorted(PAPER_SIZES))
cards = st.tuples(st.floats(15, 150), st.floats(15, 150))
bleeds = st.floats(0, 6)
cuts = st.sampled_from(["shared", "gutter"])


def grid_or_skip(paper, card, **settings):
    try:
        return fit_grid(PAPER_SIZES[paper], card, **settings)
    except FitError:
        assume(False)


def overlaps(a, b):
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw - 1e-6 and bx < ax + aw - 1e-6 and ay < by + bh - 1e-6 and by < ay + ah - 1e-6


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(papers, cards, bleeds, cuts, st.floats(0, 10), st.floats(2, 12))
def test_grid_invariants(paper, card, bleed, cut, gutter, margin):
    size = PAPER_SIZES[paper]
    grid = grid_or_skip(paper, card, bleed=bleed, margin=margin, cut=cut, gutter=gutter)
    width, height = size
    for slot in grid.slots:
        cx, cy, cw, ch = slot.clip
        # ink stays inside the margins
        assert cx >= margin - 1e-6 and cy >= margin - 1e-6
        assert cx + cw <= width - margin + 1e-6 and cy + ch <= height - margin + 1e-6
        # the clip contains the trim
        assert cx <= slot.x + 1e-9 and cx + cw >= slot.x + slot.w - 1e-9
    # no two inked areas overlap
    clips = [s.clip for s in grid.slots]
    for i, a in enumerate(clips):
        for b in clips[i + 1:]:
            assert not overlaps(a, b)
    # and one more column or row would not have fitted
    def extent(n: int, length: float) -> float:
        if cut == "shared":
            return n * length + 2 * bleed
        return n * (length + 2 * bleed + gutter) - gutter
    assert extent(grid.cols + 1, card[0]) > width - 2 * margin - 1e-6
    assert extent(grid.rows + 1, card[1]) > height - 2 * margin - 1e-6


@settings(max_examples=100, deadline=None)
@given(papers, cards, bleeds, cuts, st.sampled_from(["duplex-long", "duplex-short"]),
       st.tuples(st.floats(-3, 3), st.floats(-3, 3)))
def test_backs_land_behind_fronts_after_the_flip(paper, card, bleed, cut, mode, offset):
    size = PAPER_SIZES[paper]
    grid = grid_or_skip(paper, card, bleed=bleed, margin=4, cut=cut)
    width, height = size
    for slot in grid.slots:
        back = mirror(slot, size, mode, offset)
        # physically flipping the back page maps its point (x, y) to the front at (W - x, y) or (x, H - y)
        if mode == "duplex-long":
            flipped_x, flipped_y = width - (back.x - offset[0]) - back.w, back.y - offset[1]
        else:
            flipped_x, flipped_y = back.x - offset[0], height - (back.y - offset[1]) - back.h
        assert flipped_x == pytest.approx(slot.x) and flipped_y == pytest.approx(slot.y)


def best_or_skip(paper, card, **settings):
    try:
        return best_grid(PAPER_SIZES[paper], card, **settings)
    except FitError:
        assume(False)


lengths = st.floats(2, 12)
offsets = st.floats(0, 4)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(papers, cards, bleeds, cuts, lengths, offsets)
def test_crop_marks_are_printable_off_every_face_and_at_least_2mm(paper, card, bleed, cut, length, offset):
    size = PAPER_SIZES[paper]
    style = MarkStyle(length=length, offset=offset)
    grid = best_or_skip(paper, card, bleed=bleed, margin=4, cut=cut, marks=style)
    width, height = size
    marks = crop_marks(grid.slots, size, style)
    for mark in marks:
        drawn = abs(mark.x2 - mark.x1) + abs(mark.y2 - mark.y1)
        assert min(length, MIN_MARK) - 1e-6 <= drawn <= length + 1e-6
        segment = (min(mark.x1, mark.x2), min(mark.y1, mark.y2), abs(mark.x2 - mark.x1) or 1e-3, abs(mark.y2 - mark.y1) or 1e-3)
        for slot in grid.slots:
            assert not overlaps(segment, slot.clip)
        for x, y in ((mark.x1, mark.y1), (mark.x2, mark.y2)):
            assert MARK_EDGE - 1e-6 <= x <= width - MARK_EDGE + 1e-6
            assert MARK_EDGE - 1e-6 <= y <= height - MARK_EDGE + 1e-6
    # every cut line is marked at least once; the outer bleed is trimmed no further than MIN_OUTER_BLEED
    xs, ys = cut_lines(grid.slots)
    assert {round(m.x1, 4) for m in marks if m.x1 == m.x2} == set(xs)
    assert {round(m.y1, 4) for m in marks if m.y1 == m.y2} == set(ys)
    for slot in grid.slots:
        assert slot.x - slot.clip[0] in (0, pytest.approx(0)) or slot.x - slot.clip[0] >= min(bleed, MIN_OUTER_BLEED) - 1e-6


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nine_poker_cards_a_sheet_with_marks(paper):
    """Print-and-play's 9-up on both papers: marks as short as the sheet needs (at least 2 mm, 4.5 mm
    from the edge), Letter's outer bleed trimmed at the top and bottom (279.4 mm for 264 mm of cards:
    7 mm for the bottom marks, the 4 mm margin at the top, 2.2 mm of bleed on each)."""
    grid = best_grid(PAPER_SIZES[paper], CARD_SIZES["poker"], bleed=3, margin=4)
    assert (grid.cols, grid.rows) == (3, 3)
    marks = crop_marks(grid.slots, PAPER_SIZES[paper])
    assert marks and min(abs(m.x2 - m.x1) + abs(m.y2 - m.y1) for m in marks) >= MIN_MARK - 1e-6
    top_bleed = max(s.clip[1] + s.clip[3] for s in grid.slots) - max(s.y + s.h for s in grid.slots)
    assert top_bleed == pytest.approx(3 if paper == "a4" else 2.2)


# Letter holds six bridge cards: three rows (267 mm) leave 12.4 mm; marks 4.5 mm from the edge, the margin
# and 1 mm of bleed at each end need 13
@pytest.mark.parametrize("paper, card, most", [("a4", "bridge", 9), ("letter", "bridge", 6), ("a4", "mini", 16),
                                                ("letter", "mini", 12), ("a4", "tarot", 4), ("letter", "tarot", 4)])
def test_the_most_cards_that_fit(paper, card, most):
    width, height = PAPER_SIZES[paper]
    cw, ch = CARD_SIZES[card]
    grid = best_grid((width, height), (cw, ch), bleed=3, margin=4)
    assert grid.capacity == most
    # one more column or row would not leave a shortest mark's room on one side and the margin on the
    # other, even with the outer bleed trimmed to MIN_OUTER_BLEED
    least = MarkStyle().room + 4 + 2 * MIN_OUTER_BLEED
    assert (grid.cols + 1) * cw + least > width and (grid.rows + 1) * ch + least > height


def test_without_marks_letter_holds_nine_poker_cards():
    grid = best_grid(PAPER_SIZES["letter"], CARD_SIZES["poker"], bleed=0, margin=4, marks=None)
    assert grid.capacity == 9


def test_every_cut_line_has_a_mark_on_a4_poker():
    grid = best_grid(PAPER_SIZES["a4"], CARD_SIZES["poker"], bleed=3, margin=4)
    marks = crop_marks(grid.slots, PAPER_SIZES["a4"])
    vertical = {round(m.x1, 3) for m in marks if m.x1 == m.x2}
    horizontal = {round(m.y1, 3) for m in marks if m.y1 == m.y2}
    assert len(vertical) == 4 and len(horizontal) == 4


def test_fold_backs_are_mirrored_across_the_fold_and_turned():
    size = PAPER_SIZES["a4"]
    grid = fit_grid(size, CARD_SIZES["poker"], bleed=3, margin=4, area=Box(0, size[1] / 2, size[0], size[1] / 2))
    for slot in grid.slots:
        back = fold_back(slot, size[1] / 2)
        assert back.rotation == 180
        assert back.y + back.h <= size[1] / 2 and slot.y >= size[1] / 2
        assert (slot.y + back.y + back.h) / 2 == pytest.approx(size[1] / 2)


def fold_sheet_slots(paper: str, card: str, margin: float = 4.0):
    """A fold-over sheet's fronts and their backs, as impose/sheets.py lays them out."""
    size = PAPER_SIZES[paper]
    grid = best_grid(size, CARD_SIZES[card], bleed=3, margin=margin, area=Box(0, size[1] / 2, size[0], size[1] / 2),
                     fold=True)
    return size, grid.slots + tuple(fold_back(slot, size[1] / 2) for slot in grid.slots)


@pytest.mark.parametrize("paper, card, margin", [("a4", "poker", 4), ("letter", "tile", 4), ("letter", "tile", 3),
                                                  ("a4", "mini", 4), ("letter", "square", 4)])
def test_the_fold_line_is_marked_off_the_faces_and_inside_the_printable_area(paper, card, margin):
    """Magic Spell's tiles on Letter reach 4 mm from the right edge (no marks there): the fold is
    not marked on that side, rather than by a 1 mm stub drawn backwards 3.5 mm from the edge."""
    size, slots = fold_sheet_slots(paper, card, margin)
    ink_left = min(s.clip[0] for s in slots)
    ink_right = max(s.clip[0] + s.clip[2] for s in slots)
    marks = fold_marks(slots, size, size[1] / 2)
    for mark in marks:
        low, high = sorted((mark.x1, mark.x2))
        assert mark.y1 == mark.y2 == size[1] / 2
        assert low >= MARK_EDGE - 1e-9 and high <= size[0] - MARK_EDGE + 1e-9
        assert high <= ink_left or low >= ink_right
        assert high - low >= MIN_MARK - 1e-9


@pytest.mark.parametrize("side", Margins._fields)
def test_each_margin_keeps_its_own_edge_free(side):
    """Margins are named: 40 mm asked on one side keeps the ink that far from that edge only."""
    paper = PAPER_SIZES["a4"]
    room = Margins.even(5.0)._replace(**{side: 40.0})
    grid = fit_grid(paper, CARD_SIZES["poker"], bleed=3, margin=5, room=room)
    ink = [(s.x - 3, s.y - 3, s.x + s.w + 3, s.y + s.h + 3) for s in grid.slots]
    free = Margins(left=min(i[0] for i in ink), right=paper[0] - max(i[2] for i in ink),
                   bottom=min(i[1] for i in ink), top=paper[1] - max(i[3] for i in ink))
    assert getattr(free, side) >= 40.0 - 1e-6
    assert all(value >= 5.0 - 1e-6 for value in free)
    assert min(free) < 40.0  # the other sides are not pushed as far: the grid is centred between the margins
