"""A game's own word list: CPU time of `letters` and `simulate` against the shipped English list.

    python bench/word_lists.py [--game word-to-the-wise] [--games 200] [--lists fr,de,es,en+es,en+fr+de+es]

Real lists of several sizes made from the shipped ones (each language alone, then several
together, every word folded to a-z: languages concatenated, as a designer might; some past the limits),
written as the game's `words.lexicon: words.txt`. Each command runs in a fresh process
(`spellpress` itself), its CPU time (user + system, from the OS) printed with the ratio to the
shipped English list measured in the same run, the list's size, words and density
(words/density.py), and whether `check` accepts it. CPU time, not wall time: on a loaded
machine the wall time says more about the other processes than about Spellpress.

Issue 31 item 9 chose the word-list limits from these figures and from larger real lists
(SCOWL, Hunspell dictionaries expanded): docs/yaml.md, "Limits".
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spellpress.model.languages import LANGUAGES  # noqa: E402
from spellpress.words.density import letter_sets_made  # noqa: E402

CODES = {"en": "english", "fr": "french", "de": "german", "es": "spanish"}


def folded(word: str) -> str:
    word = word.replace("ß", "ss").replace("œ", "oe").replace("æ", "ae")
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def word_list(codes: list[str]) -> list[str]:
    words: dict[str, None] = {}
    for code in codes:
        for word in LANGUAGES[code].words_file.read_text(encoding="utf-8").split():
            word = folded(word.lower())
            if word.isascii() and word.isalpha():
                words[word] = None
    return sorted(words)


def cpu_seconds(argv: list[str], cwd: Path) -> tuple[float, int]:
    run = subprocess.Popen([sys.executable, "-m", "spellpress", *argv], cwd=cwd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)})
    _, status, usage = os.wait4(run.pid, 0)
    run.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, run.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="word-to-the-wise")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--lists", default="fr,de,es,en+es,en+fr+de+es")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        base = None
        print(f"{'list':14} {'MB':>5} {'words':>9} {'density':>7}  {'check':>10}  {'letters':>16}  {'simulate':>16}")
        for spec in ["shipped", *args.lists.split(",")]:
            folder = Path(scratch) / spec.replace("+", "-") / args.game
            shutil.copytree(ROOT / "cards" / args.game, folder)
            if spec == "shipped":
                words = list(LANGUAGES["en"].words_file.read_text(encoding="utf-8").split())
            else:
                words = word_list(spec.split("+"))
                (folder / "words.txt").write_text("".join(w + "\n" for w in words), encoding="utf-8")
                game = folder / "game.yaml"
                game.write_text(game.read_text().replace("words:\n", "words:\n  lexicon: words.txt\n", 1))
            size = sum(len(w) + 1 for w in words) / 1e6
            density = letter_sets_made(words, 26)
            _, checked = cpu_seconds(["check", str(folder)], Path(scratch))
            if checked != 0:
                print(f"{spec:14} {size:5.1f} {len(words):9,} {density:7.1f}  {'refused':>10}")
                continue
            letters, letters_exit = cpu_seconds(["letters", str(folder), "--out", str(Path(scratch) / "out")], Path(scratch))
            simulate, simulate_exit = cpu_seconds(["simulate", str(folder), "--games", str(args.games), "--workers", "1",
                                                   "--seed", "1"], Path(scratch))
            base = base or (letters, simulate)
            print(f"{spec:14} {size:5.1f} {len(words):9,} {density:7.1f}  {'accepted':>10}  "
                  f"{_shown(letters, base[0], letters_exit)}  {_shown(simulate, base[1], simulate_exit)}", flush=True)


def _shown(seconds: float, base: float, code: int) -> str:
    return f"{seconds:6.1f} s ({seconds / base:4.1f}x)" if code == 0 else f"{'failed, exit ' + str(code):>16}"


if __name__ == "__main__":
    main()
