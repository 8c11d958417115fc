"""Running totals of a simulation: every balance figure is computed from these, not from kept games.

A run of any length keeps a fixed amount of memory: one `Tally` per run, folded one
game at a time in game-index order (so the figures are the same on any pool or
cluster), with a histogram for game lengths and a pair of counters per played card.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from spellpress.rules.protocol import Outcome
from spellpress.simulate.vocabulary_dependence import WordPoints


def win_share(outcome: Outcome, seat: int) -> float:
    """A win split between tied winners."""
    return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0


@dataclass
class Tally:
    players: int
    games: int = 0
    finished: int = 0  # games that ended by the rules (not stalled)
    seat_wins: list[float] = field(default_factory=list)
    seat_scores: list[float] = field(default_factory=list)
    member_wins: list[float] = field(default_factory=list)  # by lineup member, wherever it sat
    teams: list[list[int]] | None = None  # the first finished game's teams
    team_wins: list[float] = field(default_factory=list)
    lengths: Counter = field(default_factory=Counter)  # turns -> games
    margins: list[float] = field(default_factory=lambda: [0.0, 0])  # sum, count: first minus second
    spreads: list[float] = field(default_factory=lambda: [0.0, 0])  # sum, count: first minus last
    played: dict[str, list[float]] = field(default_factory=dict)  # key -> seats, wins
    shares: float = 0.0  # win shares handed out over finished games
    figure_sums: dict[str, float] = field(default_factory=dict)
    metric_sums: dict[str, list[float]] = field(default_factory=dict)
    word_points: WordPoints = field(default_factory=WordPoints)  # the winners' words, for vocabulary dependence

    def __post_init__(self) -> None:
        self.seat_wins = self.seat_wins or [0.0] * self.players
        self.seat_scores = self.seat_scores or [0.0] * self.players
        self.member_wins = self.member_wins or [0.0] * self.players

    def add(self, outcome: Outcome, lineup_offset: int) -> None:
        self.games += 1
        self.lengths[outcome.turns] += 1
        for name, value in outcome.figures.items():
            self.figure_sums[name] = self.figure_sums.get(name, 0.0) + value
        for name, value in outcome.metrics.items():
            total = self.metric_sums.setdefault(name, [0.0, 0])
            total[0] += value
            total[1] += 1
        if outcome.stalled:
            return
        self.finished += 1
        shares = [win_share(outcome, seat) for seat in range(self.players)]
        for seat, share in enumerate(shares):
            self.seat_wins[seat] += share
            self.seat_scores[seat] += outcome.scores[seat]
        for member in range(self.players):
            self.member_wins[member] += shares[(member + lineup_offset) % self.players]
        self.shares += sum(shares)
        self.word_points.add(outcome)
        if self.teams is None and outcome.teams:
            self.teams = [list(seats) for seats in outcome.teams]
            self.team_wins = [0.0] * len(self.teams)
        if self.teams:
            for index, seats in enumerate(self.teams):
                self.team_wins[index] += bool(set(outcome.winners) & set(seats))
        ordered = sorted(outcome.scores, reverse=True)
        if len(ordered) > 1:
            self.margins[0] += ordered[0] - ordered[1]
            self.margins[1] += 1
        self.spreads[0] += ordered[0] - ordered[-1]
        self.spreads[1] += 1
        for key, played_by in outcome.played.items():
            counts = self.played.setdefault(key, [0, 0.0])
            for seat in set(played_by):
                counts[0] += 1
                counts[1] += shares[seat]

    def length_quantile(self, q: float) -> int:
        """The length at position int(q * games) of the sorted lengths."""
        position = min(self.games - 1, int(q * self.games))
        seen = 0
        for turns in sorted(self.lengths):
            seen += self.lengths[turns]
            if seen > position:
                return turns
        raise ValueError("no games")

    def metric_mean(self, name: str) -> float | None:
        total, count = self.metric_sums.get(name, (0.0, 0))
        return total / count if count else None

    def metric_sum(self, name: str) -> float:
        return self.metric_sums.get(name, (0.0, 0))[0]
