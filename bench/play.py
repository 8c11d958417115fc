"""How long a bot thinks at the `spellpress play` table: seconds a move, per game and bot.

    python bench/play.py [--games 2] [--budget 32] [--think 0.8] [--bots heuristic,ismcts] [GAME ...]

Plays seeded games with the table (generator/play/table.py) with one bot of each kind in seat 1
and the heuristic elsewhere, and times every move of seat 1 with the table's answer to the page
(the page shows a bot's move after its pause plus this time). Prints the median, the 95th
percentile and the slowest move, and the share of moves under one second. The first move of a
game includes building the word tables of the game, which the page does while the human thinks; it is reported apart.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spellpress.load.game import load_game  # noqa: E402
from spellpress.play.table import SeatSpec, Table  # noqa: E402
from spellpress.rules.plugins import rules_for  # noqa: E402

GAMES = ["word-rummy", "lost-words", "word-to-the-wise", "un-mot-au-sage", "evocabulary", "spelled", "magic-spell"]


def times(game_id: str, bot: str, budget: int, games: int, think: float | None) -> tuple[list[float], list[float]]:
    game = load_game(ROOT / "cards" / game_id)
    rules = rules_for(game)
    players = 3 if 3 in rules.players_allowed(game) else 2
    first, rest = [], []
    for seed in range(1, games + 1):
        seats = [SeatSpec(bot, budget, think)] + [SeatSpec("heuristic")] * (players - 1)
        table = Table(game, rules, seats, seed=seed, records=None)
        moves = 0
        while not table.over():
            seat = table.to_move()
            started = time.perf_counter()
            table.bot_step()
            table.view(0)  # the page's answer: the move and the table after it
            if seat == 0:
                (first if moves == 0 and seed == 1 else rest).append(time.perf_counter() - started)
                moves += 1
    return first, rest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=GAMES)
    parser.add_argument("--games", dest="count", type=int, default=2)
    parser.add_argument("--budget", type=int, default=32)
    parser.add_argument("--bots", default="heuristic,ismcts")
    parser.add_argument("--think", type=float, default=0.8, help="the ismcts time limit a move; 0: none")
    args = parser.parse_args()
    print(f"{'game':18} {'bot':10} {'moves':>5} {'median':>7} {'p95':>7} {'max':>7} {'<1 s':>6} {'first':>7}")
    for game_id in args.games:
        for bot in args.bots.split(","):
            first, rest = times(game_id, bot, args.budget, args.count, args.think or None)
            rest.sort()
            p95 = rest[int(0.95 * (len(rest) - 1))]
            under = sum(t < 1.0 for t in rest) / len(rest)
            label = f"ismcts-{args.budget}" if bot == "ismcts" else bot
            print(f"{game_id:18} {label:10} {len(rest):5} {statistics.median(rest):7.3f} {p95:7.3f} {rest[-1]:7.3f} "
                  f"{100 * under:5.0f}% {first[0] if first else float('nan'):7.3f}", flush=True)


if __name__ == "__main__":
    main()
