"""Does the search player get stronger with more search? Its win rate against the heuristic by budget.

    python bench/ismcts.py [--games 40 | --games 100,100,40] [--budgets 16,64,256] [--game spelled ...] [--workers 1] [--json]

For each game under cards/ that names a rules engine (or those given), two-player games of
IS-MCTS (`generator/simulate/ismcts.py`) against the game's skill-1 heuristic at each budget
(playouts a move), seats alternating over common random numbers (each pair of games shares its
first deal, the seats swapped). Prints games, budget, the search player's win rate (a tied win
counts its share) with its 95% Wilson interval, the change from the budget before with its 95%
interval (Newcombe), and seconds of CPU. Parity is 50%: "parity" when the interval holds it,
"above" or "below" when it lies wholly on one side; "falls" when the change's interval lies
wholly below zero.

A search game costs hundreds of heuristic games (every playout plays the game to its end): keep
--games modest on a shared machine and read the intervals, not the point estimates.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spellpress.progress import LazyProgress  # noqa: E402
from spellpress.simulate.metrics import agent_figures  # noqa: E402
from spellpress.simulate.runner import RunSpec, Seat, run  # noqa: E402
from spellpress.stats import difference_interval  # noqa: E402


def engine_games() -> list[str]:
    from spellpress.load.game import load_game

    return [folder.name for folder in sorted((ROOT / "cards").iterdir())
            if (folder / "game.yaml").exists() and load_game(folder).spec.rules.get("engine")]


def measure(game: str, budget: int, games: int, seed: int, workers: int) -> dict:
    spec = RunSpec(str(ROOT / "cards" / game), 2, games, seed=seed, common_random_numbers=True,
                   lineup=(Seat("ismcts", budget=budget), Seat("heuristic")))
    started = time.process_time()
    with LazyProgress(f"{game}, budget {budget}", games) as bar:
        result = run(spec, workers=workers, progress=bar.advance)
    seconds = time.process_time() - started  # this process's CPU: the games themselves with --workers 1
    row = next(r for r in agent_figures(result) if r["agent"].startswith("ismcts"))
    return {"game": game, "budget": budget, "games": row["seat_games"], "win_rate": row["win_rate"],
            "wins": row["win_rate"] * row["seat_games"], "ci95": row["ci95"],
            "stalls": result.tally.games - result.tally.finished, "seconds": round(seconds, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="a game under cards/ (repeatable; default: every game with an engine)")
    parser.add_argument("--games", default="40",
                        help="games per budget, even numbers: one for every budget or one a budget (default 40)")
    parser.add_argument("--budgets", default="16,64,256", help="playouts a move, comma-separated (default 16,64,256)")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
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
            row = measure(game, budget, games, args.seed, args.workers)
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
