"""`spellpress tune` benchmarks (issue 26): does the search reach its targets, at what cost.

    python bench/tune.py [--only rummy,spells,letters,backends] [--scale small|full] [--workers N]

- rummy:    Word Rummy, 4 players: engine keys that bring every seat within 3 points, verified; the
            games the search spent against a full grid over the same space at the same games a variant
            (target: at most 1/5).
- spells:   Magic Spell, 4 players: spell costs and credits (at most 3 cards changed) that bring every spell's
            win-rate effect within +/-5 points (SYCOPHANT was -14.8), verified.
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
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RUMMY_VARY = ["rules.rounds=4..8", "rules.next_starter=clockwise,trailing", "rules.hand_start=3..5",
              "rules.go_out_bonus=0..5"]
SCALES = {  # benchmark -> scale -> options; "small" is what fits a 2-core machine shared by several people
    "rummy": {"small": ["--trials", "10", "--games", "300", "--min-games", "100", "--verify", "1", "--verify-games", "400"],
              "full": ["--trials", "60", "--games", "4000", "--min-games", "250", "--verify", "3", "--verify-games", "8000"]},
    "spells": {"small": ["--trials", "14", "--games", "600", "--min-games", "150", "--verify", "2"],
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
    result = subprocess.run([sys.executable, "-m", "spellpress", "tune", game, *options, "--out", str(out), "--json", "--fresh"],
                            capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"tune {game} failed ({result.returncode}):\n{result.stderr[-3000:]}")
    return json.loads(result.stdout), seconds


def summary(name: str, report: dict, seconds: float) -> dict:
    spent = report["spent"]
    best = report["proposals"][0] if report["proposals"] else None
    verified = best and best.get("verified")
    row = {"benchmark": name, "trials": sum(spent["trials"].values()), "trial_states": spent["trials"],
           "search_games": spent["games"], "verify_games_each": report["verify_games"], "wall_seconds": round(seconds, 1),
           "baseline_verdict": report["baseline"]["verdict"] if report["baseline"] else None,
           "proposal": best and best["variant"], "verdict": verified and verified["verdict"],
           "targets": verified and [{k: t[k] for k in ("target", "verdict", "worst")} for t in verified["targets"]],
           "baseline_targets": report["baseline"] and [{k: t[k] for k in ("target", "verdict", "worst")}
                                                        for t in report["baseline"]["targets"]]}
    return row


def rummy(scale: str, workers: int, out: Path) -> dict:
    from spellpress.load.game import load_game
    from spellpress.rules.plugins import rules_for
    from spellpress.simulate.tune_space import parse_space

    options = [arg for key in RUMMY_VARY for arg in ("--vary", key)] + ["--players", "4", "--workers", str(workers),
                                                                       *SCALES["rummy"][scale]]
    report, seconds = tune("word-rummy", options, out)
    row = summary("Word Rummy, 4 players, seats within 3 points", report, seconds)
    game = load_game(ROOT / "cards" / "word-rummy")
    size = parse_space(game, rules_for(game), RUMMY_VARY, None).size()
    games = int(SCALES["rummy"][scale][SCALES["rummy"][scale].index("--games") + 1])
    row["grid"] = {"variants": size, "games_each": games, "games": size * games,
                   "search_share": round(report["spent"]["games"] / (size * games), 4)}
    return row


def spells(scale: str, workers: int, out: Path) -> dict:
    options = ["--vary", "cards.spells.*.cost=-2..+2", "--vary", "cards.spells.*.credits=-1..+2", "--max-changes", "3",
               "--target", "cards=5", "--players", "4",
               "--workers", str(workers), *SCALES["spells"][scale]]
    report, seconds = tune("magic-spell", options, out)
    row = summary("Magic Spell, 4 players, every spell within +/-5 points, at most 3 cards", report, seconds)
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


BENCHMARKS = {"rummy": rummy, "spells": spells, "letters": letters, "backends": backends}


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
