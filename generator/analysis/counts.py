"""Suggested counts: a deck of N cards with the game's faces, nearer the language's letter
frequency and at least as playable.

The game's counts are first scaled to N (largest remainders, at least one card of each
face; wild cards keep their share of the deck and are not searched, since a wild always
helps a hand and has no letter frequency). Then cards of one face become cards of another,
a few at a time (N // 32 at first, halving whenever no move is left, down to one): of the
moves that bring the letter mix nearer the language (Jensen-Shannon distance, digraph cards
counted as their letters), nearest first, each is judged on the same seeded hands
(playability.sample_hands deals decks a few cards apart alike) until CANDIDATES of them
lose no playability; of those, the one with the largest relative fall in distance plus
relative rise in playability is taken. The search stops at one card a move with no such
move left, or after MAX_MOVES moves.

Playability, the figure kept from falling: the chance a hand makes a word, plus the
chance it goes out, plus the share of dealt cards some word can use (1 - dead rate).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from spellpress.analysis.english import distribution, jensen_shannon_bits
from spellpress.analysis.mix import WILD_FACE, split_letters
from spellpress.analysis.playability import Judge, Playability, playability

CANDIDATES = 3    # moves that keep playability compared at each step
MAX_TRIED = 12    # moves judged on sampled hands at each step, at most
MAX_MOVES = 60    # steps of the search, at most
FIRST_STEP_DIVISOR = 32   # the search first moves total // 32 cards at a time (3 of 108), halving when stuck


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
    step = max(1, total // FIRST_STEP_DIVISOR)
    for _ in range(MAX_MOVES):
        best = _best_move(current, movable, step, judge_counts, language, letters)
        if best is None:
            if step == 1:
                break
            step //= 2
            continue
        current = best
    return start, current


def _best_move(current: Judged, movable: list[str], step: int, judge_counts, language, letters) -> Judged | None:
    """Of the moves of `step` cards from one face to another that bring the letters nearer
    the language, judged nearest first: the best gain among the first CANDIDATES that keep
    playability."""
    moves = []
    for a in movable:
        if current.counts[a] <= step:
            continue
        for b in movable:
            if b != a:
                counts = Counter(current.counts)
                counts[a] -= step
                counts[b] += step
                distance = letter_distance(counts, language, letters)
                if distance < current.jensen_shannon_bits - 1e-12:
                    moves.append((distance, a, b, counts))
    moves.sort(key=lambda move: move[:3])
    best, passed = None, 0
    for _, _, _, counts in moves[:MAX_TRIED]:
        judged = judge_counts(counts)
        if judged.playability >= current.playability:
            passed += 1
            if best is None or _gain(judged, current) > _gain(best, current):
                best = judged
            if passed == CANDIDATES:
                break
    return best


def _gain(new: Judged, old: Judged) -> float:
    """Relative fall in distance plus relative rise in playability."""
    return ((old.jensen_shannon_bits - new.jensen_shannon_bits) / (old.jensen_shannon_bits or 1.0)
            + (new.playability - old.playability) / (old.playability or 1.0))
