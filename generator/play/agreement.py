"""How often would `simulate`'s players have made the recorded human moves?

Each record is replayed; at every human move the player is asked what it would play there (with
the generator the table's advisor used: the seed and the step), and two moves agree when they say
the same (`action_to_string`: two ways to build one word count as one move). The share comes with
a 95% Wilson interval and the number of moves it rests on.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from spellpress.play.records import NotARecord, Record, load, replay_problem
from spellpress.play.table import PEOPLE, advisor_rng
from spellpress.rules.protocol import RandomPlayer
from spellpress.stats import wilson


def readable(rules, game, paths: list[Path], warn=None) -> list[Record]:
    """This game's records among `paths`; each file that is not one, or that no longer replays on the game as
    it is now (a card's count since set to 0), is named to `warn` (stderr) and skipped."""
    warn = warn or (lambda line: print(line, file=sys.stderr))
    records = []
    for path in paths:
        try:
            record = load(path)
        except OSError as exc:
            warn(f"skipped {path}: cannot read it ({exc.strerror or exc})")
            continue
        except NotARecord as exc:
            warn(f"skipped {path}: not a Spellpress game record ({exc})")
            continue
        if record.game != game.id:
            continue
        problem = replay_problem(rules, game, record)
        if problem:
            warn(f"skipped {path}: it no longer replays on {game.id} as the game is now ({problem})")
            continue
        records.append(record)
    return records


def agreement(rules, game, records: Sequence[Record | Path], player) -> tuple[int, int]:
    """(moves the player would have made the same, human moves) over the records (or record files) of this game."""
    same = total = 0
    for item in records:
        record = load(item) if isinstance(item, Path) else item
        state = rules.new_state(game, len(record.seats), record.options or None)
        humans = {seat for seat, label in enumerate(record.seats) if label in PEOPLE}
        for step, action in enumerate(record.actions):
            seat = state.current_player()
            if seat in humans:
                suggested = player.act(state, seat, advisor_rng(record.seed, step))
                same += state.action_to_string(suggested) == state.action_to_string(action)
                total += 1
            state.apply(action)
    return same, total


def agreement_report(rules, game, paths: list[Path]) -> str:
    records = readable(rules, game, paths)
    if not records:
        return f"no recorded games of {game.id} yet (play some with `spellpress play {game.id}`)"
    lines = [f"{game.name}: {len(records)} recorded game(s)"]
    for name, player in (("heuristic", rules.heuristic_player(1.0)), ("random", RandomPlayer())):
        same, total = agreement(rules, game, records, player)
        low, high = wilson(same, total)
        share = f"{100 * same / total:.0f}%" if total else "-"
        lines.append(f"the {name} player would have chosen the same move {share} of the time "
                     f"({same} of {total} human moves; 95% interval {100 * low:.0f}-{100 * high:.0f}%)")
    return "\n".join(lines)
