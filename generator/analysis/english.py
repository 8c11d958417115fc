"""How far a letter mix is from English, and which points its letters deserve.

Difficulty of a letter, measured on the lexicon (dictionary frequency, since a
letter mix is for making words):
- rarity: -log of the letter's share of all letters in the lexicon;
- short-word rarity: the same over words no longer than a hand (what a hand can spell);
- constraint: how few neighbours the letter takes (1 - normalized entropy of the
  letters next to it; Q, almost always before U, is the most constrained).
The three are standardized and averaged, then mapped linearly onto the game's
own point range.

A multi-letter card (QU, TH, ER) is measured the same way as a unit: its
occurrences as a run of letters in the lexicon's words, and the letters on either
side of those runs. Its three measures are standardized with the single letters'
means and spreads, so its difficulty sits on the letters' scale and its points
come from the same line (kept inside the game's point range).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping

from spellpress.words.lexicon import ALPHABET


def distribution(counts: Mapping[str, float], letters: str) -> dict[str, float]:
    total = sum(counts.get(letter, 0.0) for letter in letters) or 1.0
    return {letter: counts.get(letter, 0.0) / total for letter in letters}


def jensen_shannon_bits(p: dict[str, float], q: dict[str, float]) -> float:
    def kl(a, b):
        return sum(a[k] * math.log2(a[k] / b[k]) for k in a if a[k] > 0 and b[k] > 0)

    m = {k: (p[k] + q[k]) / 2 for k in p}
    return (kl(p, m) + kl(q, m)) / 2


def total_variation(p: dict[str, float], q: dict[str, float]) -> float:
    return sum(abs(p[k] - q[k]) for k in p) / 2


def letter_frequency(words, max_length: int | None = None) -> dict[str, float]:
    counts: Counter = Counter()
    for word in words:
        if max_length is None or len(word) <= max_length:
            counts.update(word)
    return distribution(counts, ALPHABET + "".join(sorted(set(counts) - set(ALPHABET))))  # and ä ö ü ñ


def neighbour_entropy(words) -> dict[str, float]:
    """Normalized entropy (0..1) of the letters on either side of each letter."""
    neighbours: dict[str, Counter] = defaultdict(Counter, {letter: Counter() for letter in ALPHABET})
    for word in words:
        for a, b in zip(word, word[1:], strict=False):
            neighbours[a][b] += 1
            neighbours[b][a] += 1
    entropy = {}
    for letter, counter in neighbours.items():
        total = sum(counter.values())
        if not total:
            entropy[letter] = 0.0
            continue
        h = -sum(n / total * math.log2(n / total) for n in counter.values())
        entropy[letter] = h / math.log2(len(ALPHABET))
    return entropy


def unit_measures(words, unit: str, hand: int) -> dict[str, float]:
    """Rarity, short-word rarity and constraint of a run of letters (a multi-letter card)."""
    short_length = max(hand, 3)
    found = found_short = letters = letters_short = 0
    neighbours: Counter = Counter()
    for word in words:
        n = word.count(unit)
        letters += len(word)
        found += n
        if len(word) <= short_length:
            letters_short += len(word)
            found_short += n
        if n:
            at = word.find(unit)
            while at >= 0:
                if at:
                    neighbours[word[at - 1]] += 1
                if at + len(unit) < len(word):
                    neighbours[word[at + len(unit)]] += 1
                at = word.find(unit, at + len(unit))
    floor = 1e-6
    total = sum(neighbours.values())
    entropy = (-sum(c / total * math.log2(c / total) for c in neighbours.values()) / math.log2(len(ALPHABET))
               if total else 0.0)
    return {"rarity": -math.log(max(found / (letters or 1), floor)),
            "short_rarity": -math.log(max(found_short / (letters_short or 1), floor)),
            "constraint": 1 - entropy}


MEASURES = ("rarity", "short_rarity", "constraint")


def difficulty(words, letters: str, hand: int, units: tuple[str, ...] = ()) -> dict[str, dict[str, float]]:
    """Per letter, and per multi-letter unit: the three measures and their combined
    difficulty, standardized over the single letters."""
    words = list(words)
    overall = letter_frequency(words)
    short = letter_frequency(words, max_length=max(hand, 3))
    entropy = neighbour_entropy(words)
    floor = 1e-6
    measured = {k: {"rarity": -math.log(max(overall[k], floor)), "short_rarity": -math.log(max(short[k], floor)),
                    "constraint": 1 - entropy[k]} for k in letters}
    for unit in units:
        measured[unit] = unit_measures(words, unit, hand)
    scales = {}
    for name in MEASURES:
        values = [measured[k][name] for k in letters]
        mean = sum(values) / len(values) if values else 0.0
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values)) if len(values) >= 2 else 0.0
        scales[name] = (mean, sd or 1.0)
    for row in measured.values():
        if len(letters) < 2:
            row["difficulty"] = 0.0
            continue
        row["difficulty"] = sum((row[name] - scales[name][0]) / scales[name][1] for name in MEASURES) / len(MEASURES)
    return measured


def suggest_points(difficulties: dict[str, float], low: float, high: float, scale: dict[str, float] | None = None) -> dict[str,
                                                                                                                           int]:
    """Difficulty mapped linearly onto [low, high], rounded to whole points. The line runs
    through the lowest and highest difficulty of `scale` (default: of `difficulties`);
    values beyond it are kept inside [low, high]."""
    if not difficulties:
        return {}
    scale = scale or difficulties
    d_min, d_max = min(scale.values()), max(scale.values())
    span = (d_max - d_min) or 1.0
    return {k: int(round(min(high, max(low, low + (high - low) * (d - d_min) / span)))) for k, d in difficulties.items()}


def spearman(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """Rank correlation of two scores over their shared keys (average ranks for ties)."""
    keys = sorted(set(a) & set(b))
    if len(keys) < 3:
        return float("nan")

    def ranks(values):
        order = sorted(range(len(values)), key=lambda i: values[i])
        result = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                result[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return result

    ra, rb = ranks([a[k] for k in keys]), ranks([b[k] for k in keys])
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=False))
    sa = math.sqrt(sum((x - ma) ** 2 for x in ra))
    sb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    return cov / (sa * sb) if sa and sb else float("nan")
