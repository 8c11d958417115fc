"""Regenerate generator/data/lexicon/words.txt from Debian's scowl package.

    python -m generator.words.build_lexicon [--scowl-dir DIR]

Uses the english-words files of sizes 10 to 60 only (no spelling variants,
proper names, abbreviations or contractions) and keeps lines matching
^[a-z]+$. The output is sorted and unique, so reruns are byte-identical.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

SIZES = (10, 20, 35, 40, 50, 55, 60)
WORD = re.compile(r"[a-z]+")
DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "lexicon"
DEFAULT_SCOWL_DIR = Path("/usr/share/dict/scowl")
DEFAULT_COPYRIGHT = Path("/usr/share/doc/scowl/copyright")
MISSING = "SCOWL word lists not found in {}: run `apt-get install scowl` (Debian/Ubuntu) or pass --scowl-dir"


def read_words(scowl_dir: Path) -> list[str]:
    words: set[str] = set()
    for size in SIZES:
        path = scowl_dir / f"english-words.{size}"
        if not path.is_file():
            raise FileNotFoundError(MISSING.format(scowl_dir) + f" (missing {path.name})")
        # SCOWL ships these as UTF-8 (older releases: Latin-1); a-z is the same in both.
        text = path.read_bytes().decode("utf-8", errors="replace")
        words.update(line for line in text.splitlines() if WORD.fullmatch(line))
    return sorted(words)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scowl-dir", type=Path, default=DEFAULT_SCOWL_DIR)
    parser.add_argument("--copyright", type=Path, default=DEFAULT_COPYRIGHT,
                        help="SCOWL copyright notice to ship beside the list")
    parser.add_argument("--out-dir", type=Path, default=DATA_DIR)
    args = parser.parse_args(argv)
    try:
        words = read_words(args.scowl_dir)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    args.out_dir.mkdir(parents=True, exist_ok=True)
    (args.out_dir / "words.txt").write_text("\n".join(words) + "\n", encoding="ascii")
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
