"""A Word to the Wise's race model (generator/rules/word_to_the_wise/content.py): race_table, worked out
with prefix sums and bisection, gives to the last bit what summing every faster opponent one by one gives."""

from __future__ import annotations

import pytest

from spellpress.load.game import load_game
from spellpress.rules.word_to_the_wise import content as W
from tests.conftest import WISE


def summed_one_by_one(defs: W.Definitions, players: int) -> tuple[dict[int, float], dict[int, float]]:
    """The race table as the model says it: for each of a target's times, every opponent's chance of being
    quicker added up (half of it when as quick)."""
    p, q = defs.p, defs.quantiles
    shares = W.OPPONENT_TARGETS.get(players) or W.OPPONENT_TARGETS[max(W.OPPONENT_TARGETS)]
    total = sum(shares.values())
    opponents = sorted((p.seconds(n) * x, share / total, n >= p.first_word_min_length)
                       for n, share in shares.items() for x in q)
    last, first = {}, {}
    for letters in range(p.min_length, 16):
        pl = pf = 0.0
        for x in q:
            t = p.seconds(letters) * x
            before = before3 = 0.0
            for time, weight, counts in opponents:
                if time > t:
                    break
                w = weight * (1.0 / len(q)) * (0.5 if time == t else 1.0)
                before += w
                if counts:
                    before3 += w
            pl += before ** (players - 1)
            pf += (1.0 - before3) ** (players - 1)
        last[letters], first[letters] = pl / len(q), pf / len(q)
    return last, first


@pytest.mark.parametrize("options", [{}, {"steps": 1}, {"steps": 7}, {"spread": 0.0}],
                         ids=["shipped", "one-step", "seven-steps", "no-spread-all-tied"])
def test_the_race_table_is_the_one_by_one_sum_to_the_last_bit(options):
    defs = W.definitions(load_game(WISE, templates=False), options)
    for players in range(2, 10):
        assert defs.race_table(players) == summed_one_by_one(defs, players), players
