"""`spellpress play GAME --stats`: what people do at the table, against the bots, from the saved records.

Each record is replayed by the engine; every seat of every game is a person's (`human`, `remote`) or a
bot's. Per side: points a game, points a move, the length of the words played (State.action_word),
the share of games won and of moves that went out, with 95% intervals and the counts they rest on;
and the length of the games people played.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from spellpress.play.records import load
from spellpress.play.table import PEOPLE
from spellpress.stats import wilson


@dataclass
class Side:
    points: list[float] = field(default_factory=list)  # a seat's final score, a game
    per_move: list[float] = field(default_factory=list)  # a seat's final score over its moves, a game
    words: list[int] = field(default_factory=list)  # letters of each word played
    won: int = 0
    moves: int = 0
    went_out: int = 0


def mean_interval(values: list[float]) -> str:
    if not values:
        return "-"
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:.1f} (n={len(values)})"
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:.1f} ({mean - half:.1f} to {mean + half:.1f}, n={len(values)})"


def share(hits: int, n: int) -> str:
    if not n:
        return "-"
    low, high = wilson(hits, n)
    return f"{100 * hits / n:.0f}% ({100 * low:.0f}-{100 * high:.0f}%, {hits} of {n})"


def gather(rules, game, records: list[Path]) -> tuple[dict[str, Side], list[float]]:
    sides = {"people": Side(), "bots": Side()}
    lengths: list[float] = []
    for path in records:
        record = load(path)
        if record.game != game.id:
            continue
        state = rules.new_state(game, len(record.seats), record.options or None)
        moves = [0] * len(record.seats)
        side_of = ["people" if label in PEOPLE else "bots" for label in record.seats]
        for action in record.actions:
            seat = state.current_player()
            if seat >= 0:
                side = sides[side_of[seat]]
                moves[seat] += 1
                side.moves += 1
                side.went_out += state.action_to_string(action).endswith("go out")
                word = state.action_word(action)
                side.words += [len(w) for w in (word or "").split()]
            state.apply(action)
        scores = state.returns()
        best = max(scores)
        for seat, score in enumerate(scores):
            side = sides[side_of[seat]]
            side.points.append(score)
            side.per_move.append(score / max(1, moves[seat]))
            side.won += score == best
        if "people" in side_of:
            lengths.append(float(state.turns))
    return sides, lengths


def stats_report(rules, game, records: list[Path]) -> str:
    if not records:
        return f"no recorded games of {game.id} yet (play some with `spellpress play {game.id}`)"
    sides, lengths = gather(rules, game, records)
    rows = [("points a game", lambda s: mean_interval(s.points)),
            ("points a move", lambda s: mean_interval(s.per_move)),
            ("letters a word", lambda s: mean_interval([float(n) for n in s.words])),
            ("games won", lambda s: share(s.won, len(s.points))),
            ("moves that went out", lambda s: share(s.went_out, s.moves))]
    lines = [f"{game.name}: {len(records)} recorded game(s); 95% intervals",
             f"{'':22} {'people':36} bots"]
    lines += [f"{name:22} {cell(sides['people']):36} {cell(sides['bots'])}" for name, cell in rows]
    lines.append(f"{'game length':22} {mean_interval(lengths)} {rules.length_unit}, games with a person")
    return "\n".join(lines)
