"""Balance figures from a run: seat win rates with confidence intervals, length, stalls, cards."""

from __future__ import annotations

import math
import statistics
from collections import defaultdict

from generator.simulate.game_metrics import aggregate
from generator.simulate.runner import RunResult

Z95 = 1.959963984540054
MIN_GROUP = 30  # seat-games on each side before a win-rate difference means anything


def wilson(successes: float, trials: int) -> tuple[float, float]:
    """95% Wilson score interval for a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _win_share(outcome, seat: int) -> float:
    """A win split between tied winners."""
    return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0


def seat_figures(result: RunResult) -> list[dict]:
    players = result.spec.players
    finished = [r for r in result.records if not r.outcome.stalled]
    rows = []
    for seat in range(players):
        wins = sum(_win_share(r.outcome, seat) for r in finished)
        low, high = wilson(wins, len(finished))
        scores = [r.outcome.scores[seat] for r in finished]
        rows.append({
            "seat": seat + 1,
            "win_rate": wins / len(finished) if finished else 0.0,
            "ci95": [low, high],
            "fair_share": 1 / players,
            "mean_score": statistics.fmean(scores) if scores else 0.0,
        })
    return rows


def team_figures(result: RunResult) -> list[dict] | None:
    """Win rates per team for games whose seats win and lose together (Outcome.teams), else None.

    A team mode is judged per team: its fair share is one over the number of teams,
    whatever the number of seats on each.
    """
    finished = [r for r in result.records if not r.outcome.stalled]
    teams = next((r.outcome.teams for r in finished if r.outcome.teams), None)
    if not teams:
        return None
    rows = []
    for index, seats in enumerate(teams):
        wins = sum(1.0 for r in finished if set(r.outcome.winners) & set(seats))
        low, high = wilson(wins, len(finished))
        rows.append({
            "team": index + 1,
            "seats": [s + 1 for s in seats],
            "win_rate": wins / len(finished),
            "ci95": [low, high],
            "fair_share": 1 / len(teams),
        })
    return rows


def length_figures(result: RunResult) -> dict:
    lengths = sorted(r.outcome.turns for r in result.records)
    if not lengths:
        return {}
    histogram: dict[int, int] = defaultdict(int)
    for value in lengths:
        histogram[value] += 1

    def quantile(q: float) -> float:
        return lengths[min(len(lengths) - 1, int(q * len(lengths)))]

    return {
        "mean": statistics.fmean(lengths), "median": quantile(0.5), "p10": quantile(0.1), "p90": quantile(0.9),
        "min": lengths[0], "max": lengths[-1], "histogram": dict(sorted(histogram.items())),
    }


def score_spread(result: RunResult) -> dict:
    margins, spreads = [], []
    for record in result.records:
        if record.outcome.stalled:
            continue
        ordered = sorted(record.outcome.scores, reverse=True)
        if len(ordered) > 1:
            margins.append(ordered[0] - ordered[1])
        spreads.append(ordered[0] - ordered[-1])
    return {
        "mean_margin_first_second": statistics.fmean(margins) if margins else 0.0,
        "mean_spread_first_last": statistics.fmean(spreads) if spreads else 0.0,
    }


def component_figures(result: RunResult) -> list[dict]:
    """Per played thing: how often a seat played it, and its win-rate difference when played.

    The difference compares seats that played the thing with seats that did not,
    over all finished games (as deck-builder simulators report a card's effect);
    it is left out (None) when either side has fewer than MIN_GROUP seat-games.
    """
    players = result.spec.players
    finished = [r for r in result.records if not r.outcome.stalled]
    keys = sorted({key for r in finished for key in r.outcome.played})
    seat_games = len(finished) * players
    rows = []
    for key in keys:
        played_wins = played = 0.0
        unplayed_wins = unplayed = 0.0
        for record in finished:
            seats = record.outcome.played.get(key, ())
            for seat in range(players):
                share = _win_share(record.outcome, seat)
                if seat in seats:
                    played += 1
                    played_wins += share
                else:
                    unplayed += 1
                    unplayed_wins += share
        rate_played = played_wins / played if played else 0.0
        rate_unplayed = unplayed_wins / unplayed if unplayed else 0.0
        rows.append({
            "key": key,
            "play_rate": played / seat_games if seat_games else 0.0,
            "win_rate_played": rate_played,
            "win_rate_not_played": rate_unplayed,
            # None when one side is too small to compare (a letter nearly every seat plays)
            "win_rate_difference": rate_played - rate_unplayed if min(played, unplayed) >= MIN_GROUP else None,
        })
    return rows


def game_figures(result: RunResult) -> dict[str, float]:
    totals: dict[str, float] = defaultdict(float)
    for record in result.records:
        for name, value in record.outcome.figures.items():
            totals[name] += value
    count = len(result.records) or 1
    return {name: value / count for name, value in sorted(totals.items())}


def luck_figure(result: RunResult, better: int = 0) -> dict:
    """How often lineup member `better` (the more skilled player) won, wherever it sat."""
    finished = [r for r in result.records if not r.outcome.stalled]
    wins = 0.0
    for record in finished:
        seat = (better + record.lineup_offset) % result.spec.players
        wins += _win_share(record.outcome, seat)
    low, high = wilson(wins, len(finished))
    return {"better_player_win_rate": wins / len(finished) if finished else 0.0, "ci95": [low, high],
            "fair_share": 1 / result.spec.players, "games": len(finished)}


def agent_figures(result: RunResult) -> list[dict] | None:
    """Win rate of each kind of player in the lineup, wherever it sat (None when every seat plays alike).

    Lineup member m sits in seat (m + offset) % players; members with the same label are pooled,
    and a member's fair share is one seat's: 1 / players.
    """
    lineup = result.spec.lineup
    labels = [seat.label for seat in lineup]
    if len(set(labels)) < 2:
        return None
    finished = [r for r in result.records if not r.outcome.stalled]
    players = result.spec.players
    rows = []
    for label in dict.fromkeys(labels):
        members = [m for m, name in enumerate(labels) if name == label]
        wins = sum(_win_share(r.outcome, (m + r.lineup_offset) % players) for r in finished for m in members)
        trials = len(finished) * len(members)
        low, high = wilson(wins, trials)
        rows.append({"agent": label, "seats": len(members), "win_rate": wins / trials if trials else 0.0,
                     "ci95": [low, high], "fair_share": 1 / players, "seat_games": trials})
    return rows


def summary(result: RunResult, luck: RunResult | None = None, lineup_note: str = "") -> dict:
    seats = seat_figures(result)
    teams = team_figures(result)
    judged = teams if teams else seats  # a team mode is balanced when its teams are
    worst = max((abs(row["win_rate"] - row["fair_share"]) for row in judged), default=0.0)
    stalls = sum(1 for r in result.records if r.outcome.stalled)
    report = {
        "games": len(result.records),
        "players": result.spec.players,
        "seed": result.spec.seed,
        "seats": seats,
        "teams": teams,
        "agents": agent_figures(result),
        "judged_by": "teams" if teams else "seats",
        "max_seat_deviation_points": round(100 * worst, 2),
        "length": length_figures(result),
        "stalls": stalls,
        "score_spread": score_spread(result),
        "components": component_figures(result),
        "figures": game_figures(result),
        "game_metrics": aggregate([r.outcome.metrics for r in result.records]),
    }
    if luck is not None:
        report["luck"] = {**luck_figure(luck), "lineup": lineup_note}
    return report


def effect_size(row: dict) -> float:
    """Sort key: largest win-rate difference first, rows with too few samples last."""
    difference = row["win_rate_difference"]
    return 1.0 if difference is None else -abs(difference)


def difference_text(row: dict) -> str:
    difference = row["win_rate_difference"]
    return "too few to compare" if difference is None else f"{100 * difference:+.1f} pts"
