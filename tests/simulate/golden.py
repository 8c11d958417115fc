"""Golden records: every action (chance draws included) and the final scores of a few seeded games
of every shipped game, per kind of player, made from the engines as they were before issue 39's
speed-ups. `test_golden_games.py` replays them and demands the same games, move for move.

    .venv/bin/python -m tests.simulate.golden [GAME ...]   # (re)write tests/fixtures/golden/GAME.json

Rewrite a record only for a change that is meant to change what a game does.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from spellpress.simulate.play import play_game
from spellpress.simulate.runner import Seat, _load, game_seed, make_player

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "fixtures" / "golden"
GAMES = ("evocabulary", "lost-words", "magic-spell", "spelled", "un-mot-au-sage", "word-rummy", "word-to-the-wise")


@dataclass(frozen=True)
class Case:
    name: str
    lineup: tuple[Seat, ...]  # one per seat
    games: int


HEURISTIC = Seat("heuristic", 1.0)
# skills below 1 and the random player draw from the game's generator: the same legal actions in the same order
MIXED = (HEURISTIC, Seat("heuristic", 0.5), Seat("random"), Seat("heuristic", 0.8))
CASES = (
    Case("heuristic-4", (HEURISTIC,) * 4, 3),
    Case("heuristic-2", (HEURISTIC,) * 2, 2),
    Case("mixed-4", MIXED, 2),
    Case("ismcts-2", (Seat("ismcts", budget=4), HEURISTIC), 1),
)


def encoded(action):
    """An action as JSON: tuples as lists, anything else not a JSON scalar by its repr."""
    if isinstance(action, (tuple, list)):
        return [encoded(part) for part in action]
    if action is None or isinstance(action, (str, bool, int, float)):
        return action
    return repr(action)


class _Recording:
    """The rules, but every action applied to a game's own state (not its clones) is written down."""

    def __init__(self, rules, actions: list):
        self.rules, self.actions = rules, actions

    def __getattr__(self, name):
        return getattr(self.rules, name)

    def new_state(self, *args, **kwargs):
        state, actions = self.rules.new_state(*args, **kwargs), self.actions
        base = type(state)

        class Recorded(base):  # type: ignore[misc, valid-type]
            def apply(self, action):
                if self is state:
                    actions.append(encoded(action))
                return base.apply(self, action)

        state.__class__ = Recorded
        return state


def play_case(game_name: str, case: Case) -> list[dict]:
    """The case's games in order, with the same players throughout (as a run's batch has them)."""
    game, rules = _load(str(ROOT / "cards" / game_name), None)
    seats = [make_player(seat, rules) for seat in case.lineup]
    records = []
    for index in range(case.games):
        seed = game_seed(39, index)
        actions: list = []
        outcome = play_game(_Recording(rules, actions), game, seats, seed)
        records.append({"case": case.name, "seed": seed, "scores": outcome.scores, "actions": actions})
    return records


def write(game_name: str) -> Path:
    records = [record for case in CASES for record in play_case(game_name, case)]
    path = GOLDEN / f"{game_name}.json"
    lines = ",\n".join(json.dumps(record, separators=(",", ":")) for record in records)
    path.write_text(f"[\n{lines}\n]\n")
    return path


if __name__ == "__main__":
    for name in sys.argv[1:] or GAMES:
        print(write(name), flush=True)
