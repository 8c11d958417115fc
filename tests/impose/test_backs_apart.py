"""No card marked through its back: on every sheet of every shipped game, paper and back mode, back
cells side by side share their back, or their trims are at least twice the duplex tolerance apart with
each back's bleed printed into the gap. Fold sheets turn landscape where that holds more cards, and
crop marks stay out of a laser's unprintable edge."""

from __future__ import annotations

import pytest

from spellpress.build import BuildOptions, plan
from spellpress.impose.backs import by_back, pack
from spellpress.impose.grid import best_grid
from spellpress.impose.sheets import SheetSettings, sheet_grid
from spellpress.load.game import load_game
from spellpress.model.sizes import CARD_SIZES, PAPER_SIZES
from spellpress.paths import list_game_folders
from tests.conftest import ROOT

GAMES = list_game_folders(ROOT / "cards")
MODES = ["duplex-long", "duplex-short", "fold"]
PAPERS = ["a4", "letter"]


def gap_between(a, b) -> float | None:
    """How far apart two trims are where they face each other along a shared stretch; None if they do not face."""
    overlap_x = min(a.x + a.w, b.x + b.w) - max(a.x, b.x)
    overlap_y = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
    if overlap_y > 1e-6:
        return max(b.x - (a.x + a.w), a.x - (b.x + b.w))
    if overlap_x > 1e-6:
        return max(b.y - (a.y + a.h), a.y - (b.y + b.h))
    return None


def bleed_towards(a, b) -> float:
    """How far a's inked area reaches past its trim on the side that faces b."""
    cx, cy, cw, ch = a.clip
    if b.x >= a.x + a.w - 1e-6:
        return cx + cw - (a.x + a.w)
    if b.x + b.w <= a.x + 1e-6:
        return a.x - cx
    if b.y >= a.y + a.h - 1e-6:
        return cy + ch - (a.y + a.h)
    return a.y - cy


def marked_cards(pages, tolerance: float) -> list[tuple]:
    """Cards whose back faces a different back closer than twice the tolerance, or without its bleed in the gap."""
    marked = []
    for number, page in enumerate(pages, start=1):
        backs = [p for p in page.placed if p.side == "back"]
        for i, a in enumerate(backs):
            for b in backs[i + 1:]:
                gap = gap_between(a.slot, b.slot)
                if gap is None or gap >= min(a.slot.w, a.slot.h) or a.face == b.face:
                    continue  # not neighbours (another card between), or the same back
                apart = gap >= 2 * tolerance - 1e-6
                bled = min(bleed_towards(a.slot, b.slot), bleed_towards(b.slot, a.slot)) >= tolerance - 1e-6
                if not (apart and bled):
                    marked.append((number, a.item.card, b.item.card, round(gap, 2)))
    return marked


@pytest.mark.slow
@pytest.mark.parametrize("folder", GAMES, ids=[f.name for f in GAMES])
def test_no_back_touches_a_different_back(folder):
    game = load_game(folder)
    tolerance = game.spec.print.duplex_tolerance
    assert tolerance == 2.0  # the default: every shipped game keeps it
    for paper in PAPERS:
        for mode in MODES:
            _, pages, _ = plan(game, BuildOptions(paper=paper, backs=mode))
            assert marked_cards(pages, tolerance) == [], (paper, mode)
            # every card is placed once, on fronts and on backs
            fronts = [p.item for page in pages for p in page.placed if p.side == "front"]
            assert len(fronts) == len({id(item) for item in fronts})


def test_a_sheet_that_mixes_backs_holds_them_apart():
    """Lost Words on A4: the Nature deck's last cards share a sheet with Spell backs, columns or cells apart."""
    game = load_game(ROOT / "cards" / "lost-words")
    _, pages, settings = plan(game, BuildOptions(paper="a4", backs="duplex-long"))
    mixed = [page for page in pages if page.kind == "backs" and len({p.face for p in page.placed}) > 1]
    assert mixed
    for page in mixed:
        gaps = [gap_between(a.slot, b.slot) for a in page.placed for b in page.placed
                if a is not b and a.face != b.face and gap_between(a.slot, b.slot) is not None]
        assert min(g for g in gaps) >= 2 * settings.duplex_tolerance - 1e-6
        # the gaps stand only at the boundaries where backs differ: elsewhere neighbours share a cut line
        shared = [gap_between(a.slot, b.slot) for a in page.placed for b in page.placed
                  if a is not b and a.face == b.face and gap_between(a.slot, b.slot) is not None]
        assert any(abs(g) < 1e-6 for g in shared)


def test_without_a_tolerance_cards_share_cut_lines_as_before():
    game = load_game(ROOT / "cards" / "magic-spell")
    spec = game.spec.model_copy(update={"print": game.spec.print.model_copy(update={"duplex_tolerance": 0.0})})
    import dataclasses

    _, pages, _ = plan(dataclasses.replace(game, spec=spec), BuildOptions(paper="a4"))
    assert marked_cards(pages, 0.0) == []
    for page in pages:
        xs = sorted({round(p.slot.x, 3) for p in page.placed})
        width = page.placed[0].slot.w if page.placed else 0
        assert all(round(b - a, 3) == width for a, b in zip(xs, xs[1:], strict=False))  # no gutter anywhere


def test_packing_fills_a_sheet_with_three_backs_when_cells_can_stand_apart():
    from spellpress.impose.grid import Grid

    items = [object() for _ in range(9)]
    groups = [items[:2], items[2:7], items[7:]]
    a4 = PAPER_SIZES["a4"]

    def grid_for(split):
        gap = 4.0
        return best_grid(a4, CARD_SIZES["poker"], bleed=3, margin=4,
                         apart=(gap if split[0] else 0.0, gap if split[1] else 0.0))

    sheets = pack(groups, grid_for)  # type: ignore[arg-type]
    assert len(sheets) == 1 and len(sheets[0].filled) == 9
    assert isinstance(sheets[0].grid, Grid) and sheets[0].grid.capacity == 9
    assert by_back([]) == []


@pytest.mark.parametrize("paper", PAPERS)
def test_fold_sheets_turn_landscape_for_four_poker_cards(paper):
    settings = SheetSettings(paper=PAPER_SIZES[paper], bleed=3, margin=4, cut="shared", gutter=0,
                             backs="fold", back_offset=(0, 0))
    grid = sheet_grid(CARD_SIZES["poker"], settings, fold=True)
    assert grid.capacity == 4 and grid.paper == PAPER_SIZES[paper][::-1]
    # a card size that fits better upright stays portrait
    tall = sheet_grid((40, 120), settings, fold=True)
    assert tall.paper == PAPER_SIZES[paper]


@pytest.mark.parametrize("folder", [ROOT / "cards" / "evocabulary", ROOT / "cards" / "lost-words"], ids=["evo", "lost"])
def test_fold_builds_take_three_quarters_of_the_sheets(folder):
    game = load_game(folder)
    _, pages, _ = plan(game, BuildOptions(paper="a4", backs="fold"))
    expected = {"evocabulary": 66, "lost-words": 21}[folder.name]  # 88 and 28 sheets when fold was portrait only
    assert len(pages) == expected
    assert all(page.paper == (297.0, 210.0) for page in pages)


@pytest.mark.parametrize("paper", sorted(PAPER_SIZES))
@pytest.mark.parametrize("mode", MODES)
def test_crop_marks_stay_out_of_a_laser_printers_margin(paper, mode):
    """4.5 mm: lasers leave about 4.2 mm unprinted at the paper's edge; a mark there would be clipped."""
    edge = 4.5
    game = load_game(ROOT / "cards" / "magic-spell")
    _, pages, _ = plan(game, BuildOptions(paper=paper, backs=mode))
    assert any(page.marks for page in pages)
    for page in pages:
        width, height = page.paper
        for mark in page.marks:
            for x, y in ((mark.x1, mark.y1), (mark.x2, mark.y2)):
                assert edge - 1e-6 <= x <= width - edge + 1e-6
                assert edge - 1e-6 <= y <= height - edge + 1e-6


def test_a_grid_holds_gaps_only_at_the_boundaries_asked():
    grid = best_grid(PAPER_SIZES["a4"], CARD_SIZES["poker"], bleed=3, margin=4, apart=((0.0, 4.0), (4.0, 0.0)))
    assert (grid.cols, grid.rows) == (3, 3)
    xs = sorted({round(s.x, 6) for s in grid.slots})
    ys = sorted({round(s.y, 6) for s in grid.slots})  # from the bottom
    assert [round(b - a - 63, 6) for a, b in zip(xs, xs[1:], strict=False)] == [0, 4]
    assert [round(b - a - 88, 6) for a, b in zip(ys, ys[1:], strict=False)] == [4, 0]
    middle = next(s for s in grid.slots if s.row == 1 and s.col == 1)
    cx, cy, cw, ch = middle.clip
    assert (round(middle.x - cx, 6), round(cx + cw - middle.x - middle.w, 6)) == (0, 2)  # half the gap each side
    assert (round(middle.y - cy, 6), round(cy + ch - middle.y - middle.h, 6)) == (2, 0)
