"""The shipped English word list, filtered per game."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

from generator.model.game import SHIPPED_LEXICON as SHIPPED

WORDS_FILE = Path(__file__).resolve().parent.parent / "data" / "lexicon" / "words.txt"
WORD = re.compile(r"[a-z]+")
ALPHABET = "abcdefghijklmnopqrstuvwxyz"


@cache
def shipped_words() -> tuple[str, ...]:
    """The committed word-game list (from SCOWL; generator/data/lexicon/README.md), read once per process."""
    return tuple(WORDS_FILE.read_text(encoding="ascii").split())


def word_file_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, word) of a plain word file: one word a line, blank lines and # comments skipped."""
    for number, line in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), start=1):
        word = line.strip().lower()
        if word and not word.startswith("#"):
            yield number, word


@cache
def _file_words(path: str, stamp: tuple[int, int]) -> tuple[str, ...]:
    return tuple(word for _, word in word_file_lines(Path(path)))


def source_words(lexicon: str) -> tuple[str, ...]:
    """The words of a game's `words.lexicon`: the shipped list, or a word file (an absolute path once loaded)."""
    if lexicon == SHIPPED:
        return shipped_words()
    stat = Path(lexicon).stat()
    return _file_words(lexicon, (stat.st_mtime_ns, stat.st_size))


def _clean(words: Iterable[str], what: str) -> frozenset[str]:
    cleaned = {w.strip().lower() for w in words}
    bad = sorted(w for w in cleaned if not WORD.fullmatch(w))
    if bad:
        raise ValueError(f"{what} words must be letters a-z only, got {bad[:5]}")
    return frozenset(cleaned)


class Lexicon:
    """The shipped list plus a game's `allow` words, minus its `deny` words
    and anything shorter than `min_length` (which applies to allowed words too)."""

    def __init__(self, min_length: int = 1, allow: Iterable[str] = (),
                 deny: Iterable[str] = (), words: Iterable[str] | None = None, source: str = SHIPPED):
        if min_length < 1:
            raise ValueError("min_length must be at least 1")
        self.min_length = min_length
        self.allow = _clean(allow, "allow")
        self.deny = _clean(deny, "deny")
        base = source_words(source) if words is None else _clean(words, "lexicon")
        kept = (set(base) | self.allow) - self.deny
        self.words: tuple[str, ...] = tuple(sorted(w for w in kept if len(w) >= min_length))
        self._set = frozenset(self.words)

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.lower() in self._set

    def __iter__(self) -> Iterator[str]:
        return iter(self.words)

    def __len__(self) -> int:
        return len(self.words)

    def letter_frequency(self) -> dict[str, float]:
        """Share of each letter a-z among all letters of all words (sums to 1).

        This is dictionary frequency, not running-text frequency: it says how
        useful a letter is for making words, which is what a letter mix is for.
        """
        counts = Counter()
        for word in self.words:
            counts.update(word)
        total = sum(counts.values()) or 1
        return {letter: counts[letter] / total for letter in ALPHABET}
