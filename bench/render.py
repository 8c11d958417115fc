"""Render benchmark: cards per second and PDF size, against decksmith in the same run.

    python bench/render.py [--repeat N] [--skip-decksmith] [--skip-exports]

Builds every game under cards/ (A4, no PNG/TTS, no cache: every run renders), then an equivalent deck in both
Spellpress and decksmith: 108 poker cards, each with a title, a text box and an
icon, to an A4 PDF. decksmith (GPL, from PyPI) is installed into
bench/.venv-decksmith for the benchmark only; it is never a project dependency.
Targets: >= 10x decksmith's cards per second, <= 1/5 of its file size, and
A Word to the Wise's full build under 0.6 s. Then bench/exports.py: every export
against the PDF-only build, peak memory, and the rebuild after a one-card edit.
"""

from __future__ import annotations

import argparse
import csv
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spellpress.build import BuildOptions, build  # noqa: E402
from spellpress.errors import UserError  # noqa: E402
from spellpress.paths import list_game_folders  # noqa: E402

DECKSMITH_VENV = ROOT / "bench" / ".venv-decksmith"
CARDS = 108
WORDS = ["apple", "brook", "cider", "dusk", "ember", "fable", "grove", "haze", "ivory", "jolt", "kestrel", "lumen"]


def best_of(repeat: int, action) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def spellpress_games(repeat: int, out: Path) -> list[tuple[str, int, float, int]]:
    rows = []
    for folder in list_game_folders(ROOT / "cards"):
        holder = {}

        def once(folder=folder, holder=holder):
            holder["result"] = build(folder, BuildOptions(out=out, cache=False))

        try:
            seconds = best_of(repeat, once)
        except UserError as exc:
            print(f"{folder.name}: skipped, it has errors ({exc.problems[0]})")
            continue
        result = holder["result"]
        rows.append((result.game.id, result.cards, seconds, result.files[0].stat().st_size))
    return rows


def equivalent_deck(folder: Path) -> None:
    """The comparison deck as a Spellpress game: title, text and icon on 108 poker cards."""
    (folder / "templates").mkdir(parents=True)
    (folder / "game.yaml").write_text(
        "name: Bench deck\nplayers: {min: 1, max: 1}\nprint: {paper: a4, backs: none}\ncomponents: [cards.yaml]\n")
    lines = ["name: Bench cards", "template: bench", "fields: {title: str, body: str}", "cards:"]
    for index in range(CARDS):
        word = WORDS[index % len(WORDS)]
        lines.append(f"  - {{title: '{word.title()} {index + 1}', "
                     f"body: 'The {word} card: draw one, then play a word of {3 + index % 5} letters.'}}")
    (folder / "cards.yaml").write_text("\n".join(lines) + "\n")
    (folder / "templates" / "bench.yaml").write_text(
        "boxes:\n"
        "  bg: {kind: fill, color: '#dcdcdc'}\n"
        "  title: {kind: text, x: 5mm, y: 6mm, w: 53mm, h: 10mm, text: '{{ title }}', font: Cinzel-Bold, size: 16, "
        "align: center}\n"
        "  body: {kind: text, x: 6mm, y: 50mm, w: 51mm, h: 30mm, text: '{{ body }}', size: 11}\n"
        "  icon: {kind: icon, x: 19mm, y: 18mm, w: 25mm, h: 25mm, icon: owl}\n")


def decksmith_available() -> Path | None:
    exe = DECKSMITH_VENV / "bin" / "decksmith"
    if exe.exists():
        return exe
    print("installing decksmith into bench/.venv-decksmith (benchmark only) ...", flush=True)
    try:
        subprocess.run([sys.executable, "-m", "venv", str(DECKSMITH_VENV)], check=True)
        subprocess.run([str(DECKSMITH_VENV / "bin" / "pip"), "install", "--quiet", "decksmith"], check=True)
    except subprocess.CalledProcessError:
        print("decksmith could not be installed: comparison skipped")
        return None
    return exe


def decksmith_deck(folder: Path, icon_png: Path) -> None:
    folder.mkdir(parents=True)
    shutil.copy(icon_png, folder / "icon.png")
    # 300 dpi poker card: 744 x 1039 px
    (folder / "deck.yaml").write_text(
        "width: 744\nheight: 1039\nbackground_color: [220, 220, 220]\nelements:\n"
        "  - {id: title, type: text, position: [372, 70], anchor: top-center, text: '%title%', color: [30, 30, 60], font_size: "
        "64, align: center}\n"
        "  - {id: icon, type: image, path: icon.png, position: [222, 210], filters: {resize: [300, 300]}}\n"
        "  - {id: body, type: text, position: [70, 590], text: '%body%', color: [30, 30, 60], font_size: 44, width: 600}\n")
    with open(folder / "deck.csv", "w", newline="") as handle:
        writer = csv.writer(handle, delimiter=";")
        writer.writerow(["title", "body"])
        for index in range(CARDS):
            word = WORDS[index % len(WORDS)]
            writer.writerow([f"{word.title()} {index + 1}",
                             f"The {word} card: draw one, then play a word of {3 + index % 5} letters."])


def icon_png(target: Path) -> None:
    from spellpress.layout.ops import FaceLayout, Icon
    from spellpress.paths import SHARED_ICONS
    from spellpress.write.pixels import rasterize

    face = FaceLayout(25.4, 25.4, 0.0, (Icon(str(SHARED_ICONS / "owl.svg"), 0, 0, 25.4, 25.4, (0.1, 0.1, 0.2, 1.0)),))
    rasterize([face], "icon", dpi=300)[0].save(target)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-decksmith", action="store_true")
    parser.add_argument("--skip-exports", action="store_true", help="skip bench/exports.py")
    args = parser.parse_args()
    if not args.skip_exports:
        import exports

        print("== exports and rebuilds (bench/exports.py) ==")
        exports.main()
        print("\n== render ==")
    work = Path(tempfile.mkdtemp(prefix="spellpress-bench-"))
    try:
        print(f"{'game':22} {'cards':>6} {'seconds':>8} {'cards/s':>9} {'PDF KiB':>9}")
        for game, cards, seconds, size in spellpress_games(args.repeat, work / "games"):
            print(f"{game:22} {cards:6d} {seconds:8.3f} {cards / seconds:9.0f} {size / 1024:9.1f}")
        wise = ROOT / "cards" / "word-to-the-wise"
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "spellpress", "build", str(wise), "--out", str(work / "cli")],
                       check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
        cli_seconds = time.perf_counter() - started
        print(f"\nA Word to the Wise, whole command (start-up included): {cli_seconds:.2f} s "
              f"(target < 0.6 s: {'met' if cli_seconds < 0.6 else 'NOT met'})")

        deck = work / "sp-deck"
        equivalent_deck(deck)
        ours = best_of(args.repeat, lambda: build(deck, BuildOptions(out=work / "sp-out", cache=False)))
        our_size = (work / "sp-out" / "sp-deck" / "sp-deck-a4.pdf").stat().st_size
        print(f"\nEquivalent deck ({CARDS} poker cards: title, text, icon; A4 PDF)")
        print(f"  spellpress: {ours:.3f} s = {CARDS / ours:8.0f} cards/s, {our_size / 1024:8.1f} KiB")
        if args.skip_decksmith:
            return 0
        exe = decksmith_available()
        if exe is None:
            return 0
        icon = work / "owl.png"
        icon_png(icon)
        ds = work / "ds-deck"
        decksmith_deck(ds, icon)

        def run_decksmith():
            shutil.rmtree(ds / "output", ignore_errors=True)
            subprocess.run([str(exe), "build"], cwd=ds, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            subprocess.run([str(exe), "export", "output", "--output", "deck.pdf", "--page-size", "A4"], cwd=ds,
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        theirs = best_of(max(1, args.repeat - 1), run_decksmith)
        their_size = (ds / "deck.pdf").stat().st_size
        print(f"  decksmith:  {theirs:.3f} s = {CARDS / theirs:8.0f} cards/s, {their_size / 1024:8.1f} KiB")
        speed, size = theirs / ours, our_size / their_size
        print(f"  ratio: {speed:.1f}x the cards per second (target >= 10x: {'met' if speed >= 10 else 'NOT met'}), "
              f"{size:.3f} of the file size (target <= 0.2: {'met' if size <= 0.2 else 'NOT met'})")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
