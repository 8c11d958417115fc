"""Game metrics beyond win rates, after Ludii's (Browne; Piette et al.): how a game unfolds.

`Tracker` follows one game (play.play_game feeds it): the score of every seat
(`returns()`) after each turn, and at sampled games the number of legal actions at
every decision (`State.count_legal_actions`, which an engine may count without listing
them). `per_game` turns that into one game's figures; `aggregate` averages them over a
run. Every figure is defined in docs/simulate.md.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING

from spellpress.rules.protocol import Outcome, State

if TYPE_CHECKING:
    from spellpress.simulate.tally import Tally

MOVE_SAMPLE = 10  # count legal actions at every decision of one game in this many (it can be costly)


class Tracker:
    """One game's trace, for one state: its methods are looked up once (this runs at every turn)."""

    def __init__(self, state: State, measure_moves: bool):
        self.measure_moves = measure_moves
        self.scores: list[list[float]] = []  # returns() at the end of each turn
        self.decisions = 0  # player decisions (sampled games)
        self.forced = 0  # decisions with a single legal action
        self.choices = 0  # legal actions summed over decisions
        self._returns = state.returns
        # a state of no State subclass: its list's length
        self._count = getattr(state, "count_legal_actions", None) or (lambda: len(state.legal_actions()))

    def turn_started(self) -> None:
        """Before the first action of each turn (the state's turn count has moved on)."""
        self.scores.append(list(self._returns()))

    def decision(self) -> None:
        """Before a seat acts, in a game that measures its moves."""
        n = self._count()
        self.decisions += 1
        self.choices += n
        self.forced += n == 1

    def finish(self, state: State, outcome: Outcome) -> dict[str, float]:
        self.scores.append(list(state.returns()))
        figures = per_game(self.scores, outcome)
        if self.measure_moves:
            figures.update({"decisions": self.decisions, "forced": self.forced, "choices": self.choices,
                            "measured_turns": max(1, outcome.turns)})
        return figures


def _groups(players: int, teams: list[list[int]] | None) -> list[list[int]]:
    return teams if teams else [[s] for s in range(players)]


def _leader(sides: Sequence[float]) -> int | None:
    """The side alone in the lead, or None when the lead is shared."""
    top = max(sides)
    return sides.index(top) if sides.count(top) == 1 else None


def per_game(trace: list[list[float]], outcome: Outcome) -> dict[str, float]:
    """One game's lead changes, decisiveness and drama (see docs/simulate.md)."""
    players = len(outcome.scores)
    groups = _groups(players, outcome.teams)
    winning = [i for i, g in enumerate(groups) if set(g) & set(outcome.winners)]
    figures: dict[str, float] = {"draw": float(len(winning) > 1 and not outcome.stalled),  # team mates are one side
                                 "timeout": float(outcome.stalled)}
    # each side's score after each turn: a seat's own, or the best of its team
    alone = all(g == [i] for i, g in enumerate(groups))
    sides = trace if alone else [[max(scores[s] for s in g) for g in groups] for scores in trace]
    changes, last = 0, None
    for lead in map(_leader, sides):
        if lead is not None:
            if last is not None and lead != last:
                changes += 1
            last = lead
    figures["lead_changes"] = changes
    figures["lead_change_rate"] = changes / max(1, len(trace) - 1)
    if outcome.stalled or len(winning) != 1:
        return figures
    (winner,) = winning
    # decisiveness: the share of the game played before the winner took the lead for good
    decided = len(trace)
    for index in range(len(trace) - 1, -1, -1):
        if sides[index][winner] < max(sides[index]):
            break
        decided = index
    figures["decided_at"] = decided / max(1, len(trace) - 1)
    # drama: how far behind the leader the eventual winner was, on the turns it trailed
    deficits = []
    for side in sides:
        best, mine = max(side), side[winner]
        if mine < best:
            deficits.append(best - mine)
    figures["winner_trailed"] = len(deficits) / len(trace)
    figures["drama"] = statistics.fmean(deficits) if deficits else 0.0
    figures["winner_max_deficit"] = max(deficits, default=0.0)
    return figures


def aggregate(tally: Tally) -> dict[str, float | None]:
    """Means over a run's games (decisiveness and drama over games with one winning side)."""
    if not tally.games:
        return {}
    mean = tally.metric_mean
    out: dict[str, float | None] = {
        "games": tally.games,
        "lead_changes": mean("lead_changes"),
        "lead_change_rate": mean("lead_change_rate"),
        "decided_at": mean("decided_at"),
        "winner_trailed": mean("winner_trailed"),
        "drama": mean("drama"),
        "winner_max_deficit": mean("winner_max_deficit"),
        "draws": mean("draw"),
        "timeouts": mean("timeout"),
    }
    decisions, forced = tally.metric_sum("decisions"), tally.metric_sum("forced")
    out["move_sample_games"] = tally.metric_sums["decisions"][1] if "decisions" in tally.metric_sums else 0
    out["branching_factor"] = tally.metric_sum("choices") / decisions if decisions else None
    out["forced_share"] = forced / decisions if decisions else None
    turns = tally.metric_sum("measured_turns")
    out["decisions_per_turn"] = (decisions - forced) / turns if turns else None
    out["moves_per_turn"] = decisions / turns if turns else None
    return out


# name, label, how it is printed (docs/simulate.md defines each)
ROWS = [
    ("lead_changes", "lead changes a game", "{:.2f}"),
    ("lead_change_rate", "lead changes a turn", "{:.3f}"),
    ("decided_at", "decided at (share of the game)", "{:.0%}"),
    ("winner_trailed", "turns the winner trailed", "{:.0%}"),
    ("drama", "drama: winner's mean deficit when trailing", "{:.2f}"),
    ("winner_max_deficit", "winner's largest deficit", "{:.2f}"),
    ("branching_factor", "branching factor (legal actions a decision)", "{:.1f}"),
    ("decisions_per_turn", "decisions a turn (2+ choices)", "{:.2f}"),
    ("moves_per_turn", "moves a turn", "{:.2f}"),
    ("forced_share", "forced moves", "{:.1%}"),
    ("draws", "draws (shared wins)", "{:.1%}"),
    ("timeouts", "timeouts (stalls)", "{:.1%}"),
]


def rows(figures: dict) -> list[tuple[str, str]]:
    out = []
    for key, label, fmt in ROWS:
        value = figures.get(key)
        out.append((label, "n/a" if value is None else fmt.format(value)))
    return out
