"""How often a hand can make a word: exact odds over every distinct hand when there
are few enough, seeded sampling with confidence intervals otherwise."""

from __future__ import annotations

import itertools
import math
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from spellpress.analysis.going_out import GoingOut
from spellpress.analysis.mix import DIE_WILD, WILD_FACE, LetterMix
from spellpress.progress import LazyProgress
from spellpress.stats import Z95, wilson
from spellpress.words.finder import WordFinder

WILD = WILD_FACE
EXACT_LIMIT = 20_000  # distinct (hand, roll) pairs judged one by one before sampling is used instead
SAMPLE_CHUNK = 1024  # hands drawn at a time (bounds the memory of the random keys)
SEEN_LIMIT = 200_000  # judged hands remembered before that memory starts over


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
    going_out: float = 0.0  # the hand splits into words, every card used
    by_length: defaultdict[int, float] = field(default_factory=lambda: defaultdict(float))  # weighted
    best_total: float = 0.0
    best_squares: float = 0.0
    dealt: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))  # card letters dealt (weighted, per copy)
    dead: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))  # of those, left unusable in every word

    def add(self, weight: float, hand: tuple[str, ...], result: HandResult) -> None:
        self.weight += weight
        if result.lengths:
            self.word += weight
        if result.all_cards:
            self.all_cards += weight
        if result.going_out:
            self.going_out += weight
        for length in result.lengths:
            self.by_length[length] += weight
        self.best_total += weight * result.best
        self.best_squares += weight * result.best**2
        for card in hand:
            self.dealt[card] += weight
            if card not in result.used:
                self.dead[card] += weight


@dataclass(frozen=True)
class HandResult:
    lengths: frozenset[int]
    best: float
    used: frozenset[str]  # cards (WILD for a wild card) that some word uses
    all_cards: bool
    going_out: bool


def evaluate(finder: WordFinder, rules: HandRules, points: dict[str, float], hand: tuple[str, ...],
             roll: tuple[str, ...], going_out: GoingOut) -> HandResult:
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
        if match.wilds:
            used.add(WILD)
    goes_out = going_out.can_go_out(cards, hand_wilds, reusable, reusable_wilds, matches=matches,
                                    spare_wilds=rules.extra_wilds)
    return HandResult(lengths, best, frozenset(used), all_cards, goes_out)


def card_types(mix: LetterMix) -> list[tuple[str, int]]:
    return sorted(mix.face_counts().items())


def count_hands(types: list[tuple[str, int]], size: int) -> int:
    """Distinct multisets of `size` cards drawn from types with these counts."""

    @cache
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
        result: dict[str, Any] = {
            "method": self.method,
            "hands": self.hands,
            "word": self.probability(t.word),
            "all_cards": self.probability(t.all_cards),
            "going_out": self.probability(t.going_out),
            "by_length": {str(n): self.probability(t.by_length[n]) for n in range(min_length, max_length + 1)
                          if t.by_length[n] or n <= 7},
            "expected_best_score": {"mean": mean},
            "dead_rates": {card: t.dead[card] / t.dealt[card] for card in sorted(t.dealt) if t.dealt[card]},
        }
        if self.method == "sampled":
            variance = max(0.0, t.best_squares / t.weight - mean**2)
            half = Z95 * math.sqrt(variance / self.hands)
            result["expected_best_score"]["ci95"] = [mean - half, mean + half]
        return result


@dataclass(frozen=True)
class Deal:
    """The hands to judge: every distinct hand and roll with its probability, or seeded samples."""

    method: str
    hands: int
    draws: Callable[[], Iterable[tuple[float, tuple[str, ...], tuple[str, ...]]]]


def deal(types: list[tuple[str, int]], dice: tuple[tuple[str, ...], ...], size: int, *, samples: int, seed: int,
         exact_limit: int = EXACT_LIMIT, method: str = "auto") -> Deal:
    """Exact ("auto") when the distinct (hand, roll) pairs are no more than max(exact_limit, samples):
    then judging every one costs about what sampling would, and has no sampling error."""
    rolls = distinct_rolls(dice)
    distinct = count_hands(types, size) * len(rolls)
    if method == "exact" or (method == "auto" and distinct <= max(exact_limit, samples)):
        def every():
            for hand, p_hand in distinct_hands(types, size):
                for roll, p_roll in rolls:
                    yield p_hand * p_roll, hand, roll
        return Deal("exact", distinct, every)

    return Deal("sampled", samples, lambda: sample_hands(types, dice, size, samples=samples, seed=seed))


def sample_hands(types: list[tuple[str, int]], dice: tuple[tuple[str, ...], ...], size: int, *, samples: int,
                 seed: int) -> Iterable[tuple[float, tuple[str, ...], tuple[str, ...]]]:
    """Seeded hands drawn without replacement: every physical card (face, copy) gets a random key
    per sample and a hand is the `size` cards with the smallest keys. A card's keys depend only on
    the seed, its face and its copy number, so two decks that differ by a card deal the same hands
    except where that card is among the smallest: comparing decks (suggested counts) is not
    drowned in sampling noise."""
    import numpy as np

    faces = [face for face, count in types if count]
    counts = np.array([count for face, count in types if count])
    most = int(counts.max())
    valid = np.arange(most)[None, :] < counts[:, None]              # face x copy
    seed %= 2**63  # numpy seeds are not negative
    roll_rng = np.random.default_rng([seed, 0xD1CE])
    for start in range(0, samples, SAMPLE_CHUNK):
        n = min(SAMPLE_CHUNK, samples - start)
        chunk = start // SAMPLE_CHUNK
        keys = np.stack([np.random.default_rng([seed, zlib.crc32(face.encode()), chunk]).random((most, n), dtype=np.float32)
                         for face in faces])                        # face x copy x sample
        keys = np.where(valid[:, :, None], keys, np.inf).reshape(len(faces) * most, n)
        chosen = np.argpartition(keys, size - 1, axis=0)[:size] // most  # size x sample: face indices
        chosen.sort(axis=0)
        rolls = [roll_rng.integers(len(f), size=n) for f in dice]
        for i in range(n):
            hand = tuple(faces[j] for j in chosen[:, i])
            yield 1.0, hand, tuple(sorted(f[int(r[i])] for f, r in zip(dice, rolls, strict=False)))


class Judge:
    """Judges hands of one mix's cards, remembering each distinct hand and roll it has seen
    (the results depend on the cards and points, not on how many of each the deck holds)."""

    def __init__(self, finder: WordFinder, rules: HandRules, points: dict[str, float], word_lengths: frozenset[int]):
        self.finder, self.rules, self.points = finder, rules, points
        self.going_out = GoingOut(finder, rules.min_length, word_lengths)
        self._seen: dict[tuple, HandResult] = {}

    def __call__(self, hand: tuple[str, ...], roll: tuple[str, ...]) -> HandResult:
        key = (hand, roll)
        result = self._seen.get(key)
        if result is None:
            if len(self._seen) > SEEN_LIMIT:
                self._seen.clear()
            result = self._seen[key] = evaluate(self.finder, self.rules, self.points, hand, roll, self.going_out)
        return result


def judge_for(mix: LetterMix, rules: HandRules, finder: WordFinder) -> Judge:
    return Judge(finder, rules, dict(mix.points()), frozenset(len(key) for key in finder.index.by_key))


def playability(
    mix: LetterMix,
    rules: HandRules,
    finder: WordFinder,
    *,
    samples: int,
    seed: int,
    exact_limit: int = EXACT_LIMIT,
    progress: LazyProgress | None = None,
    judge: Judge | None = None,
    types: list[tuple[str, int]] | None = None,
    method: str = "auto",
) -> Playability:
    """`types` (card, count) replaces the mix's own counts (a proposed deck of the same cards);
    `method` "exact" or "sampled" overrides the choice deal() makes."""
    judge = judge or judge_for(mix, rules, finder)
    dealt = deal(types or card_types(mix), mix.dice, rules.hand, samples=samples, seed=seed, exact_limit=exact_limit,
                 method=method)
    tally = Tally()
    if progress:
        progress.total = dealt.hands
    for weight, hand, roll in dealt.draws():
        tally.add(weight, hand, judge(hand, roll))
        if progress:
            progress.advance()
    return Playability(dealt.method, dealt.hands, tally)
