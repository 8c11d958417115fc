"""`spellpress check-engine GAME`: play seeded games of a game's rules engine and check it keeps the protocol."""

from __future__ import annotations

from spellpress.errors import Location, Option, Problems, UserError
from spellpress.paths import game_folders


def register(commands) -> None:
    parser = commands.add_parser(
        "check-engine", help="play random and heuristic games of a game's rules engine and check it keeps the protocol",
        description="Plays a few seeded random and heuristic games of GAME's rules engine and checks, position by "
                    "position: chance probabilities positive and summing to 1; legal_actions() deterministic, every "
                    "listed action applies; a clone shares no state with its original; determinize(seat, rng) keeps "
                    "what the seat sees and re-deals only what it cannot; scores finite; games end within the turn "
                    "cap; the same seed gives the same games on 1 and 2 workers. Exit 2 with each failure at the "
                    "engine's file:line. This RUNS THE ENGINE'S PYTHON CODE (a game folder's rules.py included): "
                    "check only games you would run. See docs/rules.md.")
    parser.add_argument("game", nargs="?", metavar="GAME|PATH",
                        help="a game id under cards/ or a game folder that names an engine (default: the game whose folder you "
                             "are in)")
    parser.add_argument("--players", type=int, action="append",
                        help="player count to play (repeatable; default: the game's fewest and most)")
    parser.add_argument("--games", type=int, default=2, help="heuristic games at the first player count (default 2)")
    parser.add_argument("--random-games", type=int, default=1, help="games of random players (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="the games' seed (default 1)")
    parser.add_argument("--no-workers", action="store_true",
                        help="skip the 1-versus-2-workers comparison (it starts worker processes)")


def run_check_engine(args) -> int:
    from rich.console import Console
    from rich.table import Table

    from spellpress.load.game import load_game
    from spellpress.progress import LazyProgress
    from spellpress.rules.plugins import check_engine as check_rules_keys
    from spellpress.rules.plugins import rules_for
    from spellpress.simulate.conformance import check_engine, game_plan, summary_lines
    from spellpress.simulate.engine_faults import blaming

    folders = game_folders([args.game] if args.game else [])
    if len(folders) != 1:
        raise UserError.at(Option("GAME"), "name the game whose engine to check (or run it inside the game's folder)")
    folder = folders[0]
    game = load_game(folder)
    rules = rules_for(game)  # a game without an engine: the usual error, before anything runs
    check_rules_keys(game)  # its rules: keys, components and fields, against what the engine reads
    allowed = rules.players_allowed(game)
    for count in args.players or []:
        if count not in allowed:
            raise UserError.at(Option("--players"),
                               f"{game.name} takes {allowed.start} to {allowed.stop - 1} players, not {count}")
    for name in ("games", "random_games"):
        if getattr(args, name) < 0:
            raise UserError.at(Option("--" + name.replace("_", "-")), "must be 0 or more")
    options = dict(players=sorted(set(args.players)) if args.players else None, seed=args.seed,
                   random_games=args.random_games, heuristic_games=args.games)
    total = blaming(lambda: len(game_plan(rules, game, **options)), rules, args.seed) + (0 if args.no_workers else 1)
    with LazyProgress(f"checking the {rules.id} engine", total) as bar:  # the games are guarded; a probe is not
        report = blaming(lambda: check_engine(folder, **options, workers=not args.no_workers, progress=bar.advance),
                         rules, args.seed)
    console = Console()
    console.print(f"[bold]{game.name}[/bold]: the {report.engine} engine, {len(report.games)} games played to the end")
    table = Table("", "check", "looked at")
    for status, what, detail in summary_lines(report):
        table.add_row({"FAIL": "[red]FAIL[/red]", "skipped": "[yellow]skipped[/yellow]"}.get(status, "[green]ok[/green]"),
                      what, detail)
    console.print(table)
    for note in report.notes:
        console.print(f"note: {note}")
    if report.ok:
        console.print("The engine keeps the protocol in every position checked.")
        return 0
    problems = Problems()
    for finding in report.findings:
        problems.add(finding.where or Location(folder / "game.yaml"), f"[{finding.check}] {finding.message}")
    problems.raise_if_any()
    return 2
