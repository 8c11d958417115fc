"""`spellpress sweep`: simulate a grid of variants of a game and chart the figures side by side.

Every variant (a combination of --vary values) is validated like a build before any game
is played, then all variants run on one process pool or Dask cluster (every variant x
batch is a task). Output: a table (or --json) and OUT/<game>/<game>-sweep.pdf.
"""

from __future__ import annotations

from pathlib import Path

from spellpress.arguments import bounded_int
from spellpress.errors import Option, UserError
from spellpress.paths import game_folders
from spellpress.write.json_text import finite_json

SPREAD_LIMIT = 3.0  # points: a variant whose worst seat is further from its fair share is marked


def register(commands) -> None:
    parser = commands.add_parser("sweep", help="simulate a grid of rules and card variants; table and "
                                               "OUT/<game>/<game>-sweep.pdf; runs the game's rules engine (its Python)")
    parser.add_argument("game", metavar="GAME|PATH", help="a game id under cards/ or a game folder")
    parser.add_argument("--vary", action="append", default=[], metavar="KEY=V1,V2,...",
                        help="values to try for a game.yaml rules key (rules.health=20,25,30) or a card field "
                             "(cards.consonants.q.count=1,2,3; a card by id or letter/word/name); repeatable: the grid "
                             "is every combination")
    parser.add_argument("--games", type=int, default=500, help="games per variant (default 500)")
    parser.add_argument("--players", type=int, help="players per game (default: the game's minimum)")
    parser.add_argument("--seed", type=int, default=1, help="run seed, the same for every variant (default 1)")
    parser.add_argument("--workers", type=bounded_int(1, 256), help="worker processes, at least 1 (default: one per core)")
    parser.add_argument("--dask", metavar="ADDRESS", help="run on a Dask scheduler at ADDRESS, or 'local' for a local cluster")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rules option for every variant; repeatable")
    parser.add_argument("--out", type=Path, default=Path("output"), help="output folder (default output/)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def sweep(game, args) -> dict:
    from spellpress.progress import LazyProgress
    from spellpress.rules.plugins import rules_for
    from spellpress.simulate.command import _options
    from spellpress.simulate.metrics import summary
    from spellpress.simulate.runner import RunSpec, run_many
    from spellpress.simulate.variants import checked_variant, grid, parse_vary

    rules = rules_for(game)
    players = args.players or game.spec.players.min
    if players not in rules.players_allowed(game):
        allowed = rules.players_allowed(game)
        raise UserError.at(Option("--players"), f"{game.name} takes {allowed.start} to {allowed.stop - 1} players, not {players}")
    if args.games < 1:
        raise UserError.at(Option("--games"), "must be at least 1")
    axes = parse_vary(args.vary)
    variants = grid(axes)
    options = _options(args.option)
    for variant in variants:  # every variant is checked before any game is played
        changed = checked_variant(game, rules, variant, dict(options))
        if players not in rules.players_allowed(changed):
            raise UserError.at(Option("--players"), f"variant {_label(variant)} takes no {players} players")
    folder = str(game.root.resolve())
    specs = [RunSpec(folder, players, args.games, args.seed, options=options, variant=variant) for variant in variants]
    with LazyProgress(f"{game.id} sweep, {len(specs)} variants", args.games * len(specs), lines=True) as bar:
        results = run_many(specs, workers=args.workers, dask=args.dask, progress=bar.advance)
    rows = []
    for variant, result in zip(variants, results, strict=False):
        report = summary(result)
        rows.append({
            "variant": {key: value for key, value in variant},
            "seats": [{k: row[k] for k in ("seat", "win_rate", "ci95")} for row in report["seats"]],
            "teams": report["teams"],
            "seat_spread_points": report["max_seat_deviation_points"],
            "over_limit": report["max_seat_deviation_points"] > SPREAD_LIMIT,
            "stalls": report["stalls"],
            "length_mean": report["length"].get("mean", 0.0),
            "game_metrics": report["game_metrics"],
        })
    return {"game": game.id, "name": game.name, "players": players, "games_per_variant": args.games,
            "seed": args.seed, "axes": [{"key": key, "values": values} for key, values in axes],
            "length_unit": rules.length_unit, "spread_limit_points": SPREAD_LIMIT, "variants": rows}


def _short_key(key: str) -> str:
    """rules.health -> health; cards.consonants.q.count -> q.count."""
    parts = key.split(".")
    return ".".join(parts[1:]) if parts[0] == "rules" else ".".join(parts[2:])


def _label(variant) -> str:
    return ", ".join(f"{_short_key(key)}={value}" for key, value in variant)


def _short(row: dict) -> str:
    return _label(row["variant"].items())


CHARTS = [  # (figure, title, percent)
    ("seat_spread_points", "worst seat (or team) off its fair share, points; dashed: the 3-point limit", False),
    ("length_mean", "mean game length", False),
    ("lead_changes", "lead changes a game", False),
    ("decided_at", "decided at (share of the game)", True),
    ("drama", "drama: the winner's mean deficit when trailing", False),
    ("branching_factor", "branching factor (legal actions a decision)", False),
]


def _value(row: dict, key: str) -> float | None:
    return row[key] if key in row else row["game_metrics"].get(key)


def sweep_pdf(report: dict) -> bytes:
    from spellpress.write.report_document import Report

    doc = Report(f"{report['name']}: sweep")
    doc.text(f"{report['players']} players, {report['games_per_variant']} games a variant, seed {report['seed']}. "
             f"Varied: " + "; ".join(f"{a['key']} = {', '.join(map(str, a['values']))}" for a in report["axes"])
             + f". Variants marked * have a seat more than {report['spread_limit_points']:g} points from its fair share.")
    rows = report["variants"]
    labels = [f"v{number}" + ("*" if row["over_limit"] else "") for number, row in enumerate(rows, 1)]
    players = report["players"]
    doc.table(["variant", "values"], [[label, _short(row)] for label, row in zip(labels, rows, strict=False)], widths=[20, 120])
    seats = [[row["seats"][s]["win_rate"] for row in rows] for s in range(players)]
    doc.heading("Seat win rates")
    for s in range(players):
        doc.bars(labels, [seats[s]], reference=1 / players, percent=True,
                 errors=[tuple(row["seats"][s]["ci95"]) for row in rows], value_max=min(1.0, max(seats[s]) * 1.4 + 0.05),
                 height_mm=45, caption=f"seat {s + 1}: win rate per variant with 95% CI; dashed: fair share")
    doc.heading("Figures per variant")
    for key, title, percent in CHARTS:
        values = [v for v in (_value(row, key) for row in rows) if v is not None]
        if len(values) < len(rows):
            continue
        unit = f" ({report['length_unit']})" if key == "length_mean" else ""
        doc.bars(labels, [values], percent=percent, height_mm=45, caption=title + unit,
                 reference=report["spread_limit_points"] if key == "seat_spread_points" else None)
    header = ["variant", *[f"seat {s + 1}" for s in range(players)], "spread", "stalls", "length"]
    doc.table(header, [[label, *[f"{100 * row['seats'][s]['win_rate']:.1f}%" for s in range(players)],
                        f"{row['seat_spread_points']:.1f}", str(row["stalls"]), f"{row['length_mean']:.1f}"]
                       for label, row in zip(labels, rows, strict=False)])
    return doc.pdf()


def print_sweep(report: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    players = report["players"]
    table = Table("variant", *[f"seat {s + 1}" for s in range(players)], "spread (pts)", "stalls",
                  f"length ({report['length_unit']})", "lead changes", "decided at",
                  title=f"{report['name']}: {report['games_per_variant']} games a variant, {players} players, seed "
                        f"{report['seed']}")
    for row in report["variants"]:
        metrics = row["game_metrics"]
        mark = " *" if row["over_limit"] else ""
        table.add_row(_short(row) + mark, *[f"{100 * s['win_rate']:.1f}%" for s in row["seats"]],
                      f"{row['seat_spread_points']:.1f}", str(row["stalls"]), f"{row['length_mean']:.1f}",
                      f"{metrics.get('lead_changes') or 0:.2f}",
                      "n/a" if metrics.get("decided_at") is None else f"{metrics['decided_at']:.0%}")
    console = Console()
    console.print(table)
    console.print(f"* a seat more than {report['spread_limit_points']:g} points from its fair share")


def run_sweep(args) -> int:
    from spellpress.load.game import load_game
    from spellpress.write.atomic import write_bytes
    from spellpress.write.destination import game_output_folder

    folder = game_folders([args.game])[0]
    game = load_game(folder)
    out = game_output_folder(args.out, game.id, game.root) / f"{game.id}-sweep.pdf"
    report = sweep(game, args)
    write_bytes(out, sweep_pdf(report))
    if args.json:
        print(finite_json(report))
    else:
        print_sweep(report)
        print(out)
    return 0

