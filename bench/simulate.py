"""Simulation benchmark: games per second on one worker and on two, and against an earlier tree.

    python bench/simulate.py [--game word-to-the-wise] [--players 4] [--games 2000] [--full]
    python bench/simulate.py --baseline [REF] [--only GAME,...] [--players 4] [--seconds 5 | --games N] [--repeat 1] [--full]
    python bench/simulate.py --check-ratios [--games 100] [--only GAME,...]
    python bench/simulate.py --cold [--baseline REF] [--only GAME,...] [--players 4] [--repeat 1]

The first form times one game on one worker and on two, in the same run, and bounds the
issue's reference run from it: 10,000 four-player games of A Word to the Wise on two workers,
target at most 15 s on this 2-core machine, and at least 1.7x from one worker to two. --full
plays that run and judges the target on it (a short run overstates it: its word caches are
still cold). Each run starts in a fresh process, so neither inherits the other's warm
word-finder caches; on a virtual machine the figures vary from run to run, so --repeat keeps
the fastest of several.

--baseline times every engine (each game under cards/ that names a rules engine, at --players or
the nearest count it allows) in the current tree and in REF (a git ref, checked out with `git
archive` into a temporary folder; default BASELINE, main before issue 39's speed-ups), side by
side in the same run, each run in a fresh process after the same warm-up games (a fifth of the
run: the word caches fill as a long run goes on), and prints games per CPU-second before and
after, their ratio against issue 39's target, and the cold start: the CPU seconds of the first
game in a fresh process (loading the game and its rules included), target at most 0.3 s. The
machine is shared: CPU time, not wall time, and the load average beside every figure. The games
a run plays are sized from short baseline runs (about --seconds of baseline play, the most of 50, 100, 200, 500,
1,000, 2,000 or 5,000 games that fits: a run's figure depends on its length, as its caches fill, so two runs of
a tree are compared at the same count; --games N plays N games of every engine instead, for figures to
compare between runs). Every game's result
(scores, winners, turns, played cards, figures, metrics) is compared between the two trees, game
by game for the same seeds, once with the heuristic in every seat and once with a mixed lineup
(skill 1, skill 0.5, the random player, skill 0.8): any difference is printed and the exit
status is 1. With --full, also the reference run on two workers in both trees. Absolute seconds
on a shared machine are noise; the ratios, measured in the same run, are the figures to read.

--cold times only the cold start of every engine's game, in the current tree and in REF (default
BASELINE; `--baseline main` compares with today's main), four ways each: with the word cache warm
(a folder of the bench's own, filled by an untimed run of the same tree) and empty (a new folder for
every run: a first-ever run, which builds and writes every table and icon verdict it needs), each
without .pyc (spellpress's modules compiled from source at every start, as on a machine that sets
PYTHONDONTWRITEBYTECODE=1 and has no __pycache__ in the tree; the installed libraries' .pyc are
read as always) and with .pyc (every module read from bytecode an untimed run wrote under
PYTHONPYCACHEPREFIX, in a temporary folder). The figure is the COLD code's: CPU seconds of this
process from after `import spellpress.simulate.runner` to the end of the first game (the game
loaded and validated, its rules and word tables, one game played); the interpreter's start and the
runner's import are the same work in both trees and are left out. Target: at most 0.3 s.

--check-ratios times, for every game under cards/ that names a rules engine, the same
seeded games with and without --check (legality of every action and the invariants after
each) and prints checked/unchecked. Target: at most 2x for every engine. Each side runs in
a fresh process that first plays the same few warm-up games, so both start with the same
caches.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from baseline import Tree, run_in, source_tree  # noqa: E402

from spellpress.simulate.runner import RunSpec  # noqa: E402

BASELINE = "1aeccc6cd6f68d7b6fd2ea47cd3e249e51add12f"  # main before issue 39's speed-ups (issue 26's: fd075d2)
# issue 39's targets: games per CPU-second at 4 players against the baseline (1.5x for the other engines)
TARGET_RATIOS = {"word-rummy": 10.0, "evocabulary": 10.0, "magic-spell": 3.0}
OTHER_RATIO = 1.5
COLD_START_CPU = 0.3  # seconds of CPU for the first game in a fresh process
REFERENCE_GAME, REFERENCE_GAMES, REFERENCE_SECONDS = "word-to-the-wise", 10_000, 15.0
MIXED = (("heuristic", 1.0), ("heuristic", 0.5), ("random", 1.0), ("heuristic", 0.8))  # seats cycled over a lineup


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


def engine_games() -> list[tuple[str, int, int]]:
    """(folder name, fewest players, most players) of every game under cards/ that names a rules engine."""
    import yaml

    found = []
    for folder in sorted((ROOT / "cards").iterdir()):
        spec = folder / "game.yaml"
        if not spec.is_file():
            continue
        data = yaml.safe_load(spec.read_text())
        if (data.get("rules") or {}).get("engine"):
            found.append((folder.name, data["players"]["min"], data["players"]["max"]))
    return found


def check_ratios(games: int, repeat: int, only: list[str]) -> int:
    print(f"--check against an unchecked run, {games} games each on one worker (target: at most 2x)")
    print(f"  {'game':18} {'players':>7} {'unchecked':>10} {'checked':>9} {'ratio':>6}")
    worst = 0.0
    for name, players, _ in engine_games():
        if only and name not in only:
            continue
        folder = ROOT / "cards" / name
        plain = min(timed_check(str(folder), players, games, False) for _ in range(repeat))
        checked = min(timed_check(str(folder), players, games, True) for _ in range(repeat))
        ratio = checked / plain
        worst = max(worst, ratio)
        print(f"  {folder.name:18} {players:7d} {plain:9.2f}s {checked:8.2f}s {ratio:5.2f}x")
    print(f"  worst: {worst:.2f}x (target <= 2x: {'met' if worst <= 2 else 'NOT met'})")
    return 0


# Runs in a fresh process (baseline.run_in): warm-up games, then the timed run; prints its seconds and a
# digest of every game's result, in game order (sets as sorted lists; dicts keep their order, but for the
# cards played, which the tally reads in any order and older Evocabulary listed in a set's order). With
# "trace", every action applied to a game's state (its clones' too) goes into that game's digest as well,
# written as a plain tuple (an engine's typed actions, named tuples, equal the plain tuples they replaced).
PLAY = """
import dataclasses, hashlib, time
import spellpress.simulate.play as play_module
from spellpress.simulate.runner import RunSpec, Seat, run
a = json.loads(sys.argv[2])
lineup = tuple(Seat(kind, skill) for kind, skill in a["lineup"])
if a["warmup"]:
    run(RunSpec(a["folder"], a["players"], a["warmup"], seed=99, lineup=lineup), workers=1)
moves = []
if a["trace"]:
    untraced = play_module.play_game
    class Traced:
        def __init__(self, rules, log):
            self.rules, self.log = rules, log
        def __getattr__(self, name):
            return getattr(self.rules, name)
        def new_state(self, *args, **kwargs):
            state, log = self.rules.new_state(*args, **kwargs), self.log
            base = type(state)
            class TracedState(base):
                def apply(self, action):
                    log.update(repr(plain(action)).encode() + b";")
                    return base.apply(self, action)
            state.__class__ = TracedState
            return state
    def plain(action):  # a typed action (a named tuple) is written as the plain tuple it equals
        return tuple(map(plain, action)) if isinstance(action, tuple) else action
    def traced(rules, *args, **kwargs):
        log = hashlib.sha256()
        outcome = untraced(Traced(rules, log), *args, **kwargs)
        moves.append(log.hexdigest())
        return outcome
    play_module.play_game = traced
import resource
def cpu():  # this process and its finished workers
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
started, started_cpu = time.perf_counter(), cpu()
result = run(RunSpec(a["folder"], a["players"], a["games"], seed=a["seed"], lineup=lineup), workers=a["workers"],
             keep_records=True)
seconds, cpu_seconds = time.perf_counter() - started, cpu() - started_cpu
def digest(record, moves):
    outcome = dataclasses.asdict(record.outcome)
    outcome["played"] = dict(sorted(outcome["played"].items()))  # an engine may list them in a set's order
    outcome.pop("words", None)  # newer than the baseline (the scored words, read from the same moves)
    text = json.dumps([record.index, record.lineup_offset, outcome, moves], default=sorted)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
digests = [digest(r, moves[i] if moves else "") for i, r in enumerate(result.records)]
print(json.dumps({"seconds": seconds, "cpu": cpu_seconds, "digests": digests}))
"""

# Runs in a fresh process: the CPU seconds of the first game, loading the game and its rules included
# (the interpreter's start and `import spellpress` are not: the same in both trees).
COLD = """
import time
from spellpress.simulate.runner import RunSpec, run
a = json.loads(sys.argv[2])
started = time.process_time()
run(RunSpec(a["folder"], a["players"], 1, seed=1), workers=1)
print(json.dumps({"cpu": time.process_time() - started}))
"""


def cold_start(tree: Tree, game: str, players: int, env: dict[str, str] | None = None) -> float:
    return run_in(tree, COLD, {"folder": str(tree.root / "cards" / game), "players": players}, env)["cpu"]


COLD_WAYS = (("warm", False), ("empty", False), ("warm", True), ("empty", True))  # (word cache, .pyc)


def cold_env(scratch: Path, tree: Tree, cache: str, pyc: bool) -> dict[str, str]:
    """The environment of one way of timing a cold start (see --cold): its word cache folder, and either
    bytecode for every module (written and read under a prefix of this tree's own) or none written."""
    env = dict(os.environ)
    if cache == "warm":
        env["SPELLPRESS_WORD_CACHE"] = str(scratch / f"words-{tree.label}")
    else:
        env["SPELLPRESS_WORD_CACHE"] = tempfile.mkdtemp(prefix="words-empty-", dir=scratch)
    if pyc:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(scratch / f"pyc-{tree.label}")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    return env


def cold_starts(tree: Tree, game: str, players: int, scratch: Path) -> dict[tuple[str, bool], float]:
    """The cold start of a game, each way of COLD_WAYS; an untimed run first fills the warm word cache (and,
    with .pyc, the bytecode)."""
    figures = {}
    for cache, pyc in COLD_WAYS:
        if cache == "warm":
            cold_start(tree, game, players, cold_env(scratch, tree, "warm", pyc))
        figures[cache, pyc] = cold_start(tree, game, players, cold_env(scratch, tree, cache, pyc))
    return figures


def own_bytecode(tree: Tree) -> int:
    """How many .pyc files of spellpress's own modules the tree holds (read by a run without a prefix)."""
    return sum(1 for _ in (tree.root / "generator").rglob("__pycache__/*.pyc"))


def compare_cold(ref: str, players_wanted: int, repeat: int, only: list[str]) -> int:
    """The cold start of every engine's game in the ref's tree and the current one, the four ways of --cold."""
    with source_tree(ROOT, ref) as before, source_tree(ROOT) as after, \
            tempfile.TemporaryDirectory(prefix="spellpress-cold-") as folder:
        scratch = Path(folder)
        print(f"cold start: CPU seconds from after `import spellpress.simulate.runner` to the end of the first game, "
              f"the fastest of {repeat}; before: {before.label}, after: the current tree (target <= {COLD_START_CPU:g} s)")
        print(f"  no .pyc: spellpress compiled at every start (.pyc of its own in the trees: before "
              f"{own_bytecode(before)}, after {own_bytecode(after)}); with .pyc: every module from bytecode. "
              "warm: the word cache filled by an earlier run; empty: a new cache folder (a first-ever run)")
        header = "  ".join(f"{f'{cache}, ' + ('.pyc' if pyc else 'no .pyc'):>21}" for cache, pyc in COLD_WAYS)
        print(f"  {'game':22} {'players':>7}  {header}   (before -> after)")
        worst: dict[tuple[str, bool], float] = {}
        for name, fewest, most in engine_games():
            if only and name not in only:
                continue
            players = min(most, max(fewest, players_wanted))
            runs: dict[str, list[dict]] = {"before": [], "after": []}
            sides = ("before", "after") if before.has_game(name) else ("after",)
            for _ in range(repeat):  # alternated, so a busy spell of the machine falls on both
                for side in sides:
                    runs[side].append(cold_starts(before if side == "before" else after, name, players, scratch))
            cells = []
            for way in COLD_WAYS:
                new = min(run[way] for run in runs["after"])
                old = f"{min(run[way] for run in runs['before']):5.2f}" if runs["before"] else "  -  "  # a game REF lacks
                worst[way] = max(worst.get(way, 0.0), new)
                cells.append(f"{old} -> {new:5.2f} s{'' if new <= COLD_START_CPU else '!':1}")
            print(f"  {name:22} {players:7d}  " + "  ".join(f"{cell:>21}" for cell in cells) + f"  [{load()}]", flush=True)
        verdicts = [f"{cache} cache {'with' if pyc else 'without'} .pyc {slowest:.2f} s "
                    f"({'met' if slowest <= COLD_START_CPU else 'NOT met'})" for (cache, pyc), slowest in worst.items()]
        print("  slowest after: " + "; ".join(verdicts) + "   (! over the target)")
    return 0


def load() -> str:
    """The machine's load average over the last minute: beside every figure, as the machine is shared."""
    return f"load {os.getloadavg()[0]:.2f}"


def play_in(tree: Tree, game: str, players: int, games: int, *, workers: int = 1, warmup: int = 0,
            lineup: tuple = MIXED[:1], trace: bool = False) -> dict:
    seats = [lineup[s % len(lineup)] for s in range(players)]
    return run_in(tree, PLAY, {"folder": str(tree.root / "cards" / game), "players": players, "games": games,
                               "workers": workers, "warmup": warmup, "lineup": seats, "seed": 1, "trace": trace})


RUN_SIZES = (50, 100, 200, 500, 1000, 2000, 5000)  # a run's games: one of these, so that noise does not move it


def sized_run(tree: Tree, game: str, players: int, seconds: float) -> int:
    """How many games make about `seconds` of the tree's play: the most of RUN_SIZES that fits, from the
    fastest of three short runs. A game's cost falls as a run goes on (A Word to the Wise: 180 games
    per CPU-second over 300 games, 270 over 3,000, its word caches filling), so a run's figure is only
    comparable with a run of as many games after as many warm-up games: a count read from one short
    timing (+-15% on a loaded machine) moved between runs, and the figure with it."""
    rate = max(30 / play_in(tree, game, players, 30, warmup=30)["cpu"] for _ in range(3))
    return max([size for size in RUN_SIZES if size <= rate * seconds] or RUN_SIZES[:1])


def differences(before: dict, after: dict) -> str:
    """'' when both runs gave the same games, else which differ."""
    old, new = before["digests"], after["digests"]
    if len(old) != len(new):
        return f"{len(old)} games before, {len(new)} after"
    wrong = [i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b]
    return f"{len(wrong)} of {len(old)} games differ (first: game {wrong[0]})" if wrong else ""


def compare(ref: str, players_wanted: int, seconds: float, repeat: int, full: bool, only: list[str],
            pinned: int | None = None) -> int:
    """Every engine's games/s in the ref's tree and the current one, and whether their games are the same."""
    failed = []
    with source_tree(ROOT, ref) as before, source_tree(ROOT) as after:
        print(f"before: {before.label}; after: the current tree. One worker, each run in a fresh process after "
              f"warm-up games (a fifth of its games, at least 30); the fastest of {repeat}")
        print(f"  {'game':18} {'players':>7} {'games':>6} {'before':>15} {'after':>15} {'ratio':>6} {'target':>7} "
              f"{'cold before':>11} {'cold after':>10}  same games")
        for name, fewest, most in engine_games():
            if only and name not in only:
                continue
            players = min(most, max(fewest, players_wanted))
            if not before.has_game(name):
                print(f"  {name:18} {players:7d}  not in {before.label}: nothing to compare (an edition made since)")
                continue
            games = pinned or sized_run(before, name, players, seconds)
            warmup = max(30, games // 5)  # word caches fill as a run goes on: time a run that is under way
            runs: dict[str, list[dict]] = {"before": [], "after": []}
            colds: dict[str, list[float]] = {"before": [], "after": []}
            for _ in range(repeat):  # alternated, so a busy spell of the machine falls on both
                runs["before"].append(play_in(before, name, players, games, warmup=warmup))
                runs["after"].append(play_in(after, name, players, games, warmup=warmup))
                colds["before"].append(cold_start(before, name, players))
                colds["after"].append(cold_start(after, name, players))
            old = min(run["cpu"] for run in runs["before"])
            new = min(run["cpu"] for run in runs["after"])
            cold_old, cold_new = min(colds["before"]), min(colds["after"])
            traced = max(50, games // 4)
            problems = [differences(runs["before"][0], runs["after"][0])]
            for label, lineup in (("every move", MIXED[:1]), ("every move, mixed lineup", MIXED)):
                problem = differences(play_in(before, name, players, traced, lineup=lineup, trace=True),
                                      play_in(after, name, players, traced, lineup=lineup, trace=True))
                problems.append(problem and f"{label}: {problem}")
            problems = [p for p in problems if p]
            same = "; ".join(problems) if problems else f"yes ({games} results; moves of {traced} + {traced} mixed)"
            failed += [name] if problems else []
            target = TARGET_RATIOS.get(name, OTHER_RATIO)
            verdict = "met" if old / new >= target else "NOT met"
            cold_verdict = "met" if cold_new <= COLD_START_CPU else "NOT met"
            print(f"  {name:18} {players:7d} {games:6d} {games / old:7.1f} game/cpu-s {games / new:7.1f} game/cpu-s "
                  f"{old / new:5.2f}x {target:>4g}x {verdict:7} {cold_old:5.2f} s {cold_new:5.2f} s ({cold_verdict}) "
                  f"[{load()}]  {same}", flush=True)
        if full:
            print(f"{REFERENCE_GAME}, 4 players, {REFERENCE_GAMES:,} games on 2 workers "
                  "(run() timed: loading, pool start, games)")
            loads = [load()]
            old_run = play_in(before, REFERENCE_GAME, 4, REFERENCE_GAMES, workers=2)
            loads.append(load())
            new_run = play_in(after, REFERENCE_GAME, 4, REFERENCE_GAMES, workers=2)
            loads.append(load())
            verdict = "met" if new_run["seconds"] <= REFERENCE_SECONDS else "NOT met"
            problem = differences(old_run, new_run)
            failed += [f"{REFERENCE_GAME} on 2 workers"] if problem else []
            print(f"  before {old_run['seconds']:.1f} s wall, {old_run['cpu']:.1f} s CPU; after {new_run['seconds']:.1f} s wall, "
                  f"{new_run['cpu']:.1f} s CPU: {old_run['cpu'] / new_run['cpu']:.2f}x in CPU "
                  f"(target <= {REFERENCE_SECONDS:g} s wall with nothing else running: {verdict}) [{', '.join(loads)}]; "
                  f"same games: {problem or 'yes'}")
            if min(os.getloadavg()) > 0.5:
                print("  the machine was not quiet: the wall-clock target is not judged fairly by this run")
    if failed:
        print(f"DIFFERENT GAMES for the same seeds: {', '.join(failed)}")
        return 1
    print("every game the same in both trees, move for move (the same results for the same seeds)")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="word-to-the-wise")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, help="games of each run (default 2,000; with --check-ratios 100; with "
                        "--baseline sized from --seconds)")
    parser.add_argument("--full", action="store_true", help="also time 10,000 games on two workers")
    parser.add_argument("--repeat", type=int, default=1, help="time each run this many times and keep the fastest")
    parser.add_argument("--cold", action="store_true",
                        help="time only the cold start of every engine, four ways (word cache warm and empty, with and "
                             "without .pyc), against --baseline REF")
    parser.add_argument("--check-ratios", action="store_true",
                        help="time every game with and without --check and print the ratios")
    parser.add_argument("--baseline", nargs="?", const=BASELINE, metavar="REF",
                        help=f"time every engine against the git ref REF (default {BASELINE[:12]}) and compare their games")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="with --baseline: about this many seconds of the baseline's play per engine and run")
    parser.add_argument("--only", default="", metavar="GAME,...", help="with --baseline or --check-ratios: only these games")
    args = parser.parse_args()
    only = [name.strip() for name in args.only.split(",") if name.strip()]
    if args.cold:
        return compare_cold(args.baseline or BASELINE, args.players, args.repeat, only)
    if args.baseline:
        return compare(args.baseline, args.players, args.seconds, args.repeat, args.full, only, args.games)
    if args.check_ratios:
        return check_ratios(args.games or 100, args.repeat, only)
    args.games = args.games or 2000
    folder = str((ROOT / "cards" / args.game).resolve())
    spec = RunSpec(folder, args.players, args.games, seed=1)
    one = min(timed(spec, 1) for _ in range(args.repeat))
    two = min(timed(spec, 2) for _ in range(args.repeat))
    print(f"{args.game}, {args.players} players, {args.games} games")
    print(f"  1 worker : {one:6.2f} s = {args.games / one:7.0f} games/s")
    print(f"  2 workers: {two:6.2f} s = {args.games / two:7.0f} games/s")
    speedup = one / two
    print(f"  speed-up : {speedup:.2f}x (target >= 1.7x: {'met' if speedup >= 1.7 else 'NOT met'})")
    if args.full:
        full = min(timed(RunSpec(folder, args.players, 10_000, seed=1), 2) for _ in range(args.repeat))
        verdict = "met" if full <= REFERENCE_SECONDS else "NOT met"
        print(f"  10,000 games on 2 workers: {full:.1f} s (target <= {REFERENCE_SECONDS:g} s: {verdict})")
    else:  # the word caches fill as a run goes on: a short run's rate overstates a long run's time
        estimate = 10_000 / (args.games / two)
        print(f"  10,000 games on 2 workers: at most about {estimate:.0f} s from this run's rate (--full plays them)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
