"""Simulation benchmark: games per second on one worker and on two, in the same run.

    python bench/simulate.py [--game word-to-the-wise] [--players 4] [--games 2000] [--full]
    python bench/simulate.py --check-ratios [--games 100]

--full also times the issue's reference run: 10,000 four-player games on every core.
Targets (A Word to the Wise): 10,000 four-player games in under 60 s on 2 cores,
and at least 1.7x from one worker to two. Each run starts in a fresh process, so
neither inherits the other's warm word-finder caches; on a virtual machine the
figures vary from run to run, so --repeat keeps the fastest of several.

--check-ratios times, for every game under cards/ that names a rules engine, the same
seeded games with and without --check (legality of every action and the invariants after
each) and prints checked/unchecked. Target: at most 2x for every engine. Each side runs in
a fresh process that first plays the same few warm-up games, so both start with the same
caches.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spellpress.simulate.runner import RunSpec  # noqa: E402


def timed(spec: RunSpec, workers: int) -> float:
    """Seconds for the run in a fresh process, so no run inherits another's warm caches."""
    code = (
        "import sys, time; sys.path.insert(0, sys.argv[1])\n"
        "from spellpress.simulate.runner import RunSpec, run\n"
        "spec = RunSpec(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), seed=1)\n"
        "started = time.perf_counter(); run(spec, workers=int(sys.argv[5])); print(time.perf_counter() - started)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(ROOT), spec.folder, str(spec.players), str(spec.games), str(workers)],
                         check=True, capture_output=True, text=True).stdout
    return float(out.split()[-1])


def timed_check(folder: str, players: int, games: int, check: bool) -> float:
    """Seconds for `games` games on one worker after a warm-up, in a fresh process."""
    code = (
        "import sys, time; sys.path.insert(0, sys.argv[1])\n"
        "from spellpress.simulate.runner import RunSpec, run\n"
        "folder, players, games, check = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == '1'\n"
        "run(RunSpec(folder, players, max(2, games // 10), seed=99), workers=1)\n"
        "started = time.perf_counter(); run(RunSpec(folder, players, games, seed=1, check=check), workers=1)\n"
        "print(time.perf_counter() - started)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(ROOT), folder, str(players), str(games), "1" if check else "0"],
                         check=True, capture_output=True, text=True).stdout
    return float(out.split()[-1])


def check_ratios(games: int, repeat: int) -> int:
    import yaml

    print(f"--check against an unchecked run, {games} games each on one worker (target: at most 2x)")
    print(f"  {'game':18} {'players':>7} {'unchecked':>10} {'checked':>9} {'ratio':>6}")
    worst = 0.0
    for folder in sorted((ROOT / "cards").iterdir()):
        spec = folder / "game.yaml"
        if not spec.is_file():
            continue
        data = yaml.safe_load(spec.read_text())
        if not (data.get("rules") or {}).get("engine"):
            continue
        players = data["players"]["min"]
        plain = min(timed_check(str(folder), players, games, False) for _ in range(repeat))
        checked = min(timed_check(str(folder), players, games, True) for _ in range(repeat))
        ratio = checked / plain
        worst = max(worst, ratio)
        print(f"  {folder.name:18} {players:7d} {plain:9.2f}s {checked:8.2f}s {ratio:5.2f}x")
    print(f"  worst: {worst:.2f}x (target <= 2x: {'met' if worst <= 2 else 'NOT met'})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="word-to-the-wise")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--full", action="store_true", help="also time 10,000 games on two workers")
    parser.add_argument("--repeat", type=int, default=1, help="time each run this many times and keep the fastest")
    parser.add_argument("--check-ratios", action="store_true",
                        help="time every game with and without --check and print the ratios")
    args = parser.parse_args()
    if args.check_ratios:
        return check_ratios(args.games if args.games != 2000 else 100, args.repeat)
    folder = str((ROOT / "cards" / args.game).resolve())
    spec = RunSpec(folder, args.players, args.games, seed=1)
    one = min(timed(spec, 1) for _ in range(args.repeat))
    two = min(timed(spec, 2) for _ in range(args.repeat))
    print(f"{args.game}, {args.players} players, {args.games} games")
    print(f"  1 worker : {one:6.2f} s = {args.games / one:7.0f} games/s")
    print(f"  2 workers: {two:6.2f} s = {args.games / two:7.0f} games/s")
    speedup = one / two
    print(f"  speed-up : {speedup:.2f}x (target >= 1.7x: {'met' if speedup >= 1.7 else 'NOT met'})")
    estimate = 10_000 / (args.games / two)
    print(f"  10,000 games on 2 workers: about {estimate:.0f} s (target < 60 s: {'met' if estimate < 60 else 'NOT met'})")
    if args.full:
        full = timed(RunSpec(folder, args.players, 10_000, seed=1), 2)
        print(f"  measured 10,000 games on 2 workers: {full:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
