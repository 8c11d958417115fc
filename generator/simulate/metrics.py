"""Balance figures from a run: seat win rates with confidence intervals, length, stalls, cards."""

from __future__ import annotations

from spellpress.simulate.game_metrics import aggregate
from spellpress.simulate.runner import RunResult
from spellpress.stats import difference_interval, effect, family_z, wilson

MIN_GROUP = 30  # seat-games on each side before a win-rate difference means anything


def seat_figures(result: RunResult) -> list[dict]:
    tally = result.tally
    rows = []
    for seat in range(tally.players):
        wins = tally.seat_wins[seat]
        low, high = wilson(wins, tally.finished)
        rows.append({
            "seat": seat + 1,
            "win_rate": wins / tally.finished if tally.finished else 0.0,
            "ci95": [low, high],
            "fair_share": 1 / tally.players,
            "mean_score": tally.seat_scores[seat] / tally.finished if tally.finished else 0.0,
        })
    return rows


def team_figures(result: RunResult) -> list[dict] | None:
    """Win rates per team for games whose seats win and lose together (Outcome.teams), else None.

    A team mode is judged per team: its fair share is one over the number of teams,
    whatever the number of seats on each.
    """
    tally = result.tally
    if not tally.teams:
        return None
    rows = []
    for index, seats in enumerate(tally.teams):
        wins = tally.team_wins[index]
        low, high = wilson(wins, tally.finished)
        rows.append({
            "team": index + 1,
            "seats": [s + 1 for s in seats],
            "win_rate": wins / tally.finished,
            "ci95": [low, high],
            "fair_share": 1 / len(tally.teams),
        })
    return rows


def length_figures(result: RunResult) -> dict:
    tally = result.tally
    if not tally.games:
        return {}
    total = sum(turns * games for turns, games in tally.lengths.items())
    return {
        "mean": total / tally.games, "median": tally.length_quantile(0.5), "p10": tally.length_quantile(0.1),
        "p90": tally.length_quantile(0.9), "min": min(tally.lengths), "max": max(tally.lengths),
        "histogram": dict(sorted(tally.lengths.items())),
    }


def score_spread(result: RunResult) -> dict:
    (margin, margins), (spread, spreads) = result.tally.margins, result.tally.spreads
    return {
        "mean_margin_first_second": margin / margins if margins else 0.0,
        "mean_spread_first_last": spread / spreads if spreads else 0.0,
    }


def component_figures(result: RunResult) -> list[dict]:
    """Per played thing: how often a seat played it, and its win-rate difference when played.

    The difference compares seats that played the thing with seats that did not,
    over all finished games (as deck-builder simulators report a card's effect);
    it is left out (None) when either side has fewer than MIN_GROUP seat-games. Each
    difference carries its 95% interval, and is called strong or weak only when its interval
    for all the compared things together excludes zero (`effect_ci`: the 5% shared over them,
    so that with many cards at most one run in twenty calls any card strong or weak by chance).
    """
    tally = result.tally
    seat_games = tally.finished * tally.players
    rows = []
    compared = sum(min(tally.played[key][0], seat_games - tally.played[key][0]) >= MIN_GROUP for key in tally.played)
    z = family_z(compared)
    for key in sorted(tally.played):
        played, played_wins = tally.played[key]
        unplayed, unplayed_wins = seat_games - played, tally.shares - played_wins
        rate_played = played_wins / played if played else 0.0
        rate_unplayed = unplayed_wins / unplayed if unplayed else 0.0
        comparable = min(played, unplayed) >= MIN_GROUP
        interval = difference_interval(played_wins, played, unplayed_wins, unplayed) if comparable else None
        family = difference_interval(played_wins, played, unplayed_wins, unplayed, z) if comparable else None
        rows.append({
            "key": key,
            "play_rate": played / seat_games if seat_games else 0.0,
            "win_rate_played": rate_played,
            "win_rate_not_played": rate_unplayed,
            # None when one side is too small to compare (a letter nearly every seat plays)
            "win_rate_difference": rate_played - rate_unplayed if comparable else None,
            "difference_ci95": list(interval) if interval else None,
            "effect_ci": list(family) if family else None,
            "effect": effect(family) if family else None,
        })
    return rows


def game_figures(result: RunResult) -> dict[str, float]:
    count = result.tally.games or 1
    return {name: value / count for name, value in sorted(result.tally.figure_sums.items())}


def luck_figure(result: RunResult, better: int = 0) -> dict:
    """How often lineup member `better` (the more skilled player) won, wherever it sat."""
    tally = result.tally
    wins = tally.member_wins[better]
    low, high = wilson(wins, tally.finished)
    return {"better_player_win_rate": wins / tally.finished if tally.finished else 0.0, "ci95": [low, high],
            "fair_share": 1 / tally.players, "games": tally.finished}


def agent_figures(result: RunResult) -> list[dict] | None:
    """Win rate of each kind of player in the lineup, wherever it sat (None when every seat plays alike).

    Lineup member m sits in seat (m + offset) % players; members with the same label are pooled,
    and a member's fair share is one seat's: 1 / players.
    """
    lineup = result.spec.lineup
    labels = [seat.label for seat in lineup]
    if len(set(labels)) < 2:
        return None
    tally = result.tally
    rows = []
    for label in dict.fromkeys(labels):
        members = [m for m, name in enumerate(labels) if name == label]
        wins = sum(tally.member_wins[m] for m in members)
        trials = tally.finished * len(members)
        low, high = wilson(wins, trials)
        rows.append({"agent": label, "seats": len(members), "win_rate": wins / trials if trials else 0.0,
                     "ci95": [low, high], "fair_share": 1 / tally.players, "seat_games": trials})
    return rows


def summary(result: RunResult, luck: RunResult | None = None, lineup_note: str = "") -> dict:
    seats = seat_figures(result)
    teams = team_figures(result)
    judged = teams if teams else seats  # a team mode is balanced when its teams are
    worst = max((abs(row["win_rate"] - row["fair_share"]) for row in judged), default=0.0)
    stalls = result.tally.games - result.tally.finished
    report = {
        "games": result.tally.games,
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
        "game_metrics": aggregate(result.tally),
    }
    if luck is not None:
        report["luck"] = {**luck_figure(luck), "lineup": lineup_note}
    return report


def effect_size(row: dict) -> float:
    """Sort key: largest win-rate difference first, rows with too few samples last."""
    difference = row["win_rate_difference"]
    return 1.0 if difference is None else -abs(difference)


def difference_text(row: dict) -> str:
    """'+27.4 pts (-3.0 to +57.8), noise': the difference, its 95% interval and what it supports."""
    difference = row["win_rate_difference"]
    if difference is None:
        return "too few to compare"
    low, high = row["difference_ci95"]
    return f"{100 * difference:+.1f} pts ({100 * low:+.1f} to {100 * high:+.1f}), {row['effect']}"
