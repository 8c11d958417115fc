"""Does the search player get stronger with more search? Its win rate against the heuristic by budget.

    python bench/ismcts.py [--games 40] [--budgets 16,64,256] [--game spelled ...] [--workers 1] [--json]

For each game under cards/ that names a rules engine (or those given), two-player games of
IS-MCTS (`generator/simulate/ismcts.py`) against the game's skill-1 heuristic at each budget
(playouts a move), seats alternating over common random numbers (each pair of games shares its
deals and rolls, the seats swapped). Prints games, budget, the search player's win rate (a tied
win counts its share) with its 95% Wilson interval, and seconds. Parity is 50%.

A search game costs a few hundred heuristic games: keep --games modest on a shared machine and
read the intervals, not the point estimates. "falls" marks a budget whose interval lies wholly
below the smallest budget's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spellpress.simulate.metrics import agent_figures  # noqa: E402
from spellpress.simulate.runner import RunSpec, Seat, run  # noqa: E402


def engine_games() -> list[str]:
    from spellpress.load.game import load_game

    return [folder.name for folder in sorted((ROOT / "cards").iterdir())
            if (folder / "game.yaml").exists() and load_game(folder).spec.rules.get("engine")]


def measure(game: str, budget: int, games: int, seed: int, workers: int) -> dict:
    spec = RunSpec(str(ROOT / "cards" / game), 2, games, seed=seed, common_random_numbers=True,
                   lineup=(Seat("ismcts", budget=budget), Seat("heuristic")))
    started = time.perf_counter()
    result = run(spec, workers=workers)
    seconds = time.perf_counter() - started
    row = next(r for r in agent_figures(result) if r["agent"].startswith("ismcts"))
    return {"game": game, "budget": budget, "games": row["seat_games"], "win_rate": row["win_rate"],
            "ci95": row["ci95"], "stalls": result.tally.games - result.tally.finished, "seconds": round(seconds, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="a game under cards/ (repeatable; default: every game with an engine)")
    parser.add_argument("--games", type=int, default=40, help="games per budget, an even number (default 40)")
    parser.add_argument("--budgets", default="16,64,256", help="playouts a move, comma-separated (default 16,64,256)")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    rows = []
    print(f"{'game':18} {'budget':>6} {'games':>5}  {'IS-MCTS win rate (95% CI)':28} {'seconds':>7}", file=sys.stderr)
    for game in args.game or engine_games():
        first = None
        for budget in budgets:
            row = measure(game, budget, args.games, args.seed, args.workers)
            first = first or row
            falls = row["ci95"][1] < first["ci95"][0]
            low, high = row["ci95"]
            print(f"{game:18} {budget:>6} {row['games']:>5}  {100 * row['win_rate']:5.1f}% ({100 * low:4.1f}-{100 * high:4.1f})"
                  f"{'  falls' if falls else '':13} {row['seconds']:>7}", file=sys.stderr, flush=True)
            rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
