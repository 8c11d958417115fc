"""Regenerate generator/data/lexicon/words.txt from Debian's scowl package.

    python -m spellpress.words.build_lexicon [--scowl-dir DIR]

A list for word games (see generator/data/lexicon/README.md):
- the english-words files of sizes 10 to 60 (no spelling variants, proper names,
  abbreviations or contractions), lines matching ^[a-z]+$;
- without the plurals of letter names (cs, gs, ks, ls, ms, rs, ts) and without
  single letters other than the words a and i;
- with the two-letter words of word-game play (WORD_GAME_TWOS: the public-domain
  ENABLE list's two-letter words, plus qi and za) that SCOWL has at any size,
  in its English or American word files.
The output is sorted and unique, so reruns are byte-identical.

Beside it, levels.txt keeps each word's commonness: line n holds the SCOWL size
level (10 = most common ... 95 = rarest) of line n of words.txt, the smallest size
whose english-words (or, for WORD_GAME_TWOS only, american-words) file lists it.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

SIZES = (10, 20, 35, 40, 50, 55, 60)
LARGER_SIZES = (70, 80, 95)  # searched only for WORD_GAME_TWOS, as are the american-words files
WORD_GAME_TWOS = frozenset("""
    aa ab ad ae ag ah ai al am an ar as at aw ax ay ba be bi bo by de do ed ef eh el em en er es et ex
    fa go ha he hi hm ho id if in is it jo ka la li lo ma me mi mm mo mu my na ne no nu od oe of oh oi om
    on op or os ow ox oy pa pe pi qi re sh si so ta ti to uh um un up us ut we wo xi xu ya ye yo za
""".split())
LETTER_PLURAL = re.compile(r"[b-df-hj-np-tv-z]s")  # "cs" is the plural of the letter c, not a word
SINGLE_LETTER_WORDS = frozenset("ai")
WORD = re.compile(r"[a-z]+")
DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "lexicon"
DEFAULT_SCOWL_DIR = Path("/usr/share/dict/scowl")
DEFAULT_COPYRIGHT = Path("/usr/share/doc/scowl/copyright")
MISSING = "SCOWL word lists not found in {}: run `apt-get install scowl` (Debian/Ubuntu) or pass --scowl-dir"


def read_levels(scowl_dir: Path) -> dict[str, int]:
    """Each word of the list and its SCOWL size level: the smallest size that lists it."""
    levels: dict[str, int] = {}
    for size in SIZES:
        path = scowl_dir / f"english-words.{size}"
        if not path.is_file():
            raise FileNotFoundError(MISSING.format(scowl_dir) + f" (missing {path.name})")
        for line in _lines(path):
            if WORD.fullmatch(line):
                levels.setdefault(line, size)
    american = [scowl_dir / f"american-words.{size}" for size in SIZES + LARGER_SIZES]  # "ax" is American
    for path in [scowl_dir / f"english-words.{size}" for size in LARGER_SIZES] + american:
        if path.is_file():
            size = int(path.suffix[1:])
            for line in _lines(path):
                if line in WORD_GAME_TWOS and levels.get(line, size + 1) > size:
                    levels[line] = size
    return {word: level for word, level in levels.items() if word_game_word(word)}


def _lines(path: Path) -> list[str]:
    # SCOWL ships these as UTF-8 (older releases: Latin-1); a-z is the same in both.
    return path.read_bytes().decode("utf-8", errors="replace").splitlines()


def word_game_word(word: str) -> bool:
    """False for what word games refuse although a spelling list has it: letter plurals, lone letters."""
    if len(word) == 1:
        return word in SINGLE_LETTER_WORDS
    return not LETTER_PLURAL.fullmatch(word)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scowl-dir", type=Path, default=DEFAULT_SCOWL_DIR)
    parser.add_argument("--copyright", type=Path, default=DEFAULT_COPYRIGHT,
                        help="SCOWL copyright notice to ship beside the list")
    parser.add_argument("--out-dir", type=Path, default=DATA_DIR)
    args = parser.parse_args(argv)
    try:
        levels = read_levels(args.scowl_dir)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    args.out_dir.mkdir(parents=True, exist_ok=True)
    words = sorted(levels)
    (args.out_dir / "words.txt").write_text("\n".join(words) + "\n", encoding="ascii")
    (args.out_dir / "levels.txt").write_text("".join(f"{levels[w]}\n" for w in words), encoding="ascii")
    if args.copyright.is_file():
        shutil.copyfile(args.copyright, args.out_dir / "SCOWL-COPYRIGHT.txt")
    elif not (args.out_dir / "SCOWL-COPYRIGHT.txt").is_file():
        print(f"error: {args.copyright} not found; SCOWL's notice must ship with the list",
              file=sys.stderr)
        return 1
    print(f"wrote {len(words)} words to {args.out_dir / 'words.txt'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
