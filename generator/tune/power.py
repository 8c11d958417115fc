"""What a tune's budget can decide, said before it starts: from each target's tolerance, the 95% interval a
candidate's figure has after the first rung and after every rung, the intervals the verification draws
(simulate's rule, simulate.api.Decision: a miss at the quantile shared by every interval it reads together,
a hold at the one-sided 5% quantile), and the games a verification needs to call held a figure that lies on
the aim or halfway to the band's edge.

    seats=3 at 4 players: a seat wins 1/4 of the games at most fair; its Wilson interval is about
    +/- z * sqrt(p (1 - p) / n): +/-6.0 points at 200 games at z = 1.96. The verification calls a seat
    held only when its one-sided interval (z = 1.64) lies inside +/-3: +/-2.3 at 1,000 games, +/-1.1
    at 4,000, so at 4,000 games a seat within 1.9 points of fair can be. It calls one missed only when
    its interval read with the 4 seats together (z = 2.50, +/-1.7 at 4,000) lies wholly outside: 4.7
    points or more off.

A card's effect (cards=N) compares the seats that played it with the others: at best (half the seats
played it) its interval is +/- z * sqrt(4 p (1 - p) / (games * players)). Letter shares are judged on
--letter-samples hands, with p the band's middle. The points rank has no sampling error (it is
computed, not sampled); the mean length's interval depends on the game's spread and is not foretold.
"""

from __future__ import annotations

import math
from typing import Any

from spellpress.simulate.api import Decision
from spellpress.tune.targets import Z95, Target


def _spread(target: Target, players: int) -> tuple[float, str] | None:
    """The standard deviation of one observation in the target's units, and what one observation is."""
    if target.name == "seats":
        p = 1 / players
        return 100 * math.sqrt(p * (1 - p)), "games"
    if target.name == "cards":
        p = 1 / players
        return 100 * math.sqrt(4 * p * (1 - p) / players), "games"
    if target.name in ("word_rate", "going_out"):
        p = (target.low + target.high) / 2
        return math.sqrt(p * (1 - p)), "hands"
    return None


def half_width(sd: float, n: int, z: float = Z95) -> float:
    return z * sd / math.sqrt(max(1, n))


def needed(sd: float, room: float, z: float = Z95) -> int:
    """Observations for an interval (at the normal quantile z) narrower than `room` on each side."""
    return math.ceil((z * sd / room) ** 2)


def verification_intervals(targets: tuple[Target, ...], players: int, cards: int) -> int:
    """How many intervals the verification will read together (tune.targets.judged, foretold): a seat's each
    (one for two seats), each of about `cards` cards, the mean length, a letter share; the points rank none."""
    count = {"seats": 1 if players == 2 else players, "cards": cards, "length": 1, "word_rate": 1, "going_out": 1}
    return max(1, sum(count.get(target.name, 0) for target in targets))


def power(targets: tuple[Target, ...], players: int, first: int, games: int, verify: int, samples: int,
          cards: int = 0) -> list[dict]:
    """Per target: the intervals the budget gives and what its verification can decide (`cards`: how many cards
    a cards target will compare, at most)."""
    decision = Decision(verification_intervals(targets, players, cards), (1,))
    z, z_inside = decision.z, decision.z_inside
    rows: list[dict[str, Any]] = []
    for target in targets:
        spread = _spread(target, players)
        if spread is None:
            why = "computed exactly: no sampling error" if target.name == "points_rank" else \
                "its interval depends on the game's spread (not foretold)"
            rows.append({"target": target.text, "decidable": None, "why": why})
            continue
        sd, unit = spread
        tolerance = (target.high - target.low) / 2
        search = (first, games) if unit == "games" else (samples, samples)
        checked = verify if unit == "games" else samples
        h = half_width(sd, checked, z_inside)
        rows.append({"target": target.text, "unit": unit, "sd": sd, "tolerance": tolerance,
                     "half_width": {"first rung": half_width(sd, search[0]), "every rung": half_width(sd, search[1]),
                                    "verification": h, "verification (miss)": half_width(sd, checked, z)},
                     "verification_z": z, "verification_z_inside": z_inside, "held_within": max(0.0, tolerance - h),
                     "missed_beyond": tolerance + half_width(sd, checked, z),
                     "needed_on_aim": needed(sd, tolerance, z_inside),
                     "needed_halfway": needed(sd, tolerance / 2, z_inside),
                     "decidable": h < tolerance, "verification": checked})
    return rows


def _amount(value: float, row: dict) -> str:
    return f"{value:.1f} points" if row["unit"] == "games" else f"{value:.3f}"


def power_lines(rows: list[dict], players: int) -> list[str]:
    """The rows as sentences, one a target."""
    lines = []
    for row in rows:
        if row["decidable"] is None:
            lines.append(f"{row['target']}: {row['why']}")
            continue
        h, unit = row["half_width"], row["unit"]
        where = f" at {players} players" if unit == "games" else ""
        text = (f"{row['target']}{where}: a figure's 95% interval is +/-{_amount(h['first rung'], row)} after the first "
                f"rung, +/-{_amount(h['every rung'], row)} after every rung; on the verification's "
                f"{row['verification']:,} {unit}, +/-{_amount(h['verification'], row)} to call it held (one-sided, z = "
                f"{row['verification_z_inside']:.2f}), +/-{_amount(h['verification (miss)'], row)} to call it missed "
                f"(z = {row['verification_z']:.2f}, every interval it reads together). ")
        if row["decidable"]:
            text += (f"The verification calls a figure held only within +/-{_amount(row['held_within'], row)} of the "
                     f"aim, missed only beyond +/-{_amount(row['missed_beyond'], row)}; ")
        else:
            text += "The verification cannot decide even a figure exactly on the aim (undecided at best); "
        text += (f"deciding one on the aim takes {row['needed_on_aim']:,} {unit}, one halfway to the edge "
                 f"{row['needed_halfway']:,}.")
        lines.append(text)
    return lines
