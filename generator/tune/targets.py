"""What `spellpress tune` aims at (`--target`), how far a candidate is from it, and the verdict.

    seats=3                   every seat (or team) within 3 points of its fair share (the default)
    length=20..30             mean game length, in the engine's unit, inside the band
    cards=5                   every card's win-rate effect (docs/simulate.md `components`) within +/-5 points
    word_rate=0.6..0.8@7      letter playability at a hand of 7 (default: words.hand) inside the band
    going_out=0.55..0.65@8    the share of hands that go out
    points_rank=0.97          rank correlation of printed and suggested points at least this

Each target scores a candidate by `distance`: 0 on the aim, 1 on the edge of the band, more
outside. The search minimises the worst distance plus a quarter of the mean one. A verified
candidate's targets are judged by simulate's rule (spellpress.simulate.api.Decision): a target is
`missed` when some interval lies wholly outside the band, every interval the verdict reads, over all
its targets, drawn at the quantile that shares the 5% error among them; `held` when every interval,
drawn one-sided at 5% (a seat truly outside is called inside only when its own interval misses), lies
inside the band; else `undecided`. A decided verdict is then wrong at most 5% of the time.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from spellpress.errors import Option, UserError

TARGET = Option("--target")
SIMULATED = ("seats", "length", "cards")
LETTERS = ("word_rate", "going_out", "points_rank")
BAND = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)\s*(?:@\s*(\d+))?\s*$")
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Target:
    name: str  # one of SIMULATED or LETTERS
    low: float  # the band; for seats and cards: -limit..limit in points; for points_rank: limit..1
    high: float
    hand: int | None = None  # letter targets: the hand size (None: the game's words.hand)

    @property
    def simulated(self) -> bool:
        return self.name in SIMULATED

    @property
    def text(self) -> str:
        if self.name in ("seats", "cards"):
            return f"{self.name} within {self.high:g} points"
        if self.name == "points_rank":
            return f"points rank correlation >= {self.low:g}"
        hand = f" at {self.hand} cards" if self.hand else ""
        return f"{self.name.replace('_', ' ')}{hand} in {self.low:g}..{self.high:g}"

    def distance(self, value: float) -> float:
        """0 at the band's middle (points_rank: at 1), 1 at its edge."""
        if self.name == "points_rank":
            return (1 - value) / max(1e-9, 1 - self.low)
        half = (self.high - self.low) / 2 or 1e-9
        return abs(value - (self.low + self.high) / 2) / half


def parse_targets(items: list[str]) -> tuple[Target, ...]:
    """--target items (none: seats=3) -> targets, each checked (exit 2 naming the target)."""
    targets: list[Target] = []
    for item in items or ["seats=3"]:
        name, sep, value = item.partition("=")
        name = name.strip()
        if name not in SIMULATED + LETTERS or not sep:
            raise UserError.at(TARGET, f"{item!r}: expected one of {', '.join(f'{n}=...' for n in SIMULATED + LETTERS)}")
        if name in (t.name for t in targets):
            raise UserError.at(TARGET, f"{name} is given twice")
        if name in ("seats", "cards", "points_rank"):
            try:
                limit = float(value)
            except ValueError:
                raise UserError.at(TARGET, f"{name}: expected a number, got {value!r}") from None
            if name == "points_rank":
                if not -1 < limit < 1:
                    raise UserError.at(TARGET, f"points_rank: a rank correlation between -1 and 1, got {limit:g}")
                targets.append(Target(name, limit, 1.0))
            elif limit <= 0:
                raise UserError.at(TARGET, f"{name}: a limit in points above 0, got {limit:g}")
            else:
                targets.append(Target(name, -limit, limit))
            continue
        match = BAND.match(value)
        if not match or (match.group(3) and name == "length"):
            form = "LOW..HIGH" if name == "length" else "LOW..HIGH or LOW..HIGH@HAND (shares: 0.55..0.65)"
            raise UserError.at(TARGET, f"{name}: expected {form}, got {value!r}")
        low, high = float(match.group(1)), float(match.group(2))
        if low >= high:
            raise UserError.at(TARGET, f"{name}: the band {value} is empty or runs backwards")
        if name != "length" and not 0 <= low < high <= 1:
            raise UserError.at(TARGET, f"{name}: a share between 0 and 1, got {value}")
        targets.append(Target(name, low, high, int(match.group(3)) if match.group(3) else None))
    return tuple(targets)


# --- the figures a target reads -------------------------------------------------------------------------------

def _wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    from spellpress.stats import wilson

    return wilson(successes, trials, z)


def simulated_figures(tally) -> dict:
    """Seat (or team) win rates, mean length and card effects, each with a 95% interval and the counts it
    is drawn from (`wins`, `counts`, `sd`: a verdict draws it again at its own quantile), from a Tally."""
    finished = tally.finished
    if tally.teams:
        sides = [(wins, 1 / len(tally.teams)) for wins in tally.team_wins]
    else:
        sides = [(wins, 1 / tally.players) for wins in tally.seat_wins]
    seats = [{"win_rate": wins / finished if finished else 0.0, "ci95": list(_wilson(wins, finished)), "fair_share": fair,
              "wins": wins} for wins, fair in sides]
    lengths = [(turns, games) for turns, games in tally.lengths.items()]
    mean = sum(t * g for t, g in lengths) / tally.games if tally.games else 0.0
    variance = sum(g * (t - mean) ** 2 for t, g in lengths) / max(1, tally.games - 1)
    half = Z95 * math.sqrt(variance / max(1, tally.games))
    cards = {}
    seat_games = finished * tally.players
    for key in sorted(tally.played):
        played, played_wins = tally.played[key]
        unplayed, unplayed_wins = seat_games - played, tally.shares - played_wins
        if min(played, unplayed) < 30:  # too few to compare (metrics.MIN_GROUP)
            continue
        from spellpress.stats import difference_interval

        difference = played_wins / played - unplayed_wins / unplayed
        cards[key] = {"difference": difference, "ci95": list(difference_interval(played_wins, played, unplayed_wins, unplayed)),
                      "counts": [played_wins, played, unplayed_wins, unplayed]}
    per_game = {name: total / tally.games for name, total in sorted(tally.figure_sums.items())} if tally.games else {}
    return {"games": tally.games, "finished": finished, "stalls": tally.games - finished,
            "judged_by": "teams" if tally.teams else "seats", "seats": seats,
            "length": {"mean": mean, "ci95": [mean - half, mean + half], "sd": math.sqrt(variance)}, "cards": cards,
            "per_game": per_game}


def other_figures(figures: dict) -> dict[str, float]:
    """What a verification measures besides its targets, to set a proposal beside the game as it is: the mean
    length, the seat spread (points between the best and the worst seat against their fair share), stalled
    games, each figure the engine counts (per game), and the letter figures."""
    shown: dict[str, float] = {}
    if "length" in figures:
        shown["length"] = figures["length"]["mean"]
    if figures.get("seats"):
        edges = [100 * (row["win_rate"] - row["fair_share"]) for row in figures["seats"]]
        shown["seat spread (points)"] = max(edges) - min(edges)
    if "stalls" in figures:
        shown["stalled games"] = figures["stalls"]
    for name, value in figures.get("per_game", {}).items():
        shown[f"{name.replace('_', ' ')} per game"] = value
    for name in LETTERS:
        if name in figures:
            shown[name.replace("_", " ")] = figures[name]["p"]
    return shown


def letter_figures(game, targets: tuple[Target, ...], samples: int, seed: int) -> dict:
    """Word rate and going out at each hand a target names, and the points rank correlation."""
    from spellpress.analysis.english import difficulty, spearman, suggest_points
    from spellpress.analysis.mix import WILD_FACE, read_mix
    from spellpress.analysis.playability import HandRules, judge_for, playability
    from spellpress.words.finder import for_words

    mix = read_mix(game)
    words = game.spec.words
    lexicon, finder = for_words(words)
    figures: dict = {}
    for target in targets:
        if target.name in ("word_rate", "going_out"):
            hand = target.hand or words.hand or 7
            if hand > mix.deck_size:
                raise UserError.at(TARGET, f"{target.name}: a hand of {hand} is larger than the deck of {mix.deck_size}")
            rules = HandRules(hand, words.min_length, words.wilds, float(game.spec.rules.get("vowel_points", 0)))
            # a hand's words do not depend on the points printed: decks that differ in points only share the deal
            key = (tuple(sorted(mix.face_counts().items())), mix.dice, rules, samples, seed, id(finder))
            if key not in _PLAYABILITY:
                _PLAYABILITY[key] = playability(mix, rules, finder, samples=samples, seed=seed, judge=judge_for(mix, rules,
                                                                                                                finder))
            result = _PLAYABILITY[key]
            value = result.tally.word if target.name == "word_rate" else result.tally.going_out
            entry = result.probability(value)
            figures[target.name] = {"hand": hand, "p": entry["p"], "ci95": entry.get("ci95", [entry["p"], entry["p"]]),
                                    "method": result.method, "samples": result.hands if "ci95" in entry else None}
        elif target.name == "points_rank":
            counts = mix.letter_counts()
            letters = "".join(sorted(counts))
            faces = mix.face_counts()
            units = tuple(face for face in faces if face != WILD_FACE and len(face) > 1)
            printed_all = mix.points()
            printed = [v for k, v in printed_all.items() if len(k) == 1]
            if not printed:
                raise UserError.at(TARGET, "points_rank: the deck prints no points")
            measured = _difficulty(difficulty, lexicon, letters, words.hand or 7, units)
            scale = {k: measured[k]["difficulty"] for k in letters}
            suggested = suggest_points({k: v["difficulty"] for k, v in measured.items()}, min(printed), max(printed),
                                       scale=scale)
            rank = spearman(dict(printed_all), suggested)
            figures["points_rank"] = {"p": rank, "ci95": [rank, rank], "suggested": suggested}
    return figures


_DIFFICULTY: dict = {}
_PLAYABILITY: dict = {}  # kept for the process: a tune judges one game's decks


def _difficulty(measure, lexicon, letters: str, hand: int, units: tuple) -> dict:
    """The lexicon's letter difficulties: they depend on the letters, not on counts or points."""
    key = (id(lexicon), letters, hand, units)
    if key not in _DIFFICULTY:
        _DIFFICULTY[key] = measure(lexicon.words, letters, hand, units)
    return _DIFFICULTY[key]


# --- distance and verdict ---------------------------------------------------------------------------------------

def _checks(target: Target, figures: dict, z: float = Z95) -> list[tuple[str, float, tuple[float, float]]]:
    """(what, value, interval) for every figure the target judges, in the target's units: the 95% interval,
    or drawn again from its counts at the normal quantile z (a verdict's)."""
    if target.name == "seats":
        side = "team" if figures["judged_by"] == "teams" else "seat"
        return [(f"{side} {i + 1}", 100 * (row["win_rate"] - row["fair_share"]),
                 _points(_seat_interval(row, figures, z), row["fair_share"])) for i, row in enumerate(figures["seats"])]
    if target.name == "cards":
        return [(key, 100 * row["difference"], _points(_card_interval(row, z))) for key, row in figures["cards"].items()]
    if target.name == "length":
        length = figures["length"]
        if z == Z95 or "sd" not in length:
            return [("mean length", length["mean"], tuple(length["ci95"]))]
        half = z * length["sd"] / math.sqrt(max(1, figures["games"]))
        return [("mean length", length["mean"], (length["mean"] - half, length["mean"] + half))]
    entry = figures[target.name]
    if z == Z95 or not entry.get("samples"):  # the points rank and an exact letter figure have no sampling error
        return [(target.name, entry["p"], tuple(entry["ci95"]))]
    return [(target.name, entry["p"], _wilson(entry["p"] * entry["samples"], entry["samples"], z))]


def _points(interval, fair: float = 0.0) -> tuple[float, float]:
    low, high = interval
    return 100 * (low - fair), 100 * (high - fair)


def _seat_interval(row: dict, figures: dict, z: float) -> tuple[float, float]:
    if z == Z95 or "wins" not in row:
        low, high = row["ci95"]
        return low, high
    return _wilson(row["wins"], figures["finished"], z)


def _card_interval(row: dict, z: float) -> tuple[float, float]:
    from spellpress.stats import difference_interval

    if z == Z95 or "counts" not in row:
        low, high = row["ci95"]
        return low, high
    played_wins, played, unplayed_wins, unplayed = row["counts"]
    return difference_interval(played_wins, played, unplayed_wins, unplayed, z)


def judged(targets: tuple[Target, ...], figures: dict) -> int:
    """How many intervals a verdict on these targets reads together (simulate counts a seat's the same way:
    two seats that share every game are one interval); the points rank and exact letter figures have none."""
    from spellpress.simulate.api import judged_intervals

    count = 0
    for target in targets:
        if target.name == "seats":
            count += judged_intervals([row["wins"] for row in figures["seats"]], figures["finished"])
        elif target.name in ("cards", "length") or figures[target.name].get("samples"):
            count += len(_checks(target, figures))
    return max(1, count)


def distance(target: Target, figures: dict) -> float:
    checks = _checks(target, figures)
    if not checks:
        return 0.0
    if target.name == "points_rank":
        value = checks[0][1]
        return target.distance(-1.0 if math.isnan(value) else value)
    return max(target.distance(value) for _, value, _ in checks)


def objective(distances: list[float], stalls: int = 0, games: int = 1) -> float:
    """What the search minimises: the worst target's distance plus a quarter of the mean; stalled games count
    as a full distance each share of games they take."""
    if not distances:
        return 0.0
    return max(distances) + sum(distances) / (4 * len(distances)) + 10 * stalls / max(1, games)


def verdict(target: Target, figures: dict, z: float = Z95, z_inside: float | None = None) -> dict:
    """missed: some interval (at the normal quantile z) wholly outside the band; held: every interval (at
    z_inside, default z) inside; else undecided. The worst figure's interval is the one its state read."""
    checks = _checks(target, figures, z)
    outside = [what for what, _, (low, high) in checks if high < target.low or low > target.high]
    inner = checks if z_inside is None or outside else _checks(target, figures, z_inside)
    inside = all(target.low <= low and high <= target.high for _, _, (low, high) in inner)
    state = "missed" if outside else "held" if inside else "undecided"
    worst = max(inner, key=lambda c: target.distance(c[1]), default=None)
    return {"name": target.name, "target": target.text, "verdict": state, "outside": outside,
            "worst": {"what": worst[0], "value": worst[1], "interval": list(worst[2])} if worst else None}


def overall(verdicts: list[dict], stalls: int = 0) -> str:
    """The three-way verdict of a candidate: balanced, not balanced, or undecided."""
    states = {v["verdict"] for v in verdicts}
    if "missed" in states or stalls:
        return "not balanced"
    return "balanced" if states <= {"held"} else "undecided"
