"""`spellpress tune` benchmarks (issue 26): does the search reach its targets, at what cost.

    python bench/tune.py [--only rummy,spells,reach,settle,letters,backends] [--scale small|full] [--workers N]

- rummy:    Word Rummy, 4 players: every seat within 3 points, verified (decided), within 2 hours on two cores.
            The space is fair by construction (RUMMY_VARY), so the verification can decide it; the row gives the
            proposal's and the shipped game's seat intervals, their other figures, the games, CPU, load, and
            whether the run's CPU spread over two cores took at most two hours.
- spells:   Magic Spell, 4 players: spell costs and credits (at most 6 cards changed) that bring every spell's
            win-rate effect within +/-5 points (SYCOPHANT was -14.8), verified.
- reach:    Magic Spell, 4 players, without a search: each spell's effect as it is, and for each spell near or
            outside +/-5 its largest single change within the spells benchmark's ranges (both fields at their
            ends, towards the middle), played on the same seeds: how far it moves its own spell and the others.
            The bound this gives: a spell the other changes do not reach needs a change of its own.
- settle:   Magic Spell's target settled by a bound: the game as it is played as tune verifies; every option of
            the 4 spells furthest from 0 and single changes of the spells near the edge, on the same seeds; the
            drift law they follow (a change moving its spell by m moves the others by k * m); under it, the largest
            margin any 6-card edit can keep inside +/-5 (any change at all allowed to spells not measured), against
            the verification's half-width; and the best edit of measured doses verified beside its prediction.
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

# Seats equal by construction: the starter moves one seat clockwise each round, every round deals the same hand
# and the rounds are a multiple of the 4 players, so each seat starts equally often and holds each place after
# the starter in one round of every four. The heuristic player does not read the scores, and each round deals
# from a fresh deck, so the rounds are alike and independent, and the seats' totals are alike in law: each seat
# wins a quarter of the games exactly, and a fair seat is what the verification has to decide.
RUMMY_VARY = ["rules.rounds=4,8", "rules.hand_start=5..7", "rules.hand_growth=0", "rules.next_starter=clockwise"]
SCALES = {  # benchmark -> scale -> options; "small" is what fits a 2-core machine shared by several people
    # a fair seat is decided at 4 players on ~1,300 games at best, ~95% of the time on 5,200, ~99% on 6,000
    "rummy": {"small": ["--trials", "6", "--games", "800", "--min-games", "200", "--verify", "1", "--verify-games", "6000"],
              "full": ["--trials", "12", "--games", "3200", "--min-games", "400", "--verify", "3", "--verify-games", "8000"]},
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

    options = [arg for key in RUMMY_VARY for arg in ("--vary", key)] + ["--players", "4", "--workers", str(workers),
                                                                 *SCALES["rummy"][scale]]
    load_before = os.getloadavg()
    report, seconds = tune("word-rummy", options, out)
    row = summary("Word Rummy, 4 players, seats within 3 points", report, seconds)
    game = load_game(ROOT / "cards" / "word-rummy")
    size = parse_space(game, rules_for(game), RUMMY_VARY, None).size()
    games = int(SCALES["rummy"][scale][SCALES["rummy"][scale].index("--games") + 1])
    row["grid"] = {"variants": size, "games_each": games, "games": size * games,
                   "search_share": round(report["spent"]["games"] / (size * games), 4)}
    row["seats"] = {"proposal": seat_intervals(report["proposals"][0]["verified"]) if report["proposals"] else None,
                    "as_shipped": seat_intervals(report["baseline"])}
    row["other"] = {"proposal": report["proposals"][0]["verified"]["other"] if report["proposals"] else None,
                    "as_shipped": report["baseline"]["other"]}
    row["budget"] = rummy_budget(report, load_before)
    return row


TWO_HOURS_ON_TWO_CORES = 2 * 3600 * 2  # CPU-seconds


def seat_intervals(verified: dict) -> list[str]:
    """Each seat's points off its fair share with the interval a hold reads (the verification's one-sided quantile)."""
    from spellpress.tune.targets import _checks, parse_targets

    (seats,) = parse_targets(["seats=3"])
    return [f"{what} {value:+.1f} ({low:+.1f}..{high:+.1f})"
            for what, value, (low, high) in _checks(seats, verified["figures"], verified["z_inside"])]


def rummy_budget(report: dict, load_before: tuple[float, float, float]) -> dict:
    """Whether the run met 'within 2 hours on two cores': its CPU time (the tune and its workers, search and
    verification) spread over two cores, against two hours."""
    played = report["spent"]["games"] + report["verify_games"] * (len(report["proposals"]) + 1)
    cpu = report["cpu_seconds"]
    (seats,) = [row for row in report["power"] if row["target"].startswith("seats")]
    return {"games": played, "cpu_seconds": round(cpu, 1), "games_per_cpu_second": round(played / cpu, 2),
            "hours_on_two_cores": round(cpu / 2 / 3600, 3),
            "two_hours_on_two_cores_met": cpu <= TWO_HOURS_ON_TWO_CORES,
            "load_average_before_after": [round(load_before[0], 2), round(os.getloadavg()[0], 2)],
            "verification_z": round(seats["verification_z"], 3),
            "verification_z_inside": round(seats["verification_z_inside"], 3),
            "verify_games_on_aim": seats["needed_on_aim"], "verify_games_halfway": seats["needed_halfway"]}


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

    folder = str(ROOT / "cards" / "magic-spell")
    game = load_game(Path(folder))
    cards = {card.id: card for card in game.component("spells").cards}
    games = REACH_GAMES[scale]
    started, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)

    def effects(variant: tuple) -> dict[str, tuple[float, float, float]]:
        return spell_effects(folder, [variant], games, REACH_SEED, workers)[0]

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


SETTLE_GAMES = {"small": (2000, 40000), "full": (10000, 140000)}  # games a dose (same seeds), games a verification
SETTLE_GRID, MAX_CHANGES, LIMIT = 4, 6, 5.0
SETTLE_SEED = 79  # the verification plays seed 79,500: games neither the doses nor the other benchmarks played
SETTLE_DOSE_SEED = 81
# Single changes to spells near the band's edge, played beside the grids (two rounds by hand: a credit towards the
# middle moves a spell 6-10 points, a cost step 0-3, and the heuristic never casts TORPOR or KISMET, so their cost
# does nothing): spell -> the changed fields of each dose.
SETTLE_EDGE_DOSES = {
    "enervate": [{"cost": 0}, {"credits": 4}, {"cost": 2}, {"cost": 3}],
    "torpor": [{"cost": 2}, {"cost": 3}, {"credits": 2}],
    "kismet": [{"cost": 2}, {"credits": 2}],
    "skulduggery": [{"cost": 1}, {"cost": 3}],
    "forage": [{"credits": 2}], "scavenge": [{"cost": 3}], "pilfer": [{"credits": 2}],
    "maelstrom": [{"cost": 3}], "cacophony": [{"cost": 3}], "transmute": [{"cost": 2}], "quixotic": [{"cost": 2}],
}


def settle(scale: str, workers: int, out: Path) -> dict:
    """Magic Spell, 4 players: can an edit of at most 6 spells' cost and credits be verified with every spell within
    +/-5? Settled by a bound, not by a search.

    1. The game as it is, played as tune verifies (fresh seeds; a spell is held by its one-sided interval, z = 1.64):
       where each spell stands, and how far a verification of that size places a spell (its half-width h).
    2. Doses on the same seeds: every option the space allows (cost -2..+2, credits -1..+2) of the 4 spells furthest
       from 0, and the single changes of SETTLE_EDGE_DOSES.
    3. The drift law from the doses: a change moving its own spell by m moves the others by k * m on average.
    4. The bound (drift_bound.edit_margin): under the law, the largest margin by which any edit of 6 cards can keep
       every spell inside +/-5, the 4 spells taking only their measured options and any other spell any change at
       all. A margin under h: no 6-card edit can be verified at this size (the games that would: said); under 0:
       none exists under the law.
    5. The check of the law: the best edit made of measured doses, verified on the same seeds as the game as it is,
       beside the law's prediction for it."""
    from drift_bound import edit_margin, fit_drift

    from spellpress.load.game import load_game
    from spellpress.rules.plugins import rules_for
    from spellpress.tune.space import parse_space
    from spellpress.tune.study import Plan, verify
    from spellpress.tune.targets import _card_interval, parse_targets

    folder = str(ROOT / "cards" / "magic-spell")
    game = load_game(Path(folder))
    rules = rules_for(game)
    cards = {card.id: card for card in game.component("spells").cards}
    dose_games, verify_games = SETTLE_GAMES[scale]
    started, cpu_before = time.perf_counter(), _all_cpu()
    plan = Plan(folder, 4, SETTLE_SEED, parse_space(game, rules, [SPELL_COST, SPELL_CREDITS], MAX_CHANGES),
                parse_targets([f"cards={LIMIT:g}"]), verify_games, verify_games, 3)

    def placed(row: dict) -> dict[str, tuple[float, float, float]]:
        return {key.split(":", 1)[1]: (100 * f["difference"], *(100 * x for x in _card_interval(f, row["z_inside"])))
                for key, f in row["figures"]["cards"].items() if key.startswith("spell:")}

    (as_is_row,) = verify(game, rules, plan, [()], verify_games, None, workers)
    as_is = placed(as_is_row)
    effects = {spell: value for spell, (value, _, _) in as_is.items()}
    half_width = max((high - low) / 2 for _, low, high in as_is.values())
    grid = sorted((s for s in effects if s in cards), key=lambda s: -abs(effects[s]))[:SETTLE_GRID]
    doses = [(spell, variant) for spell in grid for variant in spell_options(cards[spell])]
    doses += [(spell, tuple((f"cards.spells.{spell}.{field}", value) for field, value in change.items()))
              for spell, changes in SETTLE_EDGE_DOSES.items() for change in changes]
    base, *moved = spell_effects(folder, [()] + [v for _, v in doses], dose_games, SETTLE_DOSE_SEED, workers)
    own, side = [], []
    for (spell, _), after in zip(doses, moved, strict=True):
        own.append(after[spell][0] - base[spell][0])
        others = [after[o][0] - base[o][0] for o in base if o != spell and o in after]
        side.append(sum(others) / len(others))
    print(json.dumps({"settle_as_is": {s: [round(v, 2) for v in t] for s, t in as_is.items()},
                      "settle_doses": [[s, [[k.split(".")[-1], v] for k, v in variant], round(m, 2), round(d, 3)]
                                       for (s, variant), m, d in zip(doses, own, side, strict=True)],
                      "cpu_seconds": round(_all_cpu() - cpu_before, 1)}), file=sys.stderr, flush=True)
    law = fit_drift(own, side)
    options = {spell: [m for (s, _), m in zip(doses, own, strict=True) if s == spell] for spell in grid}
    bounds = {}
    for name, k in (("law", law["k"]), ("k_low", law["ci95"][0]), ("k_high", law["ci95"][1])):
        margin, edit = edit_margin(effects, options, k, MAX_CHANGES, LIMIT)
        bounds[name] = {"k": round(k, 4), "margin": round(margin, 2),
                        "edit": edit and {**edit, "moves": {s: round(m, 1) for s, m in edit["moves"].items()}}}
    margin = max(b["margin"] for b in bounds.values())  # the most favourable end of the law's interval
    # 5: the best edit of measured doses only (no free change), under the law, and its verification
    measured = {}
    for (spell, variant), move in zip(doses, own, strict=True):
        measured.setdefault(spell, []).append((move, variant))
    candidate, predicted = _best_measured_edit(effects, measured, law["k"])
    checked = verify(game, rules, plan, [candidate], verify_games, None, workers)[0] if candidate else None
    found = placed(checked) if checked else {}
    games_needed = verify_games * (half_width / margin) ** 2 if margin > 0 else None
    verdict = ("met: the best edit is verified balanced" if checked and checked["verdict"] == "balanced" else
               f"no edit of {MAX_CHANGES} cards exists under the drift law (margin {margin:+.2f}, beyond the "
               f"+/-{half_width:.2f} the figures it rests on are known to)" if margin < -half_width else
               f"no edit of {MAX_CHANGES} cards can be verified at {verify_games:,} games: under the drift law the "
               f"best leaves its worst spell at {LIMIT - margin:.2f} points, and a verification places a spell to "
               f"+/-{half_width:.2f}" + (f"; about {games_needed:,.0f} games a variant would place it to "
                                         f"+/-{margin:.2f}" if games_needed else "") if margin < half_width else
               "not settled: an edit may be verifiable, and the one tried was not")
    return {"benchmark": f"Magic Spell, 4 players: every spell within +/-{LIMIT:g}, at most {MAX_CHANGES} changes, "
                         f"settled by the drift law ({dose_games:,} games a dose, {verify_games:,} a verification)",
            "result": verdict, "drift_law": {**law, "ci95": [round(x, 4) for x in law["ci95"]]},
            "bounds": bounds, "verification_half_width": round(half_width, 2),
            "as_is": {s: [round(v, 1) for v in t] for s, t in sorted(as_is.items(), key=lambda i: -abs(i[1][0]))},
            "grid": {s: sorted(round(m, 1) for m in options[s]) for s in grid},
            "measured_edit": [[k, v] for k, v in candidate] if candidate else None,
            "measured_edit_predicted": {s: round(v, 1) for s, v in predicted.items()},
            "measured_edit_verified": {"verdict": checked["verdict"], "z": round(checked["z"], 3),
                                       "z_inside": round(checked["z_inside"], 3),
                                       "spells": {s: [round(v, 1) for v in t] for s, t in
                                                  sorted(found.items(), key=lambda i: -abs(i[1][0]))}} if checked else None,
            "games": verify_games * (1 + bool(checked)) + dose_games * (len(doses) + 1),
            "wall_seconds": round(time.perf_counter() - started, 1), "cpu_seconds": round(_all_cpu() - cpu_before, 1)}


def _best_measured_edit(effects: dict, measured: dict, k: float) -> tuple[tuple, dict]:
    """The edit of at most MAX_CHANGES measured doses (one a spell) whose predicted worst spell is nearest 0 under
    the drift law, and its prediction. The grid spells' options first, then up to the spare changes of edge doses."""
    from itertools import combinations, product

    from drift_bound import drifted

    grid = [s for s in measured if s not in SETTLE_EDGE_DOSES]
    edge = [(s, d) for s in SETTLE_EDGE_DOSES if s in measured for d in measured[s]]
    best: tuple[float, tuple, dict] = (float("inf"), (), {})
    for picks in product(*[measured[s] for s in grid]):
        for extra in (c for r in range(MAX_CHANGES - len(grid) + 1) for c in combinations(edge, r)):
            if len({s for s, _ in extra}) < len(extra):
                continue
            moves = {s: m for s, (m, _) in zip(grid, picks, strict=True)} | {s: m for s, (m, _) in extra}
            predicted = drifted(effects, moves, k)
            worst = max(map(abs, predicted.values()))
            if worst < best[0]:
                variant = tuple(kv for _, v in picks for kv in v) + tuple(kv for _, (_, v) in extra for kv in v)
                best = (worst, variant, predicted)
    return best[1], best[2]


def spell_options(card) -> list[tuple]:
    """Every change of a spell the spells benchmark's space allows (cost -2..+2 and not below 0, credits -1..+2),
    each as a variant of the fields it changes."""
    cost, credits = card.fields.get("cost"), card.fields["credits"]
    costs = range(max(0, cost - 2), cost + 3) if cost is not None else [None]
    found = []
    for new_cost in costs:
        for new_credits in range(credits - 1, credits + 3):
            variant = ((f"cards.spells.{card.id}.cost", new_cost),) if new_cost not in (None, cost) else ()
            variant += ((f"cards.spells.{card.id}.credits", new_credits),) if new_credits != credits else ()
            if variant:
                found.append(variant)
    return found


def spell_effects(folder: str, variants: list[tuple], games: int, seed: int, workers: int) -> list[dict]:
    """Each variant's spells' win-rate effects in points (value, 95% low, high), all on the same seeds."""
    from spellpress.simulate.api import RunSpec, run_many
    from spellpress.tune.targets import simulated_figures

    results = run_many([RunSpec(folder, 4, games, seed, variant=v) for v in variants], workers=workers)
    return [{key.split(":", 1)[1]: (100 * row["difference"], 100 * row["ci95"][0], 100 * row["ci95"][1])
             for key, row in simulated_figures(result.tally)["cards"].items() if key.startswith("spell:")}
            for result in results]


def _all_cpu() -> float:
    """CPU seconds of this process and its finished children (a pool's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime + _children_cpu()


BENCHMARKS = {"rummy": rummy, "spells": spells, "reach": reach, "settle": settle, "letters": letters, "backends": backends}


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
