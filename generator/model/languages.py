"""The languages a game's words may be in: alphabet, accent policy, shipped list, hyphenation.

Accent policy (generator/data/lexicon/README.md, docs/yaml.md): a letter of the
language's alphabet is kept; a ligature or ß is spelt out (œ -> oe, æ -> ae,
ß -> ss); any other accented letter loses its accent (é -> e, ç -> c).
- en: a-z.
- fr: a-z, every accent folded, as French Scrabble does.
- de: a-z and ä ö ü as letters of their own (German Scrabble's tiles), ß as ss.
- es: a-z and ñ as a letter of its own (Spanish Scrabble's tile), á é í ó ú ü folded.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from spellpress.model.schema import SHIPPED_LISTS

LEXICON_DIR = Path(__file__).resolve().parent.parent / "data" / "lexicon"
BASIC = "abcdefghijklmnopqrstuvwxyz"
SPELT_OUT = {"œ": "oe", "æ": "ae", "ß": "ss"}


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    own_letters: str = ""           # letters beyond a-z that stay letters (cards) of their own
    hyphenation: str | None = None  # pyphen's dictionary for syllable counts (English uses CMUdict)

    @property
    def alphabet(self) -> str:
        return BASIC + self.own_letters

    @property
    def list_name(self) -> str:
        return SHIPPED_LISTS[self.code]

    @property
    def words_file(self) -> Path:
        return LEXICON_DIR / "words.txt" if self.code == "en" else LEXICON_DIR / self.code / "words.txt"

    @cached_property
    def word(self) -> re.Pattern:
        return re.compile(f"[{self.alphabet}]+")

    def fold(self, word: str) -> str:
        """The word lower-cased, in this language's alphabet where its accent policy allows.

        English folds nothing: an accented word there stays as it is (and is refused)."""
        word = unicodedata.normalize("NFC", word.strip().lower())
        if self.code == "en":
            return word
        return "".join(self._fold_letter(c) for c in word)

    def _fold_letter(self, letter: str) -> str:
        if letter in self.alphabet:
            return letter
        if letter in SPELT_OUT:
            return SPELT_OUT[letter]
        base = unicodedata.normalize("NFD", letter)[0]
        return base if base in BASIC else letter


LANGUAGES: dict[str, Language] = {language.code: language for language in (
    Language("en", "English"),
    Language("fr", "French", hyphenation="fr_FR"),
    Language("de", "German", own_letters="äöü", hyphenation="de_DE"),
    Language("es", "Spanish", own_letters="ñ", hyphenation="es"),
)}
BY_LIST = {language.list_name: language for language in LANGUAGES.values()}
ALL_LETTERS = "".join(dict.fromkeys("".join(language.alphabet for language in LANGUAGES.values())))
