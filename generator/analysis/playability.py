"""How often a hand can make a word: exact odds over every distinct hand when there
are few enough, seeded sampling with confidence intervals otherwise."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterable

from generator.analysis.mix import DIE_WILD, LetterMix
from generator.simulate.metrics import Z95, wilson
from generator.words.finder import WordFinder

WILD = "?"


@dataclass(frozen=True)
class HandRules:
    hand: int
    min_length: int = 2
    extra_wilds: int = 0  # wilds available to every hand (a face-up wild pile)
    die_points: float = 0.0


@dataclass
class Tally:
    """Weighted counts over hands: exact probabilities or sample frequencies."""

    weight: float = 0.0
    word: float = 0.0
    all_cards: float = 0.0  # a word uses every card of the hand
    by_length: Counter = field(default_factory=Counter)
    best_total: float = 0.0
    best_squares: float = 0.0
    dealt: Counter = field(default_factory=Counter)  # card letters dealt (weighted, per copy)
    dead: Counter = field(default_factory=Counter)  # of those, left unusable in every word

    def add(self, weight: float, hand: tuple[str, ...], result: "HandResult") -> None:
        self.weight += weight
        if result.lengths:
            self.word += weight
        if result.all_cards:
            self.all_cards += weight
        for length in result.lengths:
            self.by_length[length] += weight
        self.best_total += weight * result.best
        self.best_squares += weight * result.best**2
        for card in hand:
            if card == WILD:
                continue
            self.dealt[card] += weight
            if card not in result.used:
                self.dead[card] += weight


@dataclass(frozen=True)
class HandResult:
    lengths: frozenset[int]
    best: float
    used: frozenset[str]
    all_cards: bool


def evaluate(finder: WordFinder, rules: HandRules, points: dict[str, float], hand: tuple[str, ...],
             roll: tuple[str, ...]) -> HandResult:
    cards = [card for card in hand if card != WILD]
    hand_wilds = len(hand) - len(cards)
    wilds = hand_wilds + rules.extra_wilds
    reusable = sorted({face for face in roll if face != DIE_WILD})
    reusable_wilds = sum(1 for face in roll if face == DIE_WILD)
    matches = finder.find(cards, wilds=wilds, reusable=reusable, reusable_wilds=reusable_wilds,
                          min_length=rules.min_length)
    lengths = frozenset(len(m.word) for m in matches)
    best = 0.0
    used: set[str] = set()
    all_cards = False
    for match in matches:
        all_cards = all_cards or (len(match.cards) == len(cards) and len(match.wilds) >= hand_wilds)
        score = sum(points.get(card, 0.0) for card in match.cards) + rules.die_points * len(match.reusable)
        best = max(best, score)
        used.update(match.cards)
    return HandResult(lengths, best, frozenset(used), all_cards)


def _card_types(mix: LetterMix) -> list[tuple[str, int]]:
    types = [(card.letters, card.count) for card in mix.cards]
    merged: Counter = Counter()
    for letters, count in types:
        merged[letters] += count
    if mix.wild_cards:
        merged[WILD] += mix.wild_cards
    return sorted(merged.items())


def count_hands(types: list[tuple[str, int]], size: int) -> int:
    """Distinct multisets of `size` cards drawn from types with these counts."""

    @lru_cache(maxsize=None)
    def ways(index: int, left: int) -> int:
        if left == 0:
            return 1
        if index == len(types):
            return 0
        return sum(ways(index + 1, left - take) for take in range(min(left, types[index][1]) + 1))

    return ways(0, size)


def distinct_hands(types: list[tuple[str, int]], size: int) -> Iterable[tuple[tuple[str, ...], float]]:
    """Every distinct hand with its exact (multivariate hypergeometric) probability."""
    total = math.comb(sum(count for _, count in types), size)

    def walk(index: int, left: int, chosen: tuple[str, ...], ways: int):
        if left == 0:
            yield chosen, ways / total
            return
        if index == len(types):
            return
        letters, count = types[index]
        for take in range(min(left, count), -1, -1):
            yield from walk(index + 1, left - take, chosen + (letters,) * take, ways * math.comb(count, take))

    yield from walk(0, size, (), 1)


def distinct_rolls(dice: tuple[tuple[str, ...], ...]) -> list[tuple[tuple[str, ...], float]]:
    if not dice:
        return [((), 1.0)]
    outcomes: Counter = Counter()
    for faces in itertools.product(*dice):
        outcomes[tuple(sorted(faces))] += 1
    total = sum(outcomes.values())
    return [(roll, n / total) for roll, n in sorted(outcomes.items())]


@dataclass
class Playability:
    method: str  # "exact" or "sampled"
    hands: int  # distinct hands evaluated, or samples drawn
    tally: Tally

    def probability(self, value: float) -> dict:
        p = value / self.tally.weight
        if self.method == "exact":
            return {"p": p}
        low, high = wilson(p * self.hands, self.hands)
        return {"p": p, "ci95": [low, high]}

    def summary(self, max_length: int, min_length: int = 2) -> dict:
        t = self.tally
        mean = t.best_total / t.weight
        result = {
            "method": self.method,
            "hands": self.hands,
            "word": self.probability(t.word),
            "all_cards": self.probability(t.all_cards),
            "by_length": {str(n): self.probability(t.by_length[n]) for n in range(min_length, max_length + 1)
                          if t.by_length[n] or n <= 7},
            "expected_best_score": {"mean": mean},
            "dead_letters": sorted(
                ({"letters": card, "dead_rate": t.dead[card] / t.dealt[card]} for card in t.dealt if t.dealt[card]),
                key=lambda row: -row["dead_rate"],
            ),
        }
        if self.method == "sampled":
            variance = max(0.0, t.best_squares / t.weight - mean**2)
            half = Z95 * math.sqrt(variance / self.hands)
            result["expected_best_score"]["ci95"] = [mean - half, mean + half]
        return result


def playability(
    mix: LetterMix,
    rules: HandRules,
    finder: WordFinder,
    *,
    samples: int,
    seed: int,
    exact_limit: int = 3000,
    progress: Callable[[int], None] | None = None,
) -> Playability:
    types = _card_types(mix)
    points = {letters: p for letters, p in mix.points().items()}
    rolls = distinct_rolls(mix.dice)
    tally = Tally()
    if count_hands(types, rules.hand) * len(rolls) <= exact_limit:
        evaluated = 0
        for hand, p_hand in distinct_hands(types, rules.hand):
            for roll, p_roll in rolls:
                tally.add(p_hand * p_roll, hand, evaluate(finder, rules, points, hand, roll))
                evaluated += 1
            if progress:
                progress(1)
        return Playability("exact", evaluated, tally)
    rng = random.Random(seed)
    deck = [letters for letters, count in types for _ in range(count)]
    cache: dict = {}
    for _ in range(samples):
        hand = tuple(sorted(rng.sample(deck, rules.hand)))
        roll = tuple(sorted(rng.choice(faces) for faces in mix.dice))
        key = (hand, roll)
        if key not in cache:
            cache[key] = evaluate(finder, rules, points, hand, roll)
        tally.add(1.0, hand, cache[key])
        if progress:
            progress(1)
    return Playability("sampled", samples, tally)
