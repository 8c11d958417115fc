"""`spellpress simulate` and `spellpress report`: run games, print or draw the balance figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from spellpress.arguments import bounded_int
from spellpress.errors import Option, UserError
from spellpress.paths import game_folders

if TYPE_CHECKING:
    from spellpress.model.deck import Game
    from spellpress.simulate.runner import Seat

BALANCE_TOLERANCE_POINTS = 3.0


def add_arguments(parser, default_games: int) -> None:
    parser.add_argument("game", metavar="GAME|PATH", help="a game id under cards/ or a game folder")
    parser.add_argument("--games", type=int, default=default_games, help=f"games to play (default {default_games})")
    parser.add_argument("--players", type=int, help="players per game (default: the game's minimum; report: every count)")
    parser.add_argument("--seed", type=int, default=1, help="run seed: the same seed gives the same figures (default 1)")
    parser.add_argument("--workers", type=bounded_int(1, 256), help="worker processes, at least 1 (default: one per core)")
    parser.add_argument("--dask", metavar="ADDRESS", help="run the batches on a Dask scheduler at ADDRESS, or 'local' for a local cluster")
    parser.add_argument("--check", action="store_true", help="verify legality and invariants after every action (slower)")
    parser.add_argument("--skill", type=float, default=1.0, help="skill of every heuristic player, 0 to 1 (default 1)")
    parser.add_argument("--luck-games", type=int, help="games of a skill-1 player against skill-0.3 players for the luck figure (default games/5; 0 skips)")
    parser.add_argument("--agents", metavar="A,B,...",
                        help="players, one a seat, cycled over the seats: random, heuristic, ismcts (default: heuristic in every seat)")
    parser.add_argument("--budget", type=int, default=64, help="IS-MCTS playouts a move (default 64)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rules option for the engine (e.g. challenges=false); repeatable")


def _options(pairs: list[str]) -> tuple[tuple[str, object], ...]:
    from spellpress.simulate.variants import parse_value

    options = []
    for pair in pairs:
        if "=" not in pair:
            raise UserError.at(Option("--option"), f"expected KEY=VALUE, got {pair!r}")
        key, value = pair.split("=", 1)
        options.append((key.strip(), parse_value(value)))
    return tuple(options)


def _lineup(agents: str | None, players: int, skill: float, budget: int) -> tuple[Seat, ...]:
    """One Seat a player from --agents (cycled over the seats), or the heuristic everywhere."""
    from spellpress.simulate.runner import AGENTS, Seat

    if budget < 1:
        raise UserError.at(Option("--budget"), "must be at least 1 playout a move")
    names = [name.strip().lower() for name in (agents or "heuristic").split(",") if name.strip()]
    for name in names:
        if name not in AGENTS:
            raise UserError.at(Option("--agents"), f"unknown player {name!r} (known: {', '.join(AGENTS)})")
    if not names:
        raise UserError.at(Option("--agents"), f"name at least one player ({', '.join(AGENTS)})")
    return tuple(Seat(names[s % len(names)], skill, budget) for s in range(players))


def simulate(game: Game, players: int, args) -> dict:
    from spellpress.progress import LazyProgress
    from spellpress.rules.plugins import checked_settings, rules_for
    from spellpress.simulate.metrics import summary
    from spellpress.simulate.runner import RunSpec, Seat, run

    rules = rules_for(game)
    if players not in rules.players_allowed(game):
        allowed = rules.players_allowed(game)
        raise UserError.at(Option("--players"), f"{game.name} takes {allowed.start} to {allowed.stop - 1} players, not {players}")
    if args.games < 1:
        raise UserError.at(Option("--games"), "must be at least 1")
    if not 0.0 <= args.skill <= 1.0:
        raise UserError.at(Option("--skill"), "must be between 0 and 1")
    options = _options(args.option)
    checked_settings(game, rules, dict(options))
    lineup = _lineup(getattr(args, "agents", None), players, args.skill, getattr(args, "budget", 64))
    spec = RunSpec(str(game.root.resolve()), players, args.games, args.seed, args.check, lineup, options)
    luck_games = args.games // 5 if args.luck_games is None else args.luck_games
    if getattr(args, "agents", None) and args.luck_games is None:
        luck_games = 0  # the luck figure is about heuristic skill; ask for it with --luck-games
    with LazyProgress(f"{game.id}, {players} players", args.games + luck_games) as bar:
        result = run(spec, workers=args.workers, dask=args.dask, progress=bar.advance)
        luck = None
        note = ""
        if luck_games > 0:
            lineup = (Seat("heuristic", 1.0),) + tuple(Seat("heuristic", 0.3) for _ in range(players - 1))
            luck_spec = RunSpec(spec.folder, players, luck_games, args.seed + 1, False, lineup, options,
                                common_random_numbers=True)
            luck = run(luck_spec, workers=args.workers, dask=args.dask, progress=bar.advance)
            note = "one skill-1.0 player against skill-0.3 players, seats rotated over common random numbers"
    report = summary(result, luck, note)
    report["game"] = game.id
    report["name"] = game.name
    report["length_unit"] = rules.length_unit
    report["seconds_per_turn"] = rules.seconds_per_turn
    report["minutes_mean"] = round(report["length"].get("mean", 0) * rules.seconds_per_turn / 60, 1)
    report["balanced"] = report["max_seat_deviation_points"] <= BALANCE_TOLERANCE_POINTS and report["stalls"] == 0
    return report


def print_report(report: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    from spellpress.simulate.metrics import difference_text, effect_size

    console = Console()
    console.print(f"[bold]{report['name']}[/bold]: {report['games']} games, {report['players']} players, seed {report['seed']}")
    seats = Table("seat", "win rate", "95% CI", "vs fair share", "mean score", title="Seats")
    for row in report["seats"]:
        low, high = row["ci95"]
        seats.add_row(str(row["seat"]), f"{100 * row['win_rate']:.1f}%", f"{100 * low:.1f}-{100 * high:.1f}%",
                      f"{100 * (row['win_rate'] - row['fair_share']):+.1f} pts", f"{row['mean_score']:.1f}")
    console.print(seats)
    if report.get("teams"):
        teams = Table("team", "seats", "win rate", "95% CI", "vs fair share", title="Teams (seats that win together)")
        for row in report["teams"]:
            low, high = row["ci95"]
            teams.add_row(str(row["team"]), ", ".join(map(str, row["seats"])), f"{100 * row['win_rate']:.1f}%",
                          f"{100 * low:.1f}-{100 * high:.1f}%", f"{100 * (row['win_rate'] - row['fair_share']):+.1f} pts")
        console.print(teams)
    length = report["length"]
    unit = report["length_unit"]
    console.print(f"Length ({unit}): mean {length.get('mean', 0):.1f}, median {length.get('median', 0)}, "
                  f"10-90% {length.get('p10', 0)}-{length.get('p90', 0)}; about {report['minutes_mean']} min "
                  f"at {report['seconds_per_turn']:g} s per {unit[:-1]}")
    console.print(f"Stalls: {report['stalls']}")
    spread = report["score_spread"]
    console.print(f"Score margin first-second: {spread['mean_margin_first_second']:.1f}; first-last: {spread['mean_spread_first_last']:.1f}")
    components = sorted(report["components"], key=effect_size)
    if components:
        table = Table("played", "play rate", "win rate played", "not played", "difference", title="Cards and letters (largest effect first)")
        for row in components[:15]:
            table.add_row(row["key"], f"{100 * row['play_rate']:.1f}%", f"{100 * row['win_rate_played']:.1f}%",
                          f"{100 * row['win_rate_not_played']:.1f}%", difference_text(row))
        console.print(table)
    if report["figures"]:
        console.print("Per game: " + ", ".join(f"{k} {v:.2f}" for k, v in report["figures"].items()))
    if report.get("game_metrics"):
        from spellpress.simulate.game_metrics import rows

        metrics = Table("figure", "value", title="How the games unfold (docs/simulate.md)")
        for label, value in rows(report["game_metrics"]):
            metrics.add_row(label, value)
        console.print(metrics)
    if report.get("agents"):
        agents = Table("player", "seats a game", "win rate", "95% CI", "vs a seat's fair share", title="Players (wherever they sat)")
        for row in report["agents"]:
            low, high = row["ci95"]
            agents.add_row(row["agent"], str(row["seats"]), f"{100 * row['win_rate']:.1f}%", f"{100 * low:.1f}-{100 * high:.1f}%",
                           f"{100 * (row['win_rate'] - row['fair_share']):+.1f} pts")
        console.print(agents)
    if "luck" in report:
        luck = report["luck"]
        console.print(f"Luck: the better player won {100 * luck['better_player_win_rate']:.1f}% "
                      f"(fair share {100 * luck['fair_share']:.0f}%; {luck['lineup']})")
    verdict = "balanced" if report["balanced"] else "NOT balanced"
    judged = "team" if report.get("judged_by") == "teams" else "seat"
    console.print(f"Verdict: {verdict} (every {judged} within {BALANCE_TOLERANCE_POINTS:g} points of its fair share, no stalls): "
                  f"worst {judged} {report['max_seat_deviation_points']:.1f} points off")


def cmd_simulate(args) -> int:
    from spellpress.load.game import load_game

    folder = game_folders([args.game])[0]
    game = load_game(folder)
    report = simulate(game, args.players or game.spec.players.min, args)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print_report(report)
    return 0


def cmd_report(args) -> int:
    from spellpress.load.game import load_game
    from spellpress.simulate.report_pdf import balance_pdf
    from spellpress.write.atomic import write_bytes
    from spellpress.write.destination import game_output_folder

    folder = game_folders([args.game])[0]
    game = load_game(folder)
    out = game_output_folder(args.out, game.id, game.root) / f"{game.id}-balance.pdf"
    counts = [args.players] if args.players else list(range(game.spec.players.min, min(game.spec.players.max, 6) + 1))
    reports = [simulate(game, players, args) for players in counts]
    write_bytes(out, balance_pdf(game.name, reports))
    write_bytes(out.with_suffix(".json"), json.dumps(reports, indent=1).encode())
    for report in reports:
        print(f"{report['players']} players: worst seat {report['max_seat_deviation_points']:.1f} points off, "
              f"{report['stalls']} stalls, mean length {report['length'].get('mean', 0):.1f} {report['length_unit']}")
    print(out)
    return 0


def register(commands) -> None:
    simulate_parser = commands.add_parser("simulate", help="play many games of the real rules and report balance; runs the game's rules engine (its Python)")
    add_arguments(simulate_parser, default_games=2000)
    simulate_parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    simulate_parser.set_defaults(handler=cmd_simulate)
    report_parser = commands.add_parser("report", help="simulate and write OUT/<game>/<game>-balance.pdf with charts; runs the game's rules engine (its Python)")
    add_arguments(report_parser, default_games=1000)
    report_parser.add_argument("--out", type=Path, default=Path("output"))
    report_parser.set_defaults(handler=cmd_report)
