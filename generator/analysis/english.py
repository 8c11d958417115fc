"""How far a letter mix is from English, and which points its letters deserve.

Difficulty of a letter, measured on the lexicon (dictionary frequency, since a
letter mix is for making words):
- rarity: -log of the letter's share of all letters in the lexicon;
- short-word rarity: the same over words no longer than a hand (what a hand can spell);
- constraint: how few neighbours the letter takes (1 - normalized entropy of the
  letters next to it; Q, almost always before U, is the most constrained).
The three are standardized and averaged, then mapped linearly onto the game's
own point range.
"""

from __future__ import annotations

import math
from collections import Counter

from generator.words.lexicon import ALPHABET


def distribution(counts: dict[str, float], letters: str) -> dict[str, float]:
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
    return distribution(counts, ALPHABET)


def neighbour_entropy(words) -> dict[str, float]:
    """Normalized entropy (0..1) of the letters on either side of each letter."""
    neighbours: dict[str, Counter] = {letter: Counter() for letter in ALPHABET}
    for word in words:
        for a, b in zip(word, word[1:]):
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


def _standardize(values: dict[str, float]) -> dict[str, float]:
    mean = sum(values.values()) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values.values()) / len(values)) or 1.0
    return {k: (v - mean) / sd for k, v in values.items()}


def difficulty(words, letters: str, hand: int) -> dict[str, dict[str, float]]:
    """Per letter: the three measures and their combined, standardized difficulty."""
    words = list(words)
    overall = letter_frequency(words)
    short = letter_frequency(words, max_length=max(hand, 3))
    entropy = neighbour_entropy(words)
    floor = 1e-6
    rarity = {k: -math.log(max(overall[k], floor)) for k in letters}
    short_rarity = {k: -math.log(max(short[k], floor)) for k in letters}
    constraint = {k: 1 - entropy[k] for k in letters}
    if len(letters) < 2:
        return {k: {"rarity": rarity[k], "short_rarity": short_rarity[k], "constraint": constraint[k], "difficulty": 0.0} for k in letters}
    z = [_standardize(rarity), _standardize(short_rarity), _standardize(constraint)]
    return {
        k: {"rarity": rarity[k], "short_rarity": short_rarity[k], "constraint": constraint[k],
            "difficulty": (z[0][k] + z[1][k] + z[2][k]) / 3}
        for k in letters
    }


def suggest_points(difficulties: dict[str, float], low: float, high: float) -> dict[str, int]:
    """Difficulty mapped linearly onto [low, high], rounded to whole points."""
    if not difficulties:
        return {}
    d_min, d_max = min(difficulties.values()), max(difficulties.values())
    span = (d_max - d_min) or 1.0
    return {k: int(round(low + (high - low) * (d - d_min) / span)) for k, d in difficulties.items()}


def spearman(a: dict[str, float], b: dict[str, float]) -> float:
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
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    sa = math.sqrt(sum((x - ma) ** 2 for x in ra))
    sb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    return cov / (sa * sb) if sa and sb else float("nan")
