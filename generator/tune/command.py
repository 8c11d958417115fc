"""`spellpress tune`: search rules and card values for a game that meets its targets, verify the best.

The search (tune/study.py) is an Optuna study kept in OUT/<game>/<game>-tune.study: run the
same command again to resume it. Its best candidates are re-played on fresh seeds and judged
by simulate's rule (tune/targets.py, simulate/api.py: a decided verdict wrong at most 5% of the
time); the result is a table, OUT/<game>/<game>-tune.json and
-tune.pdf, and a unified diff of the best candidate. `--apply N` writes proposal N of the
last tune into the game's files (tune/apply.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections import Counter
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from spellpress.arguments import bounded_int
from spellpress.errors import Option, Problem, UserError
from spellpress.simulate.api import load_once, open_executor, parse_options
from spellpress.tune.options import TuneOptions, variant_of


def register(commands) -> None:
    parser = commands.add_parser(
        "tune", help="search rules and card values for a balanced game; verified proposals, a diff, --apply",
        description="Search --vary keys for values that meet the --target(s), re-play the best on fresh seeds and "
                    "judge them as simulate does, a decided verdict wrong at most 5% of the time (docs/tune.md). "
                    "Writes OUT/<game>/<game>-tune.json, -tune.pdf "
                    "and the resumable study -tune.study.")
    parser.add_argument("game", metavar="GAME|PATH", help="a game id under cards/ or a game folder")
    parser.add_argument("--vary", action="append", default=[], metavar="KEY=VALUES",
                        help="a key sweep takes, with a list (rules.next_starter=clockwise,trailing), a range "
                             "(rules.hand_start=3..6), a change to the current value (cards.spells.sycophant.cost=-1..+2) "
                             "or a family of cards (cards.letters.*.points=-2..+2); repeatable")
    parser.add_argument("--max-changes", type=bounded_int(1, 100), metavar="N",
                        help="the families (cards.COMPONENT.*.FIELD) together change at most N cards (default: any number)")
    parser.add_argument("--target", action="append", default=[], metavar="NAME=AIM",
                        help="seats=3 (the default: every seat within 3 points of fair), length=LOW..HIGH, cards=5 "
                             "(every card's win-rate effect within +/-5 points), word_rate=LOW..HIGH[@HAND], "
                             "going_out=LOW..HIGH[@HAND], points_rank=0.97; repeatable, all must hold")
    parser.add_argument("--trials", type=bounded_int(1, 100_000), default=40,
                        help="candidates to try in all, a resumed study included (default 40)")
    parser.add_argument("--games", type=bounded_int(1, 10_000_000), default=1000,
                        help="games a candidate plays when it survives every rung (default 1000)")
    parser.add_argument("--min-games", type=bounded_int(1, 10_000_000), default=200,
                        help="games of the first rung; a candidate not among the best 1/eta there stops (default 200)")
    parser.add_argument("--eta", type=bounded_int(2, 10), default=3,
                        help="successive halving: each rung plays eta times the games of the last and keeps 1/eta (default 3)")
    parser.add_argument("--sampler", choices=["tpe", "cmaes", "random"], default="tpe",
                        help="tpe (default: Optuna's multivariate TPE, any mix of keys), cmaes (CMA-ES: many number "
                             "ranges at once, such as a family of points without --max-changes) or random")
    parser.add_argument("--players", type=int, help="players per game (default: the game's minimum)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the search and of the games (default 1)")
    parser.add_argument("--workers", type=bounded_int(1, 256), help="worker processes, at least 1 (default: one per core)")
    parser.add_argument("--dask", metavar="ADDRESS", help="play on a Dask scheduler at ADDRESS, or 'local' for a local cluster")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rules option for every game; repeatable")
    parser.add_argument("--min-count", type=bounded_int(0, 1000), default=1,
                        help="no card count below this (default 1: every card stays printable)")
    parser.add_argument("--fixed-deck", action="append", default=[], metavar="COMPONENT",
                        help="keep this component's number of cards as it is; repeatable")
    parser.add_argument("--letter-samples", type=bounded_int(100, 1_000_000), default=2000,
                        help="hands dealt for a letter target (word_rate, going_out) per candidate (default 2000)")
    parser.add_argument("--verify", type=bounded_int(1, 50), default=3, metavar="K",
                        help="re-play the best K candidates on fresh seeds (default 3)")
    parser.add_argument("--verify-games", type=bounded_int(1, 10_000_000),
                        help="games for each verified candidate and the game as it is (default: --games)")
    parser.add_argument("--fresh", action="store_true", help="start the study over instead of resuming it")
    parser.add_argument("--apply", type=bounded_int(1, 50), metavar="N",
                        help="write proposal N of the last tune (OUT/<game>/<game>-tune.json) into the game's files; no search")
    parser.add_argument("--out", type=Path, default=Path("output"), help="output folder (default output/)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def game_files_hash(root: Path) -> str:
    """What the study depends on in the game folder: its data files (an --apply changes it)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix.lower() in (".yaml", ".yml", ".csv", ".xlsx", ".ods", ".py"):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def plan_for(game, rules, options: TuneOptions):
    from spellpress.tune.space import parse_space
    from spellpress.tune.study import Plan
    from spellpress.tune.targets import parse_targets

    players = options.players or game.spec.players.min
    if rules is not None and players not in rules.players_allowed(game):
        allowed = rules.players_allowed(game)
        raise UserError.at(Option("--players"), f"{game.name} takes {allowed.start} to {allowed.stop - 1} players, not {players}")
    if options.min_games > options.games:
        raise UserError.at(Option("--min-games"),
                           f"the first rung ({options.min_games} games) is more than --games ({options.games})")
    known = {c.id for c in game.components}
    for component in options.fixed_deck:
        if component not in known:
            raise UserError.at(Option("--fixed-deck"), f"no component {component!r} (known: {', '.join(sorted(known))})")
    space = parse_space(game, rules, list(options.vary), options.max_changes)
    targets = parse_targets(list(options.target))
    return Plan(str(game.root.resolve()), players, options.seed, space, targets, options.games, options.min_games,
                options.eta, parse_options(options.option), options.min_count, options.fixed_deck,
                options.letter_samples, options.sampler)


def tune(game, options: TuneOptions) -> tuple[dict, bool]:
    """Search, then verify; (the report, whether Ctrl-C stopped the search)."""
    from spellpress.tune.journal import mended, one_run
    from spellpress.tune.power import power, power_lines
    from spellpress.tune.space import card_names, label
    from spellpress.tune.study import open_study, untriable
    from spellpress.write.destination import game_output_folder

    rules = _engine(game, options.target)
    plan = plan_for(game, rules, options)
    budget = power(plan.targets, players=plan.players, first=plan.rungs()[0] if plan.rungs() else 0,
                   games=plan.rungs()[-1] if plan.rungs() else 0, verify=options.fresh_games,
                   samples=plan.letter_samples, cards=sum(len(c.cards) for c in game.components))
    for line in power_lines(budget, plan.players):
        print(f"budget: {line}", file=sys.stderr)
    refused = untriable(game, rules, plan, list(options.vary))
    if refused:
        raise UserError([Problem(p.location, f"the game as it is cannot be played, and no --vary key changes this: "
                                             f"{p.message}") for p in refused])
    unplaceable = _apply_preview(game, plan.space)
    if unplaceable:
        print(f"warning: {unplaceable}; the search runs, but its proposals cannot be written with --apply",
              file=sys.stderr)
    folder = game_output_folder(options.out, game.id, game.root)
    path = folder / f"{game.id}-tune.study"
    with one_run(path):
        if not options.fresh:
            mended(path)
        study = open_study(path, f"{game.id}-tune", plan, options.fresh, game_files_hash(game.root))
        report, interrupted = _search_and_verify(game, rules, plan, study, options)
    names = card_names(game)
    used = {".".join(key.split(".")[1:3]) for row in report["history"] for key, _ in row["variant"] if key.startswith("cards.")}
    report["card_names"] = {card: name for card, name in names.items() if card in used}
    for row in report["history"] + report["proposals"]:
        row["changes"] = label(variant_of(row["variant"]), names)
    report["proposals_text"] = [row["changes"] for row in report["proposals"]]
    report["power"] = budget
    return report, interrupted


def _engine(game, targets: tuple[str, ...]):
    """The game's rules engine; None for a game without one whose targets are all letter targets (they play no game)."""
    from spellpress.rules.plugins import engine_name, rules_for
    from spellpress.tune.targets import parse_targets

    if engine_name(game) is None and not any(t.simulated for t in parse_targets(list(targets))):
        return None
    return rules_for(game)


def _apply_preview(game, space) -> str | None:
    """Why --apply could not write the search's values into the game's files (None: it can), found before the search."""
    from spellpress.tune.apply import new_texts

    keys = [(dim.key, dim.current) for dim in space.dimensions + tuple(m for f in space.families for m in f.members)
            if dim.current is not None or dim.key.startswith("rules.")]
    try:
        new_texts(game, tuple(keys))
    except UserError as exc:  # what it could not place, without the current values it was given to place
        first = exc.problems[0]
        return f"{first.location}: {first.message.split('; ')[0]}"
    return None


def _search_and_verify(game, rules, plan, study, options: TuneOptions) -> tuple[dict, bool]:
    from spellpress.progress import LazyProgress
    from spellpress.tune.study import Progress, proposals, search, verify

    workers = options.workers or os.cpu_count() or 1
    use_pool = bool(plan.rungs()) and (options.dask is not None or workers > 1)  # letter targets play no games
    if use_pool and options.dask is None:  # the game and its caches built once, before the workers fork
        loaded, loaded_rules = load_once(plan.folder)
        loaded_rules.new_state(loaded, plan.players, dict(plan.options))
    interrupted = False
    verified: list[dict] = []
    with LazyProgress(f"{game.id} tune", options.trials) as bar:
        status: dict[str, Any] = {"best": "-", "games": 0}

        def on_trial(finished: int, best: float | None, last: str) -> None:
            status["best"] = "-" if best is None else f"{best:.2f}"
            bar.describe(f"{game.id} tune: best score {status['best']}, {status['games']:,} games; last: {last[:40]}")
            bar.done = finished - 1
            bar.advance()

        def on_games(count: int) -> None:  # the bar counts trials; its text counts games as they are played
            status["games"] += count
            bar.describe(f"{game.id} tune: best score {status['best']}, {status['games']:,} games")
            bar.advance(0)

        try:
            with open_executor(workers, options.dask) if use_pool else nullcontext() as executor:
                search(study, game, rules, plan, options.trials, executor, workers, Progress(on_trial, on_games))
                best = proposals(study, options.verify)
                variants = [(), *[variant_of(t.user_attrs["variant"]) for t in best]]
                bar.describe(f"{game.id} tune: verifying {len(best)} proposals and the game as it is")
                verified = verify(game, rules, plan, variants, options.fresh_games, executor, workers)
        except KeyboardInterrupt:
            interrupted = True
    return _report(game, rules, plan, study, options, verified, interrupted), interrupted


def _report(game, rules, plan, study, options: TuneOptions, verified: list[dict], interrupted: bool) -> dict:
    from spellpress.tune.study import _score, proposals, spent

    best = proposals(study, options.verify, partial=interrupted)
    history = [{"index": t.user_attrs.get("index"), "state": t.state.name.lower(), "value": t.value,
                "variant": t.user_attrs.get("variant", []), "games": t.user_attrs.get("games", 0),
                "distances": t.user_attrs.get("distances", {}), "infeasible": t.user_attrs.get("infeasible"),
                "worst_cards": t.user_attrs.get("figures", {}).get("worst_cards"),
                "repeat_of": t.user_attrs.get("repeat_of")}
               for t in study.get_trials(deepcopy=False) if t.state.name in ("COMPLETE", "PRUNED")]
    rows = []
    for rank, trial in enumerate(best, 1):
        last = f"uncertainty {trial.last_step}" if trial.last_step is not None else ""
        row = {"rank": rank, "trial": trial.user_attrs["index"], "variant": trial.user_attrs["variant"],
               "search_uncertainty": trial.user_attrs.get(last, 0.0),
               "search": {"value": _score(trial), "rungs_played": len(trial.intermediate_values),
                          "distances": trial.user_attrs.get("distances", {}),
                          "figures": trial.user_attrs.get("figures", {}), "games": trial.user_attrs.get("games", 0)}}
        if verified:
            row["verified"] = verified[rank]
        rows.append(row)
    return {"game": game.id, "name": game.name, "players": plan.players, "seed": plan.seed,
            "targets": [t.text for t in plan.targets],
            "card_limit_points": next((t.high for t in plan.targets if t.name == "cards"),
                                      None), "vary": list(options.vary), "max_changes": options.max_changes,
            "rungs": plan.rungs(), "eta": plan.eta, "length_unit": rules.length_unit if rules else None,
            "verify_games": options.fresh_games if verified and plan.rungs() else 0,
            "spent": spent(study), "interrupted": interrupted,
            "baseline": verified[0] if verified else None, "proposals": rows, "history": history}


def print_tune(report: dict, seconds: float) -> None:
    from rich.console import Console
    from rich.table import Table

    from spellpress.tune.space import label

    console = Console()
    spent = report["spent"]
    players = f", {report['players']} players" if report["rungs"] else ""
    console.print(f"[bold]{report['name']}[/bold]{players}: {sum(spent['trials'].values())} trials "
                  f"({', '.join(f'{n} {s}' for s, n in spent['trials'].items())}; {spent['repeats']} repeats, "
                  f"{spent['infeasible']} infeasible), {spent['games']:,} games in the search, rungs "
                  f"{', '.join(map(str, report['rungs'])) or 'none'}; {seconds:.0f} s")
    console.print("Targets: " + "; ".join(report["targets"]))
    reasons = Counter(row["infeasible"][0] for row in report["history"] if row["infeasible"])
    if reasons:
        reason, times = reasons.most_common(1)[0]
        console.print(f"{sum(reasons.values())} candidates could not be played; most often ({times}): {reason}",
                      markup=False, highlight=False, soft_wrap=True)  # one line: the reason is what to read
    verified = bool(report["baseline"])
    fresh = f"re-played on {report['verify_games']:,} fresh games each" if report["verify_games"] else "on fresh letter samples"
    title = (f"Proposals, {fresh} (each verdict's intervals together: wrong at most 5%)" if verified
             else "Best candidates so far (search figures, not verified)")
    table = Table("#", "changes", "search score", *(["worst figure (interval)", "verdict"] if verified else []), title=title)
    table.columns[1].overflow = "fold"  # every change shown, one a line: never cut to "…"
    names = report.get("card_names", {})
    rows = ([("0", "(as shipped)", "", report["baseline"])] if verified else []) + [
        (str(row["rank"]), label(variant_of(row["variant"]), names, sep="\n"), f"{row['search']['value']:.2f}",
         row.get("verified")) for row in report["proposals"]]
    for number, text, value, checked in rows:
        extra = [_worst(checked), checked["verdict"]] if checked else []
        table.add_row(number, text, value, *extra)
    console.print(table)
    if verified:
        console.print(_others_table(report))
    close = _within_noise(report)
    if close:
        console.print(close, markup=False, highlight=False, soft_wrap=True)


def _within_noise(report: dict) -> str | None:
    """A note when the search's best could not be told from the game as it is: their scores are within the noise."""
    shipped = next((row for row in report["history"] if not row["variant"] and row["value"] is not None), None)
    if shipped is None or not report["proposals"]:
        return None
    best = report["proposals"][0]
    noise = best.get("search_uncertainty", 0.0)
    if noise and abs(best["search"]["value"] - shipped["value"]) <= 2 * noise:
        return (f"note: the search could not tell proposal 1 from the game as it is: scores {best['search']['value']:.2f} "
                f"and {shipped['value']:.2f}, each +/-{noise:.2f} at {best['search']['games']:,} games; only the "
                "verification above decides")
    return None


def _others_table(report: dict):
    """Every figure the verification measured besides the targets, each proposal beside the game as it is."""
    from rich.table import Table

    rows = [report["baseline"], *(row["verified"] for row in report["proposals"])]
    table = Table("figure", "as is", *(f"#{row['rank']}" for row in report["proposals"]),
                  title="Other figures on the same fresh games (change against the game as it is)")
    unit = f" ({report['length_unit']})" if report.get("length_unit") else ""
    for name, before in rows[0]["other"].items():
        cells = [_shown(before)]
        for row in rows[1:]:
            after = row["other"].get(name)
            cells.append("-" if after is None else f"{_shown(after)} ({after - before:+.3g})")
        table.add_row(name + (unit if name == "length" else ""), *cells)
    return table


def _shown(value: float) -> str:
    return f"{value:.3f}" if abs(value) < 1 and value != 0 else f"{value:.1f}" if value % 1 else f"{value:.0f}"


def _worst(row: dict) -> str:
    """Each target's worst figure with its interval: points for seats and cards, else the figure's own unit."""
    parts = []
    for target in row["targets"]:
        worst = target["worst"]
        if worst is None:
            continue
        low, high = worst["interval"]
        shown = "{:+.1f}" if target["name"] in ("seats", "cards") else "{:.1f}" if target["name"] == "length" else "{:.3f}"
        parts.append(f"{worst['what']} {shown.format(worst['value'])} ({shown.format(low)}..{shown.format(high)}): "
                     f"{target['verdict']}")
    return "\n".join(parts)


def run_tune(args) -> int:
    from spellpress.load.game import load_game
    from spellpress.paths import game_folders
    from spellpress.tune.apply import new_texts, stale_comments, unified_diff
    from spellpress.tune.pdf import tune_pdf
    from spellpress.write.atomic import write_bytes
    from spellpress.write.destination import game_output_folder

    options = TuneOptions.from_args(args)
    folder = game_folders([options.game])[0]
    game = load_game(folder)
    out = game_output_folder(options.out, game.id, game.root)
    if options.apply is not None:
        return _apply(game, out / f"{game.id}-tune.json", options.apply)
    if not options.vary:
        raise UserError.at(Option("--vary"), "give at least one --vary KEY=VALUES (or --apply N)")
    started = time.monotonic()
    report, interrupted = tune(game, options)
    seconds = time.monotonic() - started
    if interrupted:
        print_tune(report, seconds)
        print(f"interrupted: the study is kept in {out / f'{game.id}-tune.study'}; the same command resumes it")
        return 130
    write_bytes(out / f"{game.id}-tune.json", json.dumps(report, indent=1).encode())
    write_bytes(out / f"{game.id}-tune.pdf", tune_pdf(report))
    if options.json:
        print(json.dumps(report, indent=1))
        return 0
    print_tune(report, seconds)
    if report["proposals"]:
        variant = variant_of(report["proposals"][0]["variant"])
        if variant:
            try:
                texts = new_texts(game, variant)
                patch = unified_diff(game, texts)
            except UserError as exc:  # the search's results stand; only the patch cannot be made
                print(f"Proposal 1 cannot be shown as a patch: {exc.problems[0]}")
            else:
                verdict = _verdict(report["proposals"][0])
                if verdict == "balanced":
                    print("Proposal 1 as a patch (write it with --apply 1):")
                else:
                    print(f"warning: {_doubt(1, verdict)}", file=sys.stderr)
                    print(f"Proposal 1 as a patch ({verdict}):")
                for note in stale_comments(game, texts):
                    print(f"# {note}: read it")
                print(patch, end="")
    print(out / f"{game.id}-tune.pdf")
    return 0


def _verdict(row: dict) -> str:
    verified = row.get("verified")
    return verified["verdict"] if verified else "not verified"


def _doubt(number: int, verdict: str) -> str:
    """Why a proposal that is not verified balanced is no fix to write as it is."""
    why = {"not balanced": "a target missed on fresh games: it does not meet the targets",
           "undecided": "the fresh games cannot tell whether it meets the targets (verify with more --verify-games)"}
    return f"proposal {number} is {verdict}: {why.get(verdict, 'it was not re-played on fresh games')}"


def _apply(game, saved: Path, number: int) -> int:
    from spellpress.tune.apply import apply, stale_comments, unified_diff
    from spellpress.tune.saved import proposal, read_report

    variant, verdict = proposal(saved, read_report(saved), game, number)
    if not variant:
        print(f"proposal {number} is the game as it is: nothing to change")
        return 0
    if verdict != "balanced":
        print(f"warning: {_doubt(number, verdict)}; writing it as asked", file=sys.stderr)
    texts = apply(game, variant)
    print(unified_diff(game, texts), end="")
    print(f"applied proposal {number} ({verdict}) to " + ", ".join(str(path) for path in texts))
    for note in stale_comments(game, texts):
        print(f"warning: {note}: read it", file=sys.stderr)
    return 0
