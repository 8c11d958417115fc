"""Does the search player get stronger with more search? Its win rate against the heuristic by budget.

    python bench/ismcts.py [--games 40 | --games 100,100,40] [--budgets 16,64,256] [--game spelled ...] [--workers 1] [--json]
                           [--horizon TURNS] [--playout heuristic|fast]
    python bench/ismcts.py --baseline [REF] [--game evocabulary] [--budgets 64] [--games 1] [--repeat 1] [--horizon TURNS]
                           [--playout heuristic|fast]

For each game under cards/ that names a rules engine (or those given), two-player games of
IS-MCTS (`generator/simulate/ismcts.py`) against the game's skill-1 heuristic at each budget
(playouts a move), seats alternating over common random numbers (each pair of games shares its
first deal, the seats swapped). Prints games, budget, the search player's win rate (a tied win
counts its share) with its 95% Wilson interval, the change from the budget before with its 95%
interval (Newcombe), and seconds of CPU. Parity is 50%: "parity" when the interval holds it,
"above" or "below" when it lies wholly on one side; "falls" when the change's interval lies
wholly below zero.

--baseline times the search player's games in the current tree and in REF (a git ref checked out
with `git archive`, default bench/simulate.py's BASELINE: main before issue 39's speed-ups), side
by side in the same run, each in a fresh process after one warm-up heuristic game: CPU seconds a
two-player game of IS-MCTS (first budget, default game Evocabulary) against the heuristic, their
ratio, issue 39's target (at most 3 s of CPU an Evocabulary game at 64 playouts), the load beside
it, and whether both trees played the same games (every game's result, game by game); exit
status 1 if not.

--horizon plays the search player with playouts cut that many turns after the move, scored by who
leads (ISMCTSPlayer's `horizon`): cheaper, a different player. With --baseline only the current tree
takes it (REF's search player has none), so the two trees are not expected to play the same games.

--playout fast plays the playouts with the engine's cheaper playout player (Rules.playout_player; the
heuristic where an engine has none), the default move still the heuristic's: a different player
again, timed and measured the same way (with --baseline, only the current tree takes it).

A search game costs hundreds of heuristic games (every playout plays the game to its end): keep
--games modest on a shared machine and read the intervals, not the point estimates.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "bench"))

from baseline import run_in, source_tree  # noqa: E402
from simulate import BASELINE  # noqa: E402

from spellpress.progress import LazyProgress  # noqa: E402
from spellpress.simulate.metrics import agent_figures  # noqa: E402
from spellpress.simulate.runner import RunSpec, Seat, run  # noqa: E402
from spellpress.stats import difference_interval  # noqa: E402


def engine_games() -> list[str]:
    from spellpress.load.game import load_game

    return [folder.name for folder in sorted((ROOT / "cards").iterdir())
            if (folder / "game.yaml").exists() and load_game(folder).spec.rules.get("engine")]


def measure(game: str, budget: int, games: int, seed: int, workers: int, horizon: int | None = None,
            playout: str = "heuristic") -> dict:
    spec = RunSpec(str(ROOT / "cards" / game), 2, games, seed=seed, common_random_numbers=True,
                   lineup=(Seat("ismcts", budget=budget, horizon=horizon, playout=playout), Seat("heuristic")))
    started = time.process_time()
    with LazyProgress(f"{game}, budget {budget}", games) as bar:
        result = run(spec, workers=workers, progress=bar.advance)
    seconds = time.process_time() - started  # this process's CPU: the games themselves with --workers 1
    row = next(r for r in agent_figures(result) if r["agent"].startswith("ismcts"))
    return {"game": game, "budget": budget, "games": row["seat_games"], "win_rate": row["win_rate"],
            "wins": row["win_rate"] * row["seat_games"], "ci95": row["ci95"],
            "stalls": result.tally.games - result.tally.finished, "seconds": round(seconds, 1)}


TARGET_SECONDS = 3.0  # issue 39: an Evocabulary two-player game of IS-MCTS at 64 playouts, CPU seconds

# Runs in a fresh process (baseline.run_in): a warm-up heuristic game (the word tables), then the timed
# search games; prints their CPU seconds and a digest of every game's result, in game order.
TIMED = """
import dataclasses, hashlib, time
from spellpress.simulate.runner import RunSpec, Seat, run
a = json.loads(sys.argv[2])
run(RunSpec(a["folder"], 2, 1, seed=98), workers=1)
cut = {name: a[name] for name in ("horizon", "playout") if a.get(name)}
lineup = (Seat("ismcts", budget=a["budget"], **cut), Seat("heuristic"))
started = time.process_time()
result = run(RunSpec(a["folder"], 2, a["games"], seed=a["seed"], lineup=lineup), workers=1, keep_records=True)
cpu = time.process_time() - started
def digest(record):
    outcome = dataclasses.asdict(record.outcome)
    outcome["played"] = dict(sorted(outcome["played"].items()))
    outcome.pop("words", None)  # newer than the baseline (the scored words, read from the same moves)
    return hashlib.sha256(json.dumps([record.index, outcome], default=sorted).encode()).hexdigest()[:16]
print(json.dumps({"cpu": cpu, "digests": [digest(r) for r in result.records]}))
"""


def compare(ref: str, game: str, budget: int, games: int, seed: int, repeat: int, horizon: int | None = None,
            playout: str = "heuristic") -> int:
    """CPU seconds a search game in the ref's tree and the current one, and whether they played the same games."""
    with source_tree(ROOT, ref) as before, source_tree(ROOT) as after:
        args = {"budget": budget, "games": games, "seed": seed}
        runs = {}
        for tree in (before, after):
            cut = {"horizon": horizon, "playout": playout if playout != "heuristic" else None} if tree is after else {}
            timed = [run_in(tree, TIMED, {**args, **cut, "folder": str(tree.root / "cards" / game)}) for _ in range(repeat)]
            runs[tree.label] = min(timed, key=lambda r: r["cpu"])
        old, new = runs[before.label], runs[after.label]
    per_old, per_new = old["cpu"] / games, new["cpu"] / games
    expected = not horizon and playout == "heuristic"  # another player plays other games
    same = old["digests"] == new["digests"]
    met = "met" if per_new <= TARGET_SECONDS else "NOT met"
    print(f"{game}, IS-MCTS at {budget} playouts against the heuristic, 2 players, {games} game(s), seed {seed}, "
          f"the fastest of {repeat}; before: {before.label}, after: the current tree"
          + (f" with playouts cut at {horizon} turns" if horizon else "")
          + (f" with {playout} playouts" if playout != "heuristic" else ""))
    print(f"  CPU a game: before {per_old:.2f} s, after {per_new:.2f} s, ratio {per_old / per_new:.2f}x; "
          f"target at most {TARGET_SECONDS:g} s: {met} [load {os.getloadavg()[0]:.2f}]; "
          f"same games: {'yes' if same else 'NO' if expected else 'not expected (--horizon, --playout)'}")
    return 0 if same or not expected else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="a game under cards/ (repeatable; default: every game with an engine)")
    parser.add_argument("--games", help="games per budget, even numbers: one for every budget or one a budget "
                                        "(default 40; with --baseline, 1)")
    parser.add_argument("--budgets", help="playouts a move, comma-separated (default 16,64,256; with --baseline, 64)")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--baseline", nargs="?", const=BASELINE, metavar="REF",
                        help="time search games here and in REF side by side (default: main before issue 39)")
    parser.add_argument("--repeat", type=int, default=1, help="with --baseline: time each tree this many times, keep the fastest")
    parser.add_argument("--horizon", type=int, help="playouts stop this many turns after the move, scored by who leads "
                                                    "(default: to the game's end)")
    parser.add_argument("--playout", choices=("heuristic", "fast"), default="heuristic",
                        help="the playouts' player: the heuristic (default) or the engine's cheaper playout player")
    args = parser.parse_args()
    if args.horizon is not None and args.horizon < 1:
        parser.error("--horizon: at least 1 turn")
    if args.baseline:
        sys.exit(compare(args.baseline, (args.game or ["evocabulary"])[0], int((args.budgets or "64").split(",")[0]),
                         int((args.games or "1").split(",")[0]), args.seed, args.repeat, args.horizon, args.playout))
    args.games, args.budgets = args.games or "40", args.budgets or "16,64,256"
    budgets = [int(b) for b in args.budgets.split(",")]
    counts = [int(n) for n in args.games.split(",")]
    if len(counts) == 1:
        counts *= len(budgets)
    if len(counts) != len(budgets) or any(n < 2 or n % 2 for n in counts):
        parser.error("--games: one even number of at least 2, or one a budget")
    rows = []
    print(f"{'game':18} {'budget':>6} {'games':>5}  {'IS-MCTS win rate (95% CI)':25} {'':7} "
          f"{'change from the budget before':30} {'CPU s':>7}", file=sys.stderr)
    for game in args.game or engine_games():
        before = None
        for budget, games in zip(budgets, counts, strict=False):
            row = measure(game, budget, games, args.seed, args.workers, args.horizon, args.playout)
            low, high = row["ci95"]
            row["parity"] = "above" if low > 0.5 else "below" if high < 0.5 else "parity"
            change = ""
            if before is not None:
                d_low, d_high = difference_interval(row["wins"], row["games"], before["wins"], before["games"])
                row["change_ci95"] = [d_low, d_high]
                change = (f"{100 * (row['win_rate'] - before['win_rate']):+5.1f} ({100 * d_low:+.1f} to {100 * d_high:+.1f})"
                          f"{' falls' if d_high < 0 else ''}")
            print(f"{game:18} {budget:>6} {row['games']:>5}  {100 * row['win_rate']:5.1f}% ({100 * low:4.1f}-{100 * high:4.1f})"
                  f"{'':6} {row['parity']:7} {change:30} {row['seconds']:>7}", file=sys.stderr, flush=True)
            rows.append(row)
            before = row
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
