"""Syllable counts: per-game overrides, then the shipped English list's counts (CMUdict, else the
rules, written by `make lexicon` beside words.txt), then CMUdict, then spelling rules.

    python -m spellpress.words.syllables --accuracy

reports how often the rules agree with CMUdict on held-out words (words whose
hash puts them outside the set the rules were tuned against).
"""

from __future__ import annotations

import argparse
import re
import sys
import zlib
from collections.abc import Mapping
from functools import cache
from pathlib import Path

CMU_FILE = Path(__file__).resolve().parent.parent / "data" / "cmudict" / "syllables.tsv"
LEXICON_FILE = Path(__file__).resolve().parent.parent / "data" / "lexicon" / "syllables.txt"


@cache
def lexicon_table() -> dict[str, int]:
    """The shipped English words' counts: line n of syllables.txt is that of line n of words.txt."""
    from spellpress.words.lexicon import shipped_words

    words = shipped_words()
    counts = LEXICON_FILE.read_bytes().split()
    if len(counts) != len(words):
        raise ValueError(f"{LEXICON_FILE} has {len(counts)} counts for {len(words)} words: run `make lexicon`")
    return dict(zip(words, map(int, counts), strict=True))


@cache
def cmu_table() -> dict[str, int]:
    table = {}
    for line in CMU_FILE.read_text(encoding="ascii").splitlines():
        word, _, count = line.partition("\t")
        table[word] = int(count)
    return table


def syllables(word: str, overrides: Mapping[str, int] | None = None, language: str = "en") -> int:
    word = word.strip().lower()
    if overrides and word in overrides:
        return overrides[word]
    if language != "en":
        return hyphenated_syllables(word, language)
    found = lexicon_table().get(word)
    if found is None:
        found = cmu_table().get(word)
    return found if found is not None else rule_syllables(word)


@cache
def _hyphenator(language: str):
    import pyphen  # only for a game in another language

    from spellpress.model.languages import LANGUAGES

    return pyphen.Pyphen(lang=LANGUAGES[language].hyphenation, left=1, right=1)


def hyphenated_syllables(word: str, language: str) -> int:
    """Syllables as the language's hyphenation patterns split the word (pyphen's dictionaries)."""
    return len(_hyphenator(language).positions(word)) + 1 if word else 0


# Rules, chosen by looking only at tune-set errors: strip suffixes that add a
# known number of syllables, count vowel groups in the stem, then correct.
VOWEL_GROUP = re.compile(r"[aeiouy]+")
SUFFIXES = (  # (suffix, syllables it adds, stem must match)
    ("ness", 1, None), ("less", 1, None), ("ment", 1, None), ("ful", 1, None),
    ("ically", 2, None), ("ly", 1, None), ("ing", 1, None),
    ("ed", 1, re.compile(r".*[td]$")), ("ed", 0, re.compile(r".*[^e]$")),
    ("es", 1, re.compile(r".*([sxzcg]|[cs]h)$")), ("s", 0, re.compile(r".*[^su]$")),
)
ADD = [re.compile(p) for p in (
    r"[^aeiouyl]le$",                    # syllabic -le: table, little
    r"[^gq]ua", r"uo", r"iu",            # dual, duo, stadium
    r"[^ctsgx]i[ao]", r"eo",             # radio, vegetarian, video
    r"[ia]sm$",                          # criticism, sarcasm
    r"i(er|est)$", r"iet",               # happier, driest, quiet
    r"[aeiou][aeiouy](?=ing$)",          # being, going (stem kept ing)
    r"oe[^aeiouy]",                      # poet, poem
    r"eate$", r"[ct]iat",                # create, appreciate
    r"[^aeiouylrwh]l$",                   # stem of a -le word: dribbl(ed)
)]
_COMPOUND_FIRSTS = (
    "base|bone|brake|care|case|cheese|eye|face|fire|fore|game|gate|globe|grape|grave|guide|"
    "here|home|house|ice|lace|late|life|lime|line|lode|make|mile|name|nose|note|pipe|place|"
    "police|race|safe|sale|service|shoe|shore|side|smoke|snake|some|space|spoke|stone|store|"
    "strike|take|there|time|tribe|ware|where|wide|wife|wire"
)
COMPOUND_E = rf"^(?:{_COMPOUND_FIRSTS})(?=[a-z]{{3}})"
SUBTRACT = [re.compile(p) for p in (
    r"[^aeiouy]e$",                      # silent final e: make, cake
    r"[^r]gue$",                         # league, vague (not argue)
    COMPOUND_E,                          # silent e inside compounds: homeowner
)]


def _core(stem: str) -> int:
    stem = re.sub(r"qu", "q", stem)
    stem = re.sub(r"^y|y(?=[aeiou])", "j", stem)   # consonant y: yes, player
    if not stem:
        return 0
    count = len(VOWEL_GROUP.findall(stem))
    count += sum(len(p.findall(stem)) for p in ADD)
    count -= sum(len(p.findall(stem)) for p in SUBTRACT)
    return max(1, count)


def rule_syllables(word: str) -> int:
    word = re.sub(r"[^a-z]", "", word.lower())
    extra = 0
    stripped = True
    while stripped:
        stripped = False
        for suffix, adds, stem_rule in SUFFIXES:
            stem = word[: -len(suffix)]
            if (word.endswith(suffix) and VOWEL_GROUP.search(stem) and len(stem) >= 2
                    and (stem_rule is None or stem_rule.fullmatch(stem))):
                word, extra, stripped = stem, extra + adds, True
                break
    return max(1, _core(word) + extra) if word else 0


def is_held_out(word: str) -> bool:
    """One word in five, fixed by its CRC-32, is never looked at while tuning."""
    return zlib.crc32(word.encode()) % 5 == 0


def accuracy(held_out: bool = True, words: set[str] | None = None) -> tuple[float, int]:
    """Share of CMU words (held-out or tune set) whose rule count matches CMU."""
    sample = [(w, n) for w, n in cmu_table().items()
              if is_held_out(w) == held_out and (words is None or w in words)]
    right = sum(rule_syllables(w) == n for w, n in sample)
    return right / len(sample), len(sample)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Syllable counts")
    parser.add_argument("words", nargs="*")
    parser.add_argument("--accuracy", action="store_true",
                        help="report the rules' agreement with CMUdict")
    args = parser.parse_args(argv)
    if args.accuracy:
        from spellpress.words.lexicon import shipped_words
        lexicon = set(shipped_words())
        for label, held, subset in (("held-out, all CMU words", True, None),
                                    ("held-out, CMU words in the lexicon", True, lexicon),
                                    ("tune set, all CMU words", False, None)):
            share, n = accuracy(held, subset)
            print(f"{label}: {share:.1%} of {n}")
    for word in args.words:
        print(word, syllables(word))
    return 0


if __name__ == "__main__":
    sys.exit(main())
