"""A letter deck's playability profile, and two profiles compared figure by figure.

The figures are the letter analysis's (`spellpress letters`, docs/letters.md) on seeded hands of the
game's hand size: the chance a hand makes a word, uses all its cards in one word, goes out; the
expected best score; and the letter spread (how many letters the cards are spread over: the
exponential of the entropy of the cards' letter shares, 20 for 20 letters dealt evenly). Each
estimate carries its 95% interval (the spread is exact: it is read off the counts).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from spellpress.analysis.mix import LetterMix
from spellpress.analysis.playability import HandRules, Judge, playability
from spellpress.stats import Z95
from spellpress.words.finder import WordFinder

MATCHED, NOT_MATCHED, UNDECIDED = "matched", "not matched", "undecided"


@dataclass(frozen=True)
class Figure:
    name: str
    label: str
    value: float
    error: float  # the standard error of the estimate (0 for an exact figure)
    tolerance: float  # how far an edition may be from the source and still match
    relative: bool  # the tolerance is a share of the source's value (else in the figure's units)
    unit: str = ""  # "%" for chances

    @property
    def interval(self) -> tuple[float, float]:
        return (self.value - Z95 * self.error, self.value + Z95 * self.error)


# name: (label, tolerance, relative, unit, weight in the search): the expected best score within 10%,
# chances within 5 points, the spread and the game's length within 10%. The search weighs most what
# decides how a game plays (a word, the all-cards bonus, the score, the length); going out and the
# spread are reported and weigh less (a language with more letters spreads its cards wider).
FIGURES = {
    "word": ("a hand makes a word", 0.05, False, "%", 1.0),
    "all_cards": ("a hand uses all its cards in one word", 0.05, False, "%", 1.0),
    "going_out": ("a hand goes out", 0.05, False, "%", 0.25),
    "expected_best_score": ("expected best score of a hand", 0.10, True, "", 1.0),
    "letter_spread": ("letter spread (letters the cards are spread over)", 0.10, True, "", 0.25),
    "length": ("game length", 0.10, True, "", 1.0),
    "dependence": ("vocabulary dependence", 0.05, False, "%", 1.0),
}


def letter_spread(counts: Counter | dict[str, int]) -> float:
    total = sum(counts.values())
    shares = [count / total for count in counts.values() if count]
    return math.exp(-sum(p * math.log(p) for p in shares))


def deck_profile(mix: LetterMix, rules: HandRules, finder: WordFinder, *, samples: int, seed: int,
                 judge: Judge | None = None) -> dict[str, Figure]:
    """The profile of `mix` dealt in hands of rules.hand (seeded: two decks a few cards apart are dealt alike)."""
    result = playability(mix, rules, finder, samples=samples, seed=seed, judge=judge, method="sampled")
    tally, n = result.tally, result.hands
    figures: dict[str, Figure] = {}
    for name in ("word", "all_cards", "going_out"):
        p = getattr(tally, name) / tally.weight
        figures[name] = _figure(name, p, math.sqrt(max(p * (1 - p), 1e-12) / n))
    mean = tally.best_total / tally.weight
    variance = max(0.0, tally.best_squares / tally.weight - mean**2)
    figures["expected_best_score"] = _figure("expected_best_score", mean, math.sqrt(variance / n))
    figures["letter_spread"] = _figure("letter_spread", letter_spread(mix.letter_counts()), 0.0)
    return figures


def _figure(name: str, value: float, error: float, label: str | None = None) -> Figure:
    default_label, tolerance, relative, unit, _ = FIGURES[name]
    return Figure(name, label or default_label, value, error, tolerance, relative, unit)


def length_figure(lengths: dict[int, int], label: str) -> Figure:
    """Mean game length and its standard error, from a histogram of lengths (turns or rounds -> games)."""
    games = sum(lengths.values())
    mean = sum(turns * n for turns, n in lengths.items()) / games
    variance = sum(n * (turns - mean) ** 2 for turns, n in lengths.items()) / max(games - 1, 1)
    return _figure("length", mean, math.sqrt(variance / games), label)


def dependence_figure(points, level: int) -> dict[str, Figure]:
    """The share of the winners' word points from words above SCOWL `level` (simulate's --level), as a figure
    whose error is read off its 95% interval; none when the engine keeps no record of its words."""
    found = points.dependence(level)
    if not found or found["share"] is None:
        return {}
    low, high = found["ci95"]
    label = f"vocabulary dependence (winners' word points above SCOWL {level}, {found['games']:,} games)"
    return {"dependence": _figure("dependence", found["share"], (high - low) / (2 * Z95), label)}


def target_figure(measured: Figure, value: float) -> Figure:
    """A target in place of a measured figure: its value asked for, exact (no interval)."""
    return Figure(measured.name, f"{measured.label.split(' (')[0]} (target: {100 * value:.1f}%; "
                  f"{measured.label.split(' (', 1)[1]}", value, 0.0, measured.tolerance, measured.relative, measured.unit)


def band(source: Figure) -> float:
    """How far from the source's value an edition's figure may lie and still match."""
    return source.tolerance * abs(source.value) if source.relative else source.tolerance


def verdict(source: Figure, edition: Figure) -> tuple[str, tuple[float, float]]:
    """(matched | not matched | undecided, the 95% interval of edition minus source): matched when the
    interval lies inside +/- the band, not matched when it lies wholly outside, else undecided."""
    difference = edition.value - source.value
    half = Z95 * math.hypot(source.error, edition.error)
    low, high = difference - half, difference + half
    limit = band(source)
    if -limit <= low and high <= limit:
        return MATCHED, (low, high)
    if high < -limit or low > limit:
        return NOT_MATCHED, (low, high)
    return UNDECIDED, (low, high)


def distance(source: dict[str, Figure], edition: dict[str, Figure]) -> float:
    """How far an edition's profile is from the source's, each figure in units of its band (the search's aim)."""
    return sum(FIGURES[name][4] * ((edition[name].value - figure.value) / band(figure)) ** 2
               for name, figure in source.items() if name in edition and band(figure))

