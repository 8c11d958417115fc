"""`spellpress tune` benchmarks (issue 26): does the search reach its targets, at what cost.

    python bench/tune.py [--only rummy,spells,reach,letters,backends] [--scale small|full] [--workers N]

- rummy:    Word Rummy, 4 players: engine keys that bring every seat within 3 points, verified; the
            games the search spent against a full grid over the same space at the same games a variant
            (target: at most 1/5); the games a candidate and a verification need (tune/power.py), the
            games a CPU-second the run measured, and whether the issue's size fits 2 hours on two cores.
- spells:   Magic Spell, 4 players: spell costs and credits (at most 6 cards changed) that bring every spell's
            win-rate effect within +/-5 points (SYCOPHANT was -14.8), verified.
- reach:    Magic Spell, 4 players, without a search: each spell's effect as it is, and for each spell near or
            outside +/-5 its largest single change within the spells benchmark's ranges (both fields at their
            ends, towards the middle), played on the same seeds: how far it moves its own spell and the others.
            The bound this gives: a spell the other changes do not reach needs a change of its own.
- letters:  a Quiddler-like deck (118 cards, 31 faces, written to a scratch folder): printed points that
            match the suggested ones (rank correlation >= 0.97) with going out at 8 cards in 55-65%.
- backends: the same seed gives the same proposals on the process pool and on a Dask LocalCluster.

Each tune runs as the command in a fresh process (`--json`); the figures are its own, the wall time
this script's. `--scale small` (the default) is sized for a shared 2-core machine; `--scale full`
is the issue's size (hours of CPU for Word Rummy). Every figure printed says its trials and games.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RUMMY_VARY = {"small": ["rules.rounds=4..6", "rules.next_starter=clockwise,trailing", "rules.hand_start=3..5",
                        "rules.go_out_bonus=0..5"],  # 7 and 8 rounds deal hands of up to 12 cards: several times slower
              "full": ["rules.rounds=4..8", "rules.next_starter=clockwise,trailing", "rules.hand_start=3..5",
                       "rules.go_out_bonus=0..5"]}
SCALES = {  # benchmark -> scale -> options; "small" is what fits a 2-core machine shared by several people
    "rummy": {"small": ["--trials", "6", "--games", "200", "--min-games", "100", "--verify", "1", "--verify-games", "600"],
              "full": ["--trials", "60", "--games", "4000", "--min-games", "250", "--verify", "3", "--verify-games", "8000"]},
    "spells": {"small": ["--trials", "30", "--games", "1200", "--min-games", "300", "--verify", "2", "--verify-games", "4000"],
               "full": ["--trials", "150", "--games", "8000", "--min-games", "500", "--verify", "5", "--verify-games", "20000"]},
    "letters": {"small": ["--trials", "300", "--letter-samples", "2000"],
                "full": ["--trials", "1000", "--letter-samples", "8000"]},
    "backends": {"small": ["--trials", "4", "--games", "100", "--min-games", "50", "--verify", "1"],
                 "full": ["--trials", "20", "--games", "1000", "--min-games", "100", "--verify", "3"]},
}

# A Quiddler-like deck: 118 cards, single letters and five two-letter cards, points 2-15 set by hand
QUIDDLE = """id,letter,points,count
a,A,2,10
b,B,8,2
c,C,8,2
d,D,5,4
e,E,2,12
f,F,6,2
g,G,6,4
h,H,7,2
i,I,2,8
j,J,13,2
k,K,8,2
l,L,3,4
m,M,5,2
n,N,5,6
o,O,2,8
p,P,6,2
q,Q,15,2
r,R,5,6
s,S,3,4
t,T,3,6
u,U,4,6
v,V,11,2
w,W,10,2
x,X,12,2
y,Y,4,4
z,Z,14,2
qu,QU,9,2
in,IN,7,2
er,ER,7,2
cl,CL,10,2
th,TH,9,2
"""


def quiddle(scratch: Path) -> Path:
    """Word Rummy's folder with the Quiddler-like deck and 8-card hands of words of 2+ letters."""
    folder = scratch / "quiddle"
    shutil.copytree(ROOT / "cards" / "word-rummy", folder)
    (folder / "letters.csv").write_text(QUIDDLE)
    game = (folder / "game.yaml").read_text()
    game = game.replace("name: Word Rummy", "name: Quiddle").replace("  hand: 7 ", "  hand: 8 ")
    (folder / "game.yaml").write_text(game)
    return folder


def tune(game: str, options: list[str], out: Path) -> tuple[dict, float]:
    started = time.perf_counter()
    before = _children_cpu()
    result = subprocess.run([sys.executable, "-m", "spellpress", "tune", game, *options, "--out", str(out), "--json", "--fresh"],
                            capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"tune {game} failed ({result.returncode}):\n{result.stderr[-3000:]}")
    report = json.loads(result.stdout)
    report["cpu_seconds"] = _children_cpu() - before  # the tune and its workers
    return report, seconds


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def summary(name: str, report: dict, seconds: float) -> dict:
    spent = report["spent"]
    best = report["proposals"][0] if report["proposals"] else None
    verified = best and best.get("verified")
    row = {"benchmark": name, "trials": sum(spent["trials"].values()), "trial_states": spent["trials"],
           "search_games": spent["games"], "verify_games_each": report["verify_games"], "wall_seconds": round(seconds, 1),
           "cpu_seconds": round(report.get("cpu_seconds", 0.0), 1),
           "baseline_verdict": report["baseline"]["verdict"] if report["baseline"] else None,
           "proposal": best and best["variant"], "verdict": verified and verified["verdict"],
           "targets": verified and [{k: t[k] for k in ("target", "verdict", "worst")} for t in verified["targets"]],
           "baseline_targets": report["baseline"] and [{k: t[k] for k in ("target", "verdict", "worst")}
                                                        for t in report["baseline"]["targets"]]}
    return row


def rummy(scale: str, workers: int, out: Path) -> dict:
    from spellpress.load.game import load_game
    from spellpress.rules.plugins import rules_for
    from spellpress.tune.space import parse_space

    options = [arg for key in RUMMY_VARY[scale] for arg in ("--vary", key)] + ["--players", "4", "--workers", str(workers),
                                                                       *SCALES["rummy"][scale]]
    report, seconds = tune("word-rummy", options, out)
    row = summary("Word Rummy, 4 players, seats within 3 points", report, seconds)
    game = load_game(ROOT / "cards" / "word-rummy")
    size = parse_space(game, rules_for(game), RUMMY_VARY[scale], None).size()
    games = int(SCALES["rummy"][scale][SCALES["rummy"][scale].index("--games") + 1])
    row["grid"] = {"variants": size, "games_each": games, "games": size * games,
                   "search_share": round(report["spent"]["games"] / (size * games), 4)}
    row["plan"] = rummy_plan(report)
    return row


TWO_HOURS_ON_TWO_CORES = 2 * 3600 * 2  # CPU-seconds


def rummy_plan(report: dict) -> dict:
    """What 'every seat within 3 points, verified, in 2 hours on two cores' asks, from tune/power.py and the
    games a CPU-second this run measured (the search's games and the verification's, the start-up included)."""
    played = report["spent"]["games"] + report["verify_games"] * (len(report["proposals"]) + 1)
    rate = played / report["cpu_seconds"]
    (seats,) = [row for row in report["power"] if row["target"].startswith("seats")]
    full = SCALES["rummy"]["full"]
    trials, games, first, verify, verify_games = (int(full[full.index(flag) + 1]) for flag in
                                                  ("--trials", "--games", "--min-games", "--verify", "--verify-games"))
    rungs, total, eta = [], first, 3
    while total < games:
        rungs.append(total)
        total *= eta
    rungs.append(games)
    # successive halving keeps about 1/eta of the candidates at each rung (fewer when the rung decides)
    search = sum(trials / eta**r * (rungs[r] - (rungs[r - 1] if r else 0)) for r in range(len(rungs)))
    verification = (verify + 1) * verify_games
    unpruned = trials * games  # at 4 players a rung of a few hundred games rarely tells candidates apart
    budget = TWO_HOURS_ON_TWO_CORES * rate
    # a plan that fits even when nothing is pruned: verify 3 proposals and the game on the games that decide a seat
    # halfway to the edge, and give the search's every trial the games that pin a seat to +/-1.5 points (95%)
    final = needed_games(1.5)
    fitting = int((budget - 4 * seats["needed_halfway"]) // final)
    return {"games_per_cpu_second": round(rate, 2), "verification_z": round(seats["verification_z"], 3),
            "verify_games_on_aim": seats["needed_on_aim"], "verify_games_halfway": seats["needed_halfway"],
            "full_scale": {"search_games": round(search), "search_games_if_nothing_is_pruned": unpruned,
                           "verification_games": verification,
                           "cpu_hours": round((search + verification) / rate / 3600, 2),
                           "cpu_hours_if_nothing_is_pruned": round((unpruned + verification) / rate / 3600, 2),
                           "fits_two_hours_on_two_cores": (search + verification) / rate <= TWO_HOURS_ON_TWO_CORES},
            "games_in_two_hours_on_two_cores": round(budget),
            "a_plan_that_fits_unpruned": f"--trials {fitting} --games {final} --min-games {final // 8} --verify 3 "
                                         f"--verify-games {seats['needed_halfway']}"}


def needed_games(points: float) -> int:
    """Games for a 95% interval of +/-points on a seat's win rate at 4 players (tune/power.py)."""
    from spellpress.tune.power import needed

    return needed(100 * (0.25 * 0.75) ** 0.5, points)


def spells(scale: str, workers: int, out: Path) -> dict:
    options = ["--vary", SPELL_COST, "--vary", SPELL_CREDITS, "--max-changes", "6",
               "--target", "cards=5", "--players", "4",
               "--workers", str(workers), *SCALES["spells"][scale]]
    report, seconds = tune("magic-spell", options, out)
    row = summary("Magic Spell, 4 players, every spell within +/-5 points, at most 6 cards", report, seconds)
    figures = report["baseline"]["figures"]["cards"]
    row["sycophant_before"] = figures.get("spell:sycophant")
    best = report["proposals"][0]["verified"]["figures"]["cards"] if report["proposals"] else {}
    row["sycophant_after"] = best.get("spell:sycophant")
    return row


def letters(scale: str, workers: int, out: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix="spellpress-bench-") as scratch:
        folder = quiddle(Path(scratch))
        options = ["--vary", "cards.letters.*.points=-3..+3", "--target", "points_rank=0.97",
                   "--target", "going_out=0.55..0.65@8", "--sampler", "cmaes", "--workers", str(workers),
                   *SCALES["letters"][scale]]
        report, seconds = tune(str(folder), options, out)
    return summary("Quiddler-like deck: points rank >= 0.97, going out at 8 cards in 55-65%", report, seconds)


def backends(scale: str, workers: int, out: Path) -> dict:
    options = ["--vary", "rules.rounds=4..8", "--vary", "rules.next_starter=clockwise,trailing", "--players", "4",
               "--workers", str(max(2, workers)), *SCALES["backends"][scale]]
    pool, pool_seconds = tune("word-rummy", options, out / "pool")
    dask, dask_seconds = tune("word-rummy", [*options, "--dask", "local"], out / "dask")
    return {"benchmark": "the same seed on a process pool and on a Dask LocalCluster", "identical_json": pool == dask,
            "trials": sum(pool["spent"]["trials"].values()), "search_games": pool["spent"]["games"],
            "wall_seconds": {"pool": round(pool_seconds, 1), "dask": round(dask_seconds, 1)}}


SPELL_COST, SPELL_CREDITS = "cards.spells.*.cost=-2..+2", "cards.spells.*.credits=-1..+2"
REACH_GAMES = {"small": 3000, "full": 20000}
REACH_SEED = 77  # not the spells benchmark's seeds: fresh games


def reach(scale: str, workers: int, out: Path) -> dict:
    """Each spell near or outside +/-5 changed alone by the most the spells benchmark's ranges allow, towards the
    middle (a weak spell: cost -2, not below 0, credits +2; a strong one: cost +2, credits -1), on the same seeds
    as the game as it is: the move of its own effect and the largest move of another spell's."""
    from spellpress.load.game import load_game
    from spellpress.simulate.api import RunSpec, run_many
    from spellpress.tune.targets import simulated_figures

    folder = str(ROOT / "cards" / "magic-spell")
    game = load_game(Path(folder))
    cards = {card.id: card for card in game.component("spells").cards}
    games = REACH_GAMES[scale]
    started, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)

    def effects(variant: tuple) -> dict[str, tuple[float, float, float]]:
        (result,) = run_many([RunSpec(folder, 4, games, REACH_SEED, variant=variant)], workers=workers)
        found = simulated_figures(result.tally)["cards"]
        return {key.split(":", 1)[1]: (100 * row["difference"], 100 * row["ci95"][0], 100 * row["ci95"][1])
                for key, row in found.items() if key.startswith("spell:")}

    base = effects(())
    rows = []
    for spell, (value, low, high) in sorted(base.items(), key=lambda item: -abs(item[1][0])):
        if spell not in cards or abs(value) < 3.5:  # well inside: no change of its own is needed
            continue
        card = cards[spell]
        cost, credits = card.fields.get("cost"), card.fields["credits"]
        weak = value < 0
        variant = (((f"cards.spells.{spell}.cost", max(0, cost - 2) if weak else cost + 2),) if cost is not None else ()) + \
            ((f"cards.spells.{spell}.credits", credits + 2 if weak else max(0, credits - 1)),)
        moved = effects(variant)
        others = {other: moved[other][0] - base[other][0] for other in base if other != spell and other in moved}
        worst_other = max(others, key=lambda k: abs(others[k]))
        rows.append({"spell": spell, "as_is": [round(value, 1), round(low, 1), round(high, 1)],
                     "change": [[k.split(".")[-1], v] for k, v in variant],
                     "after": [round(x, 1) for x in moved[spell]] if spell in moved else None,
                     "own_move": round(moved[spell][0] - value, 1) if spell in moved else None,
                     "largest_other_move": [worst_other, round(others[worst_other], 1)],
                     "mean_abs_other_move": round(sum(abs(v) for v in others.values()) / len(others), 2)})
    after = resource.getrusage(resource.RUSAGE_SELF)
    outside = [s for s, (_, low, high) in base.items() if high < -5 or low > 5]
    crossing = [s for s, (_, low, high) in base.items() if s not in outside and (low < -5 or high > 5)]
    return {"benchmark": f"Magic Spell, 4 players: the reach of single changes ({games:,} games a variant, same seeds)",
            "spells_outside": outside, "spells_crossing_the_edge": crossing, "rows": rows,
            "games": games * (len(rows) + 1), "wall_seconds": round(time.perf_counter() - started, 1),
            "cpu_seconds_self": round(after.ru_utime - before.ru_utime, 1)}


BENCHMARKS = {"rummy": rummy, "spells": spells, "reach": reach, "letters": letters, "backends": backends}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(BENCHMARKS), help="comma-separated: " + ", ".join(BENCHMARKS))
    parser.add_argument("--scale", choices=["small", "full"], default="small")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="spellpress-bench-tune-") as out:
        for name in args.only.split(","):
            row = BENCHMARKS[name.strip()](args.scale, args.workers, Path(out) / name)
            print(json.dumps(row, indent=1), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
