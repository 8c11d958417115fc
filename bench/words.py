"""Word finder speed: median time per query for random 7-card hands.

    python bench/words.py [--hands 2000] [--warmup 5000] [--scan-hands 40] [--seed 1]

Hands are drawn (seeded) from a 100-tile English-like letter mix. The finder
builds its lookup tables and Match objects lazily, so a warm-up over other
hands comes first, as in a long simulation; the measured hands are fresh
(some of their Match objects are made on the spot), and are then timed again. The baseline is a plain scan of
the lexicon (each word's Counter, precomputed, checked against the hand's),
timed in the same run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.words.finder import WordFinder  # noqa: E402
from generator.words.lexicon import Lexicon  # noqa: E402

LETTER_MIX = {"e": 12, "a": 9, "i": 9, "o": 8, "n": 6, "r": 6, "t": 6, "l": 4, "s": 4,
              "u": 4, "d": 4, "g": 3, "b": 2, "c": 2, "m": 2, "p": 2, "f": 2, "h": 2,
              "v": 2, "w": 2, "y": 2, "k": 1, "j": 1, "x": 1, "q": 1, "z": 1}
BAG = "".join(letter * n for letter, n in LETTER_MIX.items())
CONSONANTS = "".join(c for c in BAG if c not in "aeiouy")
DIE = ["a", "e", "i", "o", "u", "WILD"]
TARGETS = {"no wild": 0.05, "one wild": 0.1, "AWttW (5 consonants + 2 vowel dice)": 1.0}


def median_ms(fn, items) -> float:
    times = []
    for item in items:
        start = time.perf_counter()
        fn(item)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def scanner(words):
    counted = [(w, Counter(w)) for w in words]

    def scan(hand: str, wilds: int = 0) -> list[str]:
        have = Counter(hand)
        if not wilds:
            return [w for w, need in counted if all(have[c] >= n for c, n in need.items())]
        return [w for w, need in counted
                if sum(max(0, n - have[c]) for c, n in need.items()) <= wilds]
    return scan


def awttw_query(rng: random.Random) -> dict:
    faces = [rng.choice(DIE) for _ in range(2)]
    return dict(hand="".join(rng.sample(CONSONANTS, 5)),
                reusable=[f for f in faces if f != "WILD"], reusable_wilds=faces.count("WILD"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=5000)
    parser.add_argument("--scan-hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    lexicon = Lexicon()
    start = time.perf_counter()
    finder = WordFinder(lexicon)
    print(f"lexicon: {len(lexicon)} words; index built in {time.perf_counter() - start:.2f} s")

    warm = ["".join(rng.sample(BAG, 7)) for _ in range(args.warmup)]
    hands = ["".join(rng.sample(BAG, 7)) for _ in range(args.hands)]
    dice_warm = [awttw_query(rng) for _ in range(args.warmup // 5)]
    dice = [awttw_query(rng) for _ in range(args.hands)]
    start = time.perf_counter()
    for hand in warm:
        finder.find(hand)
        finder.find(hand, wilds=1)
    for query in dice_warm:
        finder.find(**query)
    print(f"warm-up: {args.warmup} hands in {time.perf_counter() - start:.1f} s")

    scan = scanner(lexicon.words)
    for hand in hands[:5]:  # the two agree on what they find
        for wilds in (0, 1):
            assert {m.word for m in finder.find(hand, wilds=wilds, min_length=1)} == set(scan(hand, wilds))

    results = {
        "no wild": median_ms(lambda h: finder.find(h), hands),
        "one wild": median_ms(lambda h: finder.find(h, wilds=1), hands),
        "AWttW (5 consonants + 2 vowel dice)": median_ms(lambda q: finder.find(**q), dice),
    }
    again = {name: median_ms(fn, items) for name, fn, items in (
        ("no wild", lambda h: finder.find(h), hands),
        ("one wild", lambda h: finder.find(h, wilds=1), hands),
        ("AWttW (5 consonants + 2 vowel dice)", lambda q: finder.find(**q), dice))}
    scan_hands = hands[: args.scan_hands]
    scan_ms = median_ms(scan, scan_hands)
    scan_wild_ms = median_ms(lambda h: scan(h, 1), scan_hands)

    print(f"\nmedian ms per query over {args.hands} fresh hands (seed {args.seed}):")
    for name, ms in results.items():
        verdict = "met" if ms <= TARGETS[name] else "NOT met"
        print(f"  {name:38s} {ms:8.4f} ms   target <= {TARGETS[name]} ms: {verdict}"
              f"   (same hands again: {again[name]:.4f} ms)")
    print(f"  {'plain scan, no wild':38s} {scan_ms:8.4f} ms   ({len(scan_hands)} hands)")
    print(f"  {'plain scan, one wild':38s} {scan_wild_ms:8.4f} ms")
    ratio, ratio_wild = scan_ms / results["no wild"], scan_wild_ms / results["one wild"]
    print(f"\nspeed-up over the scan: {ratio:.0f}x no wild, {ratio_wild:.0f}x one wild "
          f"(target >= 50x: {'met' if min(ratio, ratio_wild) >= 50 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
