"""Vocabulary dependence: the share of the winners' word points from words above a SCOWL level."""

from __future__ import annotations

import json
import math

import pytest

from spellpress.cli import main
from spellpress.rules.protocol import Outcome
from spellpress.simulate.tally import Tally
from spellpress.stats import Z95
from spellpress.words.lexicon import shipped_levels
from tests.conftest import ROOT, WISE


def word_of_level(level: int) -> str:
    return next(word for word, known in shipped_levels().items() if known == level)


COMMON, RARE, OFF_LIST = word_of_level(10), word_of_level(60), "qzxqzx"


def stub_tally() -> Tally:
    """Three finished games whose answer is known; a stalled game and an engine without records add nothing."""
    tally = Tally(2)
    tally.add(Outcome([10, 100], [1], 5, words=[(1, COMMON, 60), (1, RARE, 40), (0, RARE, 10)]), 0)
    tally.add(Outcome([20, 5], [0], 5, words=[(0, RARE, 6), (0, OFF_LIST, 2), (0, COMMON, -3), (1, COMMON, 5)]), 0)
    tally.add(Outcome([8, 8], [0, 1], 5, words=[(0, COMMON, 4), (1, COMMON, 4)]), 0)
    tally.add(Outcome([50, 0], [], 5, stalled=True, words=[(0, RARE, 50)]), 0)
    tally.add(Outcome([9, 3], [0], 5), 0)
    return tally


def delta_interval(xs: list[float], ys: list[float]) -> tuple[float, float, float]:
    """The ratio estimator and its delta-method 95% interval, from the games' own values."""
    n, share = len(xs), sum(xs) / sum(ys)
    spread = sum((x - share * y) ** 2 for x, y in zip(xs, ys, strict=True)) / (n - 1)
    error = math.sqrt(spread / n) / (sum(ys) / n)
    return share, max(0.0, share - Z95 * error), min(1.0, share + Z95 * error)


@pytest.mark.parametrize(("level", "xs"), [(35, [40, 8, 0]), (50, [40, 8, 0]), (60, [0, 2, 0]), (10, [40, 8, 0])])
def test_a_stub_tally_gives_the_known_share_and_interval(level, xs):
    ys = [100, 8, 8]  # the winners' positive word points of the three finished games
    figure = stub_tally().word_points.dependence(level)
    share, low, high = delta_interval(xs, ys)
    assert figure["games"] == 3
    assert figure["share"] == pytest.approx(share)
    assert figure["ci95"] == pytest.approx([low, high])
    assert figure["winner_word_points"] == pytest.approx(116 / 3)


def simulate_json(capsys, game, *extra, games: int = 40) -> dict:
    assert main(["simulate", str(game), "--games", str(games), "--players", "2", "--seed", "7", "--workers", "1",
                 "--luck-games", "0", "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow
def test_a_word_to_the_wise_figure_lies_in_0_1_with_its_interval(capsys):
    figure = simulate_json(capsys, WISE)["vocabulary_dependence"]
    low, high = figure["ci95"]
    assert 0.0 < low <= figure["share"] <= high < 1.0
    assert figure["games"] == 40 and figure["level"] == 35
    # players who know only the casual words score nothing from words above it
    casual = simulate_json(capsys, WISE, "--vocabulary", "casual", "--level", "casual")["vocabulary_dependence"]
    assert casual["share"] == 0.0 and casual["games"] == 40
    # above a higher level, fewer of the same games' points
    expert = simulate_json(capsys, WISE, "--level", "expert")["vocabulary_dependence"]
    assert expert["share"] < figure["share"]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "note"), [("word-rummy", "not recorded"), ("un-mot-au-sage", "not English")])
def test_engines_without_records_and_other_languages_say_so(capsys, game, note):
    figure = simulate_json(capsys, ROOT / "cards" / game, games=5)["vocabulary_dependence"]
    assert figure["share"] is None and figure["note"].startswith(note)


def test_a_level_above_which_no_word_lies_is_refused(capsys):
    assert main(["simulate", str(WISE), "--games", "1", "--level", "all"]) == 2
    assert capsys.readouterr().err.count("\n") == 2  # the error and "nothing written": no traceback
