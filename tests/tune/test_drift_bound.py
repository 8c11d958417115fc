"""bench/drift_bound.py: the bound that settles Magic Spell's 6-change benchmark, on cases worked by hand."""

from __future__ import annotations

import pytest

from tests.conftest import bench_module

BOUND = bench_module("drift_bound")


def test_the_law_is_fitted_through_the_origin():
    own = [18.9, 6.3, -9.4, 4.8, -2.5]
    law = BOUND.fit_drift(own, [-0.0257 * m for m in own])
    assert law["k"] == pytest.approx(-0.0257)
    assert law["r2"] == pytest.approx(1.0) and law["changes"] == 5
    assert law["ci95"][0] == pytest.approx(-0.0257) and law["ci95"][1] == pytest.approx(-0.0257)
    noisy = BOUND.fit_drift(own, [-0.0257 * m + e for m, e in zip(own, [0.05, -0.04, 0.03, -0.05, 0.02], strict=True)])
    assert noisy["ci95"][0] < noisy["k"] < noisy["ci95"][1] and noisy["r2"] < 1


def test_without_drift_the_margin_is_what_the_worst_card_leaves():
    margin, edit = BOUND.edit_margin({"a": -8.0, "b": 0.0, "c": 3.0}, {"a": [2.0, 6.0]}, 0.0, 1, 5.0)
    assert margin == pytest.approx(2.0, abs=0.02)  # a moved by 6 to -2; c stays at 3
    assert edit["moves"] == {"a": 6.0} and edit["forced"] == 0


def test_a_card_no_measured_option_brings_inside_leaves_no_edit():
    margin, edit = BOUND.edit_margin({"a": -8.0, "b": 0.0}, {"a": [2.0]}, 0.0, 6, 5.0)
    assert edit is None or margin < 0  # a ends at -6 whatever else changes (no drift)
    assert margin == pytest.approx(-1.0, abs=0.02)


def test_the_drift_of_a_needed_change_can_push_an_unchanged_card_out():
    # a must move by 8; k = -0.1 takes 0.8 from b, which ends at -5.3 with no change left for it
    margin, edit = BOUND.edit_margin({"a": -8.0, "b": -4.5}, {"a": [8.0]}, -0.1, 1, 5.0)
    assert margin == pytest.approx(-0.3, abs=0.02)
    assert edit["moves"] == {"a": 8.0} and edit["forced"] == 0


def test_a_spare_change_may_move_any_other_card_by_any_amount():
    # b changed freely by m: a ends at -0.1 m, b at -4.5 + m - 0.8; the best m = 5.3 / 1.1 leaves 0.48 at worst
    margin, edit = BOUND.edit_margin({"a": -8.0, "b": -4.5}, {"a": [8.0]}, -0.1, 2, 5.0)
    assert margin == pytest.approx(5 - 0.1 * 5.3 / 1.1, abs=0.02)
    assert edit["forced"] == 1 and edit["total_move"] == pytest.approx(8 + 5.3 / 1.1, abs=0.1)


def test_changes_count_against_the_limit():
    effects = {"a": -8.0, "b": 7.0, "c": 6.0, "d": 0.0}
    assert BOUND.fitting_edit(effects, {"a": [8.0]}, 0.0, 2, 5.0) is None  # a, b and c all need a change
    assert BOUND.fitting_edit(effects, {"a": [8.0]}, 0.0, 3, 5.0)["forced"] == 2


@pytest.mark.parametrize("sign", [1, -1])
def test_a_spare_change_to_a_card_inside_can_undo_the_drift(sign):
    # a moved by 8 towards 0 drifts b by 0.8 past the edge; changing c (inside) against a's move brings D back
    effects = {"a": -8.0 * sign, "b": -4.5 * sign, "c": 4.5 * sign}
    assert BOUND.fitting_edit(effects, {"a": [8.0 * sign]}, -0.1, 1, 5.0) is None
    margin, edit = BOUND.edit_margin(effects, {"a": [8.0 * sign]}, -0.1, 2, 5.0)
    assert margin > 0
    # b left as it is: only c's change against a's brings the total move down far enough
    margin, edit = BOUND.edit_margin({**effects, "b": -4.6 * sign}, {"a": [8.0 * sign], "b": []}, -0.1, 2, 5.0)
    assert margin > 0 and "b" not in edit["moves"] and abs(edit["total_move"]) < 8


def test_an_edit_moves_its_cards_by_their_own_moves_and_drags_the_rest():
    after = BOUND.drifted({"a": -8.0, "b": -4.5, "c": 2.0}, {"a": 8.0, "c": -2.0}, -0.1)
    assert after == pytest.approx({"a": -8.0 + 8.0 - 0.1 * -2.0, "b": -4.5 - 0.1 * 6.0, "c": 2.0 - 2.0 - 0.1 * 8.0})
