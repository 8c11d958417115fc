"""Vocabulary dependence: the share of the winners' word points that came from words above a SCOWL level.

Games are the unit: each finished game gives x, the winners' points from words above the level, and
y, the winners' points from all their words; the figure is the ratio estimator sum(x) / sum(y) with a
95% interval by the delta method over games. The sums are kept for every SCOWL level at once, so the
tally's memory stays fixed and any --level can be asked of one run (docs/simulate.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from spellpress.model.game import Game
from spellpress.model.schema import SHIPPED_LEXICON
from spellpress.rules.protocol import Outcome
from spellpress.simulate.word_records import RECORDING_ENGINES
from spellpress.stats import Z95
from spellpress.words.lexicon import shipped_levels

LEVELS = (10, 20, 35, 40, 50, 55, 60, 70, 80, 95)  # SCOWL's sizes; a word off the list is above them all
OFF_THE_LIST = 100


@dataclass
class WordPoints:
    games: int = 0  # finished games whose engine recorded its words
    y: float = 0.0
    yy: float = 0.0
    above: dict[int, list[float]] = field(default_factory=lambda: {level: [0.0, 0.0, 0.0] for level in LEVELS})  # x, xx, xy

    def add(self, outcome: Outcome) -> None:
        """Fold one finished game (nothing when its engine keeps no record of its words)."""
        if outcome.words is None:
            return
        levels = shipped_levels()
        winners = set(outcome.winners)
        by_level: dict[int, float] = {}
        for seat, word, points in outcome.words:
            if seat in winners and points > 0:
                level = levels.get(word.lower(), OFF_THE_LIST)
                by_level[level] = by_level.get(level, 0.0) + points
        y = sum(by_level.values())
        self.games += 1
        self.y += y
        self.yy += y * y
        for threshold, sums in self.above.items():
            x = sum(points for level, points in by_level.items() if level > threshold)
            sums[0] += x
            sums[1] += x * x
            sums[2] += x * y

    def merge(self, more: WordPoints) -> None:
        self.games += more.games
        self.y += more.y
        self.yy += more.yy
        for threshold, sums in more.above.items():
            self.above[threshold] = [a + b for a, b in zip(self.above[threshold], sums, strict=True)]

    def dependence(self, level: int) -> dict | None:
        """The figure at a SCOWL level with its 95% interval; None when no game recorded its words."""
        if not self.games:
            return None
        threshold = max(known for known in LEVELS if known <= level)  # the levels between score alike
        x, xx, xy = self.above[threshold]
        n, y = self.games, self.y
        if y <= 0:
            return {"level": level, "share": None, "ci95": None, "games": n, "winner_word_points": 0.0}
        share = x / y
        low = high = share
        if n > 1:
            spread = max(0.0, xx - 2 * share * xy + share * share * self.yy) / (n - 1)
            error = math.sqrt(spread / n) / (y / n)
            low, high = max(0.0, share - Z95 * error), min(1.0, share + Z95 * error)
        return {"level": level, "share": share, "ci95": [low, high], "games": n,
                "winner_word_points": y / n}


def dependence_figure(points: WordPoints, game: Game, level: int) -> dict:
    """The report's entry: the figure, or why there is none (a word list without levels, an engine
    that keeps no record of its words)."""
    if game.spec.words.lexicon != SHIPPED_LEXICON:
        return {"level": level, "share": None, "ci95": None,
                "note": f"not English ({game.spec.words.language!r} list): its words have no SCOWL levels"}
    figure = points.dependence(level)
    if figure is None:
        return {"level": level, "share": None, "ci95": None,
                "note": f"not recorded: this engine keeps no scored words (recorded by {', '.join(RECORDING_ENGINES)})"}
    return figure


def dependence_text(figure: dict) -> str:
    """One line for the table and the balance PDF."""
    if figure.get("note"):
        return f"Vocabulary dependence: {figure['note']}."
    if figure["share"] is None:
        return f"Vocabulary dependence: the winners scored no word points in {figure['games']:,} games."
    low, high = figure["ci95"]
    return (f"Vocabulary dependence: {100 * figure['share']:.1f}% of the winners' word points came from words "
            f"above SCOWL {figure['level']} (95% interval {100 * low:.1f}-{100 * high:.1f}%, {figure['games']:,} games).")
