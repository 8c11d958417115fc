"""Suggested counts: a deck of N cards with the game's faces, nearer the language's letter
frequency and at least as playable.

The game's counts are first scaled to N (largest remainders, at least one card of each
face; wild cards keep their share of the deck and are not searched, since a wild always
helps a hand and has no letter frequency). Then, one card at a time, a card of one face
becomes a card of another: of the moves that bring the letter mix nearest the language
(Jensen-Shannon distance, digraph cards counted as their letters), the few best are
judged in that order on the same seeded hands (playability.sample_hands keeps the hands of
two decks one card apart alike) until CANDIDATES of them lose no playability, and of those
the one that gains most (relative fall in distance plus relative rise in playability) is taken.
The search stops when no such move is left or after MAX_MOVES moves.

Playability, the figure kept from falling: the chance a hand makes a word, plus the
chance it goes out, plus the share of dealt cards some word can use (1 - dead rate).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from generator.analysis.english import distribution, jensen_shannon_bits
from generator.analysis.mix import WILD_FACE, split_letters
from generator.analysis.playability import Judge, Playability, playability

CANDIDATES = 3    # moves that keep playability compared at each step
MAX_TRIED = 12    # moves judged on sampled hands at each step, at most
MAX_MOVES = 60


@dataclass(frozen=True)
class Judged:
    counts: dict[str, int]
    jensen_shannon_bits: float
    playability: float
    result: Playability


def scaled_counts(counts: dict[str, int], total: int) -> dict[str, int]:
    """Counts scaled to `total` by largest remainders, at least one of each face."""
    old = sum(counts.values())
    scaled = {face: max(1, int(count * total / old)) for face, count in counts.items()}
    by_remainder = sorted(counts, key=lambda face: (-(counts[face] * total / old - int(counts[face] * total / old)), face))
    i = 0
    while sum(scaled.values()) < total:
        scaled[by_remainder[i % len(by_remainder)]] += 1
        i += 1
    while sum(scaled.values()) > total:
        face = max((f for f in scaled if scaled[f] > 1), key=lambda f: (scaled[f], f))
        scaled[face] -= 1
    return scaled


def letter_distance(counts: dict[str, int], language: dict[str, float], letters: str) -> float:
    return jensen_shannon_bits(distribution(split_letters(counts), letters), distribution(language, letters))


def playability_score(result: Playability) -> float:
    t = result.tally
    usable = 1 - sum(t.dead.values()) / sum(t.dealt.values()) if sum(t.dealt.values()) else 0.0
    return (t.word + t.going_out) / t.weight + usable


def suggest_counts(mix, rules, finder, language: dict[str, float], total: int, *, samples: int, seed: int,
                   judge: Judge, progress=None) -> tuple[Judged, Judged]:
    """(the N-card start, the proposal) for the mix's faces."""
    faces = mix.face_counts()
    letters = "".join(sorted(split_letters(faces)))

    def judge_counts(counts: dict[str, int]) -> Judged:
        result = playability(mix, rules, finder, samples=samples, seed=seed, judge=judge,
                             types=sorted(counts.items()))
        if progress:
            progress.advance()
        return Judged(dict(counts), letter_distance(counts, language, letters), playability_score(result), result)

    current = start = judge_counts(scaled_counts(faces, total))
    movable = sorted(face for face in faces if face != WILD_FACE)
    for _ in range(MAX_MOVES):
        moves = []
        for a in movable:
            if current.counts[a] < 2:
                continue
            for b in movable:
                if b != a:
                    counts = Counter(current.counts)
                    counts[a] -= 1
                    counts[b] += 1
                    distance = letter_distance(counts, language, letters)
                    if distance < current.jensen_shannon_bits - 1e-12:
                        moves.append((distance, a, b, counts))
        moves.sort(key=lambda move: move[:3])
        best, passed = None, 0
        for distance, _, _, counts in moves[:MAX_TRIED]:
            judged = judge_counts(counts)
            if judged.playability >= current.playability:
                passed += 1
                if best is None or _gain(judged, current) > _gain(best, current):
                    best = judged
                if passed == CANDIDATES:
                    break
        if best is None:
            break
        current = best
    return start, current


def _gain(new: Judged, old: Judged) -> float:
    """Relative fall in distance plus relative rise in playability."""
    return ((old.jensen_shannon_bits - new.jensen_shannon_bits) / (old.jensen_shannon_bits or 1.0)
            + (new.playability - old.playability) / (old.playability or 1.0))
