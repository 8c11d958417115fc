"""Three-way verdicts (spellpress.stats) and the batches `simulate` and `report` play until decided."""

from __future__ import annotations

import json

import pytest

from spellpress.cli import main
from spellpress.simulate.command import FIRST_BATCH, batch_plan
from spellpress.stats import BALANCED, NOISE, NOT_BALANCED, STRONG, UNDECIDED, WEAK, difference_interval, effect, verdict, wilson
from tests.conftest import FIXTURES

TOY = str(FIXTURES / "toy-game")


def test_a_seat_whose_interval_holds_its_fair_share_is_not_called_unbalanced():
    # the tutorial's case: 200 three-player games, one seat 6.3 points under its fair share,
    # its interval (21.3-33.5%) still holding 33.3%: the point estimate alone said "NOT balanced"
    wins = [79.3, 66.7, 54.0]  # 39.7%, 33.4%, 27.0%
    low, high = wilson(54.0, 200)
    assert low < 1 / 3 < high and abs(54.0 / 200 - 1 / 3) > 0.03
    assert verdict(wins, 200) == UNDECIDED


@pytest.mark.parametrize("wins, games, expected", [
    ([5000, 5000], 10_000, BALANCED),          # 50.0% (49.0-51.0): inside 47-53
    ([500, 500], 1_000, UNDECIDED),            # 50.0% (46.9-53.1): reaches past the band's edges
    ([600, 400], 1_000, NOT_BALANCED),         # 60.0% (57.0-62.9): wholly above 53
    ([5150, 4850], 10_000, BALANCED),          # 51.5% (50.5-52.5)
    ([5250, 4750], 10_000, UNDECIDED),         # 52.5% (51.5-53.5): crosses 53
    ([5450, 4550], 10_000, NOT_BALANCED),      # 54.5% (53.5-55.5): wholly above 53
    ([2500, 2500, 2500, 2500], 10_000, BALANCED),
    ([3400, 2200, 2200, 2200], 10_000, NOT_BALANCED),
])
def test_verdict_judges_every_interval_against_the_band(wins, games, expected):
    assert verdict(wins, games, band_points=3.0) == expected


def test_verdict_takes_per_seat_games_and_its_band():
    assert verdict([50, 500], [100, 1000], band_points=20.0) == BALANCED
    assert verdict([52, 48], 100, band_points=1.0) == UNDECIDED
    with pytest.raises(ValueError):
        verdict([], 10)


def test_a_difference_carries_its_interval_and_only_one_clear_of_zero_is_strong_or_weak():
    low, high = difference_interval(30, 50, 200, 500)  # 60% against 40%
    assert low < 0.2 < high and low > 0
    assert effect((low, high)) == STRONG
    assert effect(difference_interval(20, 50, 300, 500)) == WEAK
    noisy = difference_interval(12, 20, 35, 80)  # +16 points on 20 seat-games: the interval holds zero
    assert noisy[0] < 0 < noisy[1] and effect(noisy) == NOISE


def test_batch_plan_doubles_until_the_most_games_and_games_plays_exactly_that():
    assert batch_plan(500, 20_000) == [(0, 500)]
    plan = batch_plan(None, 3000)
    assert plan[0] == (0, FIRST_BATCH) and plan[-1][1] == 3000
    assert all(a[1] == b[0] for a, b in zip(plan, plan[1:], strict=False))  # contiguous: the games of one long run
    assert [stop for _, stop in plan] == [200, 400, 800, 1600, 3000]


def _simulate(capsys, *extra):
    assert main(["simulate", TOY, "--players", "2", "--workers", "1", "--seed", "3", "--json", "--luck-games", "0",
                 *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_games_plays_exactly_that_many_whatever_the_verdict(capsys):
    report = _simulate(capsys, "--games", "150")
    assert report["games"] == 150 and report["verdict"] in (BALANCED, NOT_BALANCED, UNDECIDED)
    assert report["decided"] == (report["verdict"] != UNDECIDED) and "--games" in report["games_rule"]


def test_without_games_it_plays_batches_until_decided_or_the_most(capsys):
    report = _simulate(capsys, "--max-games", "1600")
    games, seats = report["games"], report["seats"]
    assert games in (200, 400, 800, 1600)
    wins = [row["win_rate"] * games for row in seats]
    assert report["verdict"] == verdict(wins, games, z=report["verdict_z"], z_inside=report["verdict_z_inside"])
    assert report["verdict_looks"][-1] == games and report["verdict_z"] > 1.96  # 5% spent over the looks and seats
    assert 1.645 < report["verdict_z_inside"] < report["verdict_z"]  # one-sided, spent over the looks only
    if games < 1600:
        assert report["decided"]  # it stopped early only because the verdict was decided
    same = _simulate(capsys, "--games", str(games))  # the batches play the games of one run of that length
    assert same["seats"] == seats


def test_an_undecided_run_says_so_on_the_terminal(capsys):
    assert main(["simulate", TOY, "--players", "2", "--workers", "1", "--seed", "3", "--luck-games", "0",
                 "--games", "40"]) == 0
    out = capsys.readouterr().out
    assert "Verdict: undecided after 40 games" in out.replace("\n", " ")


def test_effects_in_the_json_carry_intervals(capsys):
    report = _simulate(capsys, "--games", "200")
    compared = [row for row in report["components"] if row["win_rate_difference"] is not None]
    assert compared
    for row in compared:
        low, high = row["difference_ci95"]
        assert low <= row["win_rate_difference"] <= high
        wide_low, wide_high = row["effect_ci"]  # the 5% shared over every compared card: wider than 95%
        assert wide_low < low and high < wide_high
        assert row["effect"] == (STRONG if wide_low > 0 else WEAK if wide_high < 0 else NOISE)


def test_the_pdf_says_the_verdict_and_how_many_games_it_took(tmp_path, capsys):
    from pypdf import PdfReader

    assert main(["report", TOY, "--players", "2", "--workers", "1", "--luck-games", "0", "--max-games", "400",
                 "--out", str(tmp_path)]) == 0
    (report,) = json.loads((tmp_path / "toy-game" / "toy-game-balance.json").read_text())
    text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "toy-game" / "toy-game-balance.pdf").pages)
    text = " ".join(text.split())
    assert f"Verdict: {report['verdict']} after {report['games']:,} games" in text
    assert "95% interval" in text and f"{report['verdict']} after {report['games']:,} games" in capsys.readouterr().out
