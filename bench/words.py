"""Word finder speed: median time per query for random hands.

    python bench/words.py [--hands 2000] [--warmup 5000] [--scan-hands 40] [--seed 1] [--repeat 3]

Hands are drawn (seeded) from a 100-tile English-like letter mix. The finder
builds its lookup tables and Match objects lazily, so a warm-up over other
hands of each kind comes first, as in a long simulation; the measured hands
are fresh (some of their Match objects are made on the spot), and are then
timed again. Each case is measured --repeat times and the median of those
medians reported: other processes may load the machine, and one pass can be
off by half. Times are wall clock (time.perf_counter).

Cases: 7 single-letter cards with no wild, one wild, two wilds; A Word to the
Wise (5 consonants + 2 vowel dice); 6 letters and a two-letter card (one of
DIGRAPHS) with no wild and one wild; 7 letters that must use 1-6 table
letters. The baseline is a plain scan of the lexicon (each word's Counter,
precomputed, checked against the letters available; a card of two letters
counted as its letters), timed in the same run on the first --scan-hands
queries of each case: it finds the candidate words only, not their builds.
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

from spellpress.words.finder import WordFinder
from spellpress.words.lexicon import Lexicon

LETTER_MIX = {"e": 12, "a": 9, "i": 9, "o": 8, "n": 6, "r": 6, "t": 6, "l": 4, "s": 4,
              "u": 4, "d": 4, "g": 3, "b": 2, "c": 2, "m": 2, "p": 2, "f": 2, "h": 2,
              "v": 2, "w": 2, "y": 2, "k": 1, "j": 1, "x": 1, "q": 1, "z": 1}
BAG = "".join(letter * n for letter, n in LETTER_MIX.items())
CONSONANTS = "".join(c for c in BAG if c not in "aeiouy")
DIE = ["a", "e", "i", "o", "u", "WILD"]
DIGRAPHS = ["QU", "TH", "ER", "IN", "ST", "CH"]
VOWELS = set("aeiouy")


def seven(rng):
    return dict(hand="".join(rng.sample(BAG, 7)))


def awttw(rng):
    faces = [rng.choice(DIE) for _ in range(2)]
    return dict(hand="".join(rng.sample(CONSONANTS, 5)),
                reusable=[f for f in faces if f != "WILD"], reusable_wilds=faces.count("WILD"))


def digraph(rng, wilds):
    return dict(hand=[*rng.sample(BAG, 6), rng.choice(DIGRAPHS)], wilds=wilds)


def must_use(rng):
    return dict(hand="".join(rng.sample(BAG, 7)), must_use=rng.sample(BAG, rng.randint(1, 6)))


# name: (query maker, target ms or None)
CASES = {
    "no wild": (seven, 0.05),
    "one wild": (lambda rng: dict(seven(rng), wilds=1), 0.1),
    "two wilds": (lambda rng: dict(seven(rng), wilds=2), None),
    "AWttW (5 consonants + 2 vowel dice)": (awttw, 1.0),
    "digraph card, no wild": (lambda rng: digraph(rng, 0), 0.5),
    "digraph card, one wild": (lambda rng: digraph(rng, 1), 0.5),
    "must use 1-6 table letters": (must_use, 0.5),
}


def median_ms(fn, items) -> float:
    times = []
    for item in items:
        start = time.perf_counter()
        fn(item)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def scanner(words):
    counted = [(w, Counter(w)) for w in words]

    def scan(hand=(), wilds=0, must_use=(), reusable=(), reusable_wilds=0, **_) -> list[str]:
        have = Counter("".join(hand).lower() + "".join(must_use).lower())
        free = set(reusable) | (VOWELS if reusable_wilds else set())
        must = Counter("".join(must_use).lower())
        return [w for w, need in counted
                if sum(max(0, n - have[c]) for c, n in need.items() if c not in free) <= wilds
                and all(need[c] >= n for c, n in must.items())]
    return scan


def rss_mb() -> float:
    try:
        return int(Path("/proc/self/statm").read_text().split()[1]) * 4096 / 1e6
    except OSError:  # not Linux: peak instead
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=5000)
    parser.add_argument("--scan-hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    lexicon = Lexicon()
    base = rss_mb()
    start = time.perf_counter()
    finder = WordFinder(lexicon)
    built = time.perf_counter() - start
    start = time.perf_counter()
    finder.find("abcdefg", wilds=1)   # the one-wild tables, built on first use
    first = time.perf_counter() - start
    print(f"lexicon: {len(lexicon)} words; index built in {built:.2f} s, "
          f"one-wild tables on first use {first:.2f} s; memory +{rss_mb() - base:.0f} MB")

    queries = {name: [make(rng) for _ in range(args.hands)] for name, (make, _) in CASES.items()}
    start = time.perf_counter()
    for name, (make, _) in CASES.items():
        count = args.warmup if name in ("no wild", "one wild") else args.warmup // 5
        for _ in range(count):
            finder.find(**make(rng))
    print(f"warm-up: {args.warmup} hands with no wild and one wild, {args.warmup // 5} of each other "
          f"case, in {time.perf_counter() - start:.1f} s; memory +{rss_mb() - base:.0f} MB")

    scan = scanner(lexicon.words)
    for query in queries["one wild"][:3] + queries["no wild"][:3]:  # the two agree on what they find
        assert {m.word for m in finder.find(**query, min_length=1)} == set(scan(**query))

    fresh, again, scans = {}, {}, {}
    for name in CASES:
        runs = [median_ms(lambda q: finder.find(**q), queries[name])]   # fresh hands
        runs += [median_ms(lambda q: finder.find(**q), queries[name]) for _ in range(args.repeat - 1)]
        fresh[name], again[name] = runs[0], statistics.median(runs[1:]) if runs[1:] else runs[0]
        scans[name] = median_ms(lambda q: scan(**q), queries[name][: args.scan_hands])
    if args.repeat > 1:   # fresh hands again, in new finder state: seeds 2.. of the same run
        for name in CASES:
            more = []
            for k in range(1, args.repeat):
                other = random.Random(args.seed + 1000 * k)
                more.append(median_ms(lambda q: finder.find(**q),
                                      [CASES[name][0](other) for _ in range(args.hands // 2)]))
            fresh[name] = statistics.median([fresh[name], *more])

    print(f"\nmedian ms per query over {args.hands} fresh queries per case (seed {args.seed}; "
          f"median of {args.repeat} passes):")
    print(f"  {'case':38s} {'fresh':>8s} {'again':>8s} {'target':>7s}  {'scan':>8s} {'scan/fresh':>10s}")
    for name, (_, target) in CASES.items():
        verdict = "" if target is None else f"{target:5.2f} {'met' if fresh[name] <= target else 'NOT met'}"
        print(f"  {name:38s} {fresh[name]:8.4f} {again[name]:8.4f} {verdict:13s} "
              f"{scans[name]:8.2f} {scans[name] / fresh[name]:8.0f}x")
    ratio = min(scans["no wild"] / fresh["no wild"], scans["one wild"] / fresh["one wild"])
    print(f"\nscan on the first {args.scan_hands} queries of each case; speed-up over it "
          f">= 50x for no wild and one wild: {'met' if ratio >= 50 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
