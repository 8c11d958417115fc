"""The shipped word lists (English, French, German, Spanish), filtered per game."""

from __future__ import annotations

import hashlib
import re
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache, cached_property
from itertools import compress
from pathlib import Path

from spellpress.disk_cache import cached, is_digest, words_digest
from spellpress.model.languages import BY_LIST, LANGUAGES, Language
from spellpress.model.schema import SHIPPED_LEXICON as SHIPPED
from spellpress.model.schema import WordsSpec
from spellpress.model.vocabulary import VOCABULARIES, vocabulary_level  # noqa: F401 - re-exported

WORDS_FILE = LANGUAGES["en"].words_file
WORD = re.compile(r"[a-z]+")
ALPHABET = "abcdefghijklmnopqrstuvwxyz"
READING = 1  # raise when the words read from a file change for the same bytes (Lexicon.digest's key)


@cache
def shipped_words(name: str = SHIPPED) -> tuple[str, ...]:
    """A committed word-game list by name (generator/data/lexicon/README.md), read once per process,
    and only by a process that uses it."""
    return tuple(BY_LIST[name].words_file.read_text(encoding="utf-8").split())




_SHARED: dict[tuple, Lexicon] = {}


def lexicon_for(words: WordsSpec) -> Lexicon:
    """The lexicon of a game's `words:` settings (WordsSpec), made once per process."""
    settings = (words.min_length, tuple(sorted(words.allow)), tuple(sorted(words.deny)), words.lexicon, words.language,
                words.vocabulary)
    lexicon = _SHARED.get(settings)
    if lexicon is None:
        lexicon = _SHARED[settings] = Lexicon(min_length=words.min_length, allow=words.allow, deny=words.deny,
                                              source=words.lexicon, language=words.language, vocabulary=words.vocabulary)
    return lexicon


def levels_file(name: str) -> Path | None:
    """Where a shipped list keeps its words' SCOWL levels (levels.txt beside words.txt), if it has them."""
    path = BY_LIST[name].words_file.with_name("levels.txt") if name in BY_LIST else None
    return path if path is not None and path.is_file() else None


@cache
def shipped_levels(name: str = SHIPPED) -> WordLevels:
    """Each word of a shipped list and its SCOWL size level (10 most common ... 95 rarest);
    line n of levels.txt is the level of line n of words.txt."""
    path = levels_file(name)
    if path is None:
        raise ValueError(f"the word list {name!r} has no commonness levels")
    raw = path.read_bytes()
    words = shipped_words(name)
    levels: Sequence[int]
    if len(raw) == 3 * len(words) and raw[2::3].count(b"\n") == len(words) and not raw.translate(None, b"0123456789\n"):
        levels = TwoDigitLevels(raw)  # as make lexicon writes it: nothing to parse until a word is looked up
    else:
        levels = array("B", map(int, raw.split()))
    if len(levels) != len(words):
        raise ValueError(f"{path} has {len(levels)} levels for {len(words)} words: run `make lexicon`")
    return WordLevels(words, levels)


class TwoDigitLevels(Sequence[int]):
    """levels.txt's lines of two digits, each read when asked (a run looks up the few words its winners played)."""

    def __init__(self, raw: bytes):
        self.raw = raw

    def __len__(self) -> int:
        return len(self.raw) // 3

    def __getitem__(self, at):  # an index only (WordLevels asks no slices)
        return int(self.raw[3 * at:3 * at + 2])


class WordLevels(Mapping):
    """word -> its level, read from the sorted list and its levels side by side (bisect): no dict of every
    word for a run that looks up the few words its winners played."""

    def __init__(self, words: tuple[str, ...], levels: Sequence[int]):
        self.words, self.levels = words, levels

    def _at(self, word: object) -> int:
        if not isinstance(word, str):
            return -1
        at = bisect_left(self.words, word)
        return at if at < len(self.words) and self.words[at] == word else -1

    def get(self, word, default=None):
        at = self._at(word)
        return default if at < 0 else self.levels[at]

    def __getitem__(self, word) -> int:
        at = self._at(word)
        if at < 0:
            raise KeyError(word)
        return self.levels[at]

    def __contains__(self, word) -> bool:
        return self._at(word) >= 0

    def __iter__(self) -> Iterator[str]:
        return iter(self.words)

    def __len__(self) -> int:
        return len(self.words)


def word_file_lines(path: Path, language: Language = LANGUAGES["en"]) -> Iterator[tuple[int, str]]:
    """(line number, word) of a plain word file: one word a line, blank lines and # comments skipped,
    each word lower-cased and folded by the language's accent policy."""
    for number, line in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), start=1):
        word = line.strip()
        if word and not word.startswith("#"):
            yield number, language.fold(word)


@cache
def _file_words(path: str, stamp: tuple[int, int], language: str) -> tuple[str, ...]:
    return tuple(word for _, word in word_file_lines(Path(path), LANGUAGES[language]))


def source_words(lexicon: str, language: str = "en") -> tuple[str, ...]:
    """The words of a game's `words.lexicon`: a shipped list by name, or a word file (an absolute path once loaded)."""
    if lexicon in BY_LIST:
        return shipped_words(lexicon)
    stat = Path(lexicon).stat()
    return _file_words(lexicon, (stat.st_mtime_ns, stat.st_size), language)


def _check_levels(source: str | None) -> None:
    """A ValueError unless the list has commonness levels (a vocabulary needs them)."""
    if source is None or levels_file(source) is None:
        raise ValueError(f"--vocabulary needs a word list with commonness levels (the English list); "
                         f"{source or 'a given word list'!r} has none")


def known_words(words: Iterable[str], source: str | None, vocabulary: int) -> frozenset[str]:
    """The words a player with a vocabulary of SCOWL level `vocabulary` knows (level at most that)."""
    _check_levels(source)
    assert source is not None
    levels = shipped_levels(source)
    return frozenset(word for word in words if levels.get(word, 100) <= vocabulary)


def _clean(words: Iterable[str], what: str, language: Language) -> frozenset[str]:
    cleaned = {language.fold(w) for w in words}
    bad = sorted(w for w in cleaned if not language.word.fullmatch(w))
    if bad:
        raise ValueError(f"{what} words must be letters {describe(language)} only, got {bad[:5]}")
    return frozenset(cleaned)


def describe(language: Language) -> str:
    """How an error names the language's alphabet: "a-z", "a-z and äöü"."""
    return "a-z" + (f" and {language.own_letters}" if language.own_letters else "")


class Lexicon:
    """A shipped list (or word file) plus a game's `allow` words, minus its `deny` words
    and anything shorter than `min_length` (which applies to allowed words too).
    `vocabulary` (a SCOWL level) keeps only the list's words of that level or more common;
    a game's `allow` words are its own and stay.
    `language` gives the alphabet and accent policy the words are read with.
    The words are read when first asked: a process that finds its tables on disk by `digest` never does."""

    def __init__(self, min_length: int = 1, allow: Iterable[str] = (),
                 deny: Iterable[str] = (), words: Iterable[str] | None = None, source: str = SHIPPED,
                 language: str = "en", vocabulary: int | None = None):
        if min_length < 1:
            raise ValueError("min_length must be at least 1")
        self.language = LANGUAGES[language]
        self.alphabet = self.language.alphabet
        self.min_length = min_length
        self.allow = _clean(allow, "allow", self.language)
        self.deny = _clean(deny, "deny", self.language)
        self.source, self.vocabulary = source, vocabulary
        self._given = None if words is None else _clean(words, "lexicon", self.language)
        if vocabulary is not None:
            _check_levels(source if words is None else None)

    @cached_property
    def words(self) -> tuple[str, ...]:
        """The words, sorted."""
        base: Iterable[str] = source_words(self.source, self.language.code) if self._given is None else self._given
        if self.vocabulary is not None:
            base = known_words(base, self.source if self._given is None else None, self.vocabulary)
        min_length = self.min_length
        if self._given is None and self.vocabulary is None and not self.allow and not self.deny and self.source in BY_LIST:
            # a shipped list is sorted and unique (make lexicon writes it so): no set, no sort
            listed = tuple(base)
            return tuple(compress(listed, map(min_length.__le__, map(len, listed))))
        kept = (set(base) | self.allow) - self.deny
        return tuple(sorted(w for w in kept if len(w) >= min_length))

    @cached_property
    def digest(self) -> str:
        """words_digest(self.words), the name of the words' tables in the disk cache: for a list read from a
        file, kept there under a digest of what decides the words (the file's bytes, the levels' with a
        vocabulary, the settings, READING), so a process that finds its tables on disk reads no word."""
        if self._given is not None:
            return words_digest(self.words)
        path = BY_LIST[self.source].words_file if self.source in BY_LIST else Path(self.source)
        inputs = hashlib.blake2b(path.read_bytes(), digest_size=16)
        levels = levels_file(self.source) if self.vocabulary is not None else None
        if levels is not None:
            inputs.update(levels.read_bytes())
        settings = (READING, self.source, self.language.code, self.min_length, sorted(self.allow), sorted(self.deny),
                    self.vocabulary)
        inputs.update(repr(settings).encode())
        return cached("words-digest", inputs.hexdigest(), lambda: words_digest(self.words), valid=is_digest)

    @cached_property
    def _set(self) -> frozenset[str]:
        return frozenset(self.words)  # made when a word is first looked up: a game that only searches never does

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        return word.lower() in self._set or (self.language.code != "en" and self.language.fold(word) in self._set)

    def __iter__(self) -> Iterator[str]:
        return iter(self.words)

    def __len__(self) -> int:
        return len(self.words)

    def letter_frequency(self) -> dict[str, float]:
        """Share of each letter of the alphabet among all letters of all words (sums to 1).

        This is dictionary frequency, not running-text frequency: it says how
        useful a letter is for making words, which is what a letter mix is for.
        """
        counts: Counter[str] = Counter()
        for word in self.words:
            counts.update(word)
        total = sum(counts.values()) or 1
        return {letter: counts[letter] / total for letter in self.alphabet}
