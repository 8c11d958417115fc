"""The same games, move for move: seeded games of every shipped game, replayed against golden records
made before issue 39's speed-ups (tests/simulate/golden.py). A faster engine or player must choose
every action as before and end with the same scores."""

from __future__ import annotations

import json

import pytest

from tests.simulate.golden import CASES, GAMES, GOLDEN, play_case

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
@pytest.mark.parametrize("game", GAMES)
def test_replays_the_golden_record(game, case):
    golden = [record for record in json.loads((GOLDEN / f"{game}.json").read_text()) if record["case"] == case.name]
    assert len(golden) == case.games
    for want, got in zip(golden, play_case(game, case), strict=False):
        assert got["seed"] == want["seed"]
        moves = zip(want["actions"], got["actions"], strict=False)
        first = next((i for i, (a, b) in enumerate(moves) if a != b), None)
        assert first is None and len(got["actions"]) == len(want["actions"]), (
            f"seed {want['seed']}: action {first} of {len(want['actions'])} differs: "
            f"{want['actions'][first] if first is not None else '-'} before, "
            f"{got['actions'][first] if first is not None else '-'} now"
            if first is not None else f"seed {want['seed']}: {len(want['actions'])} actions before, {len(got['actions'])} now")
        assert got["scores"] == want["scores"]
