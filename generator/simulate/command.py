"""`spellpress simulate` and `spellpress report`: run games, print or draw the balance figures."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from spellpress.arguments import bounded_int
from spellpress.errors import Location, Option, UserError
from spellpress.model.vocabulary import HELP as VOCABULARY_HELP
from spellpress.model.vocabulary import known_words_note, vocabulary_level
from spellpress.paths import game_folders
from spellpress.simulate.api import Decision, parse_options, seat_wins
from spellpress.stats import BALANCED, ERROR_RATE, NOT_BALANCED, UNDECIDED, judged_intervals, verdict
from spellpress.wording import plural
from spellpress.write.json_text import finite_json

if TYPE_CHECKING:
    from spellpress.model.game import Game
    from spellpress.simulate.runner import RunResult, Seat

BALANCE_TOLERANCE_POINTS = 3.0
_options = parse_options  # sweep's name for it
FIRST_BATCH = 200  # games played before the first verdict; each later batch doubles the total


def add_arguments(parser, default_max_games: int) -> None:
    parser.add_argument("game", metavar="GAME|PATH", help="a game id under cards/ or a game folder")
    parser.add_argument("--games", type=int,
                        help="play exactly this many games (default: play in batches of 200, 400, 800... "
                             "until the verdict is decided or --max-games is reached)")
    parser.add_argument("--max-games", type=int, default=default_max_games,
                        help=f"most games to play while the verdict is undecided (default {default_max_games})")
    parser.add_argument("--players", type=int, help="players per game (default: the game's minimum; report: every count)")
    parser.add_argument("--seed", type=int, default=1, help="run seed: the same seed gives the same figures (default 1)")
    parser.add_argument("--workers", type=bounded_int(1, 256), help="worker processes, at least 1 (default: one per core)")
    parser.add_argument("--dask", metavar="ADDRESS",
                        help="run the batches on a Dask scheduler at ADDRESS, or 'local' for a local cluster")
    parser.add_argument("--check", action="store_true", help="verify legality and invariants after every action (slower)")
    parser.add_argument("--skill", type=float, default=1.0, help="skill of every heuristic player, 0 to 1 (default 1)")
    parser.add_argument("--luck-games", type=int,
                        help="games of a skill-1 player against skill-0.3 players for the luck figure (default games/5; 0 skips)")
    parser.add_argument("--agents", metavar="A,B,...",
                        help="players, one a seat, cycled over the seats: random, heuristic, ismcts (default: heuristic in "
                             "every seat)")
    parser.add_argument("--budget", type=int, default=64, help="IS-MCTS playouts a move (default 64)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rules option for the engine (e.g. challenges=false); repeatable")
    parser.add_argument("--vocabulary", metavar="NAME|LEVEL", help=VOCABULARY_HELP)
    parser.add_argument("--level", metavar="NAME|LEVEL", default="35",
                        help="vocabulary dependence: the share of the winners' word points from words above this "
                             "SCOWL level, 10-95 or casual/everyday/expert (default 35, casual; English lists only)")


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


def _refuse_search_without_determinize(game: Game, rules, players: int, options: dict) -> None:
    """The search player re-deals what its seat cannot see; an engine that does not say how is refused."""
    import inspect

    from spellpress.simulate.ismcts import CannotSearch, refuse_unless_determinizable

    state = rules.new_state(game, players, options)
    try:
        refuse_unless_determinizable(rules, state)
    except CannotSearch as exc:
        kind = type(state)
        try:
            where: Location | Option = Location(Path(inspect.getsourcefile(kind) or ""), inspect.getsourcelines(kind)[1], 1)
        except (OSError, TypeError):
            where = Option("--agents")
        raise UserError.at(where, str(exc)) from None


def _dependence_level(value: str) -> int:
    try:
        level = vocabulary_level(str(value))
    except ValueError as exc:
        raise UserError.at(Option("--level"), str(exc)) from None
    if level is None:
        raise UserError.at(Option("--level"), "expected a SCOWL level from 10 to 95 or casual, everyday, expert: "
                           "no word is above 'all'")
    return level


def simulate(game: Game, players: int, args) -> dict:
    from spellpress.progress import LazyProgress
    from spellpress.rules.plugins import checked_settings, rules_for
    from spellpress.simulate.metrics import summary
    from spellpress.simulate.runner import RunSpec, Seat, run
    from spellpress.simulate.vocabulary_dependence import dependence_figure

    rules = rules_for(game)
    if players not in rules.players_allowed(game):
        allowed = rules.players_allowed(game)
        raise UserError.at(Option("--players"), f"{game.name} takes {allowed.start} to {allowed.stop - 1} players, not {players}")
    if args.games is not None and args.games < 1:
        raise UserError.at(Option("--games"), "must be at least 1")
    if args.games is None and args.max_games < 1:
        raise UserError.at(Option("--max-games"), "must be at least 1")
    if not 0.0 <= args.skill <= 1.0:
        raise UserError.at(Option("--skill"), "must be between 0 and 1")
    options = parse_options(args.option)
    checked_settings(game, rules, dict(options))
    lineup = _lineup(getattr(args, "agents", None), players, args.skill, getattr(args, "budget", 64))
    if any(seat.kind == "ismcts" for seat in lineup):
        from spellpress.simulate.engine_faults import blaming

        blaming(lambda: _refuse_search_without_determinize(game, rules, players, dict(options)), rules, args.seed)
    most = args.games or args.max_games
    level = _dependence_level(getattr(args, "level", "35"))
    chosen = getattr(args, "vocabulary", None)
    from spellpress.words.vocabulary import with_vocabulary

    vocabulary = with_vocabulary(game, chosen).spec.words.vocabulary
    spec = RunSpec(str(game.root.resolve()), players, most, args.seed, args.check, lineup, options,
                   variant=(("words.vocabulary", chosen),) if chosen else ())
    planned_luck = most // 5 if args.luck_games is None else args.luck_games
    if getattr(args, "agents", None) and args.luck_games is None:
        planned_luck = 0  # the luck figure is about heuristic skill; ask for it with --luck-games
    with LazyProgress(f"{game.id}, {players} players", most + planned_luck, lines=True) as bar:
        result: RunResult | None = None
        plan = batch_plan(args.games, args.max_games)
        looks = [stop for _, stop in plan]
        for look, (first, stop) in enumerate(plan):
            part = replace(spec, games=stop - first, first=first)
            result = run(part, workers=args.workers, dask=args.dask, progress=bar.advance, into=result)
            if judge(result, looks, look)[0] != UNDECIDED:
                break
        assert result is not None  # the plan holds at least one batch
        played = result.tally.games
        luck_games = (played // 5 if args.luck_games is None else args.luck_games) if planned_luck else 0
        luck = None
        note = ""
        if luck_games > 0:
            lineup = (Seat("heuristic", 1.0),) + tuple(Seat("heuristic", 0.3) for _ in range(players - 1))
            luck_spec = RunSpec(spec.folder, players, luck_games, args.seed + 1, False, lineup, options,
                                common_random_numbers=True, variant=spec.variant)
            luck = run(luck_spec, workers=args.workers, dask=args.dask, progress=bar.advance)
            note = "one skill-1.0 player against skill-0.3 players, seats rotated over common random numbers"
    report = summary(result, luck, note)
    report["vocabulary_dependence"] = dependence_figure(result.tally.word_points, game, level)
    report["game"] = game.id
    report["name"] = game.name
    report["vocabulary"] = vocabulary  # a SCOWL level, or None: every word of the list
    report["length_unit"] = rules.length_unit
    report["seconds_per_turn"] = rules.seconds_per_turn
    report["minutes_mean"] = round(report["length"].get("mean", 0) * rules.seconds_per_turn / 60, 1)
    report["verdict"], report["verdict_reason"] = judge(result, looks, look)
    decision = verdict_decision(result, looks, look)
    report["verdict_z"] = round(decision.z, 4)
    report["verdict_z_inside"] = round(decision.z_inside, 4)
    report["verdict_looks"] = looks[:look + 1]
    report["verdict_error_rate"] = ERROR_RATE
    report["balanced"] = report["verdict"] == BALANCED
    report["decided"] = report["verdict"] != UNDECIDED
    report["band_points"] = BALANCE_TOLERANCE_POINTS
    report["games_rule"] = (f"exactly {args.games} games (--games)" if args.games else
                            f"batches until decided, at most {args.max_games:,} games (--max-games)")
    return report


def batch_plan(games: int | None, max_games: int) -> list[tuple[int, int]]:
    """Game index ranges to play: [0, games) at once for --games, else FIRST_BATCH games and
    then doublings of the total, up to max_games."""
    if games:
        return [(0, games)]
    plan, done, total = [], 0, min(FIRST_BATCH, max_games)
    while done < max_games:
        plan.append((done, total))
        done, total = total, min(2 * total, max_games)
    return plan


def verdict_decision(result, looks: list[int], look: int) -> Decision:
    """How the verdict's intervals are drawn at this look of the plan (spellpress.simulate.api.Decision)."""
    return Decision(judged_intervals(seat_wins(result.tally), result.tally.finished), tuple(looks), look)


def judge(result, looks: list[int] | None = None, look: int = 0) -> tuple[str, str]:
    """(verdict, why) of a run at look number `look` of the plan `looks` (default: the run's games
    judged once): stalled games are never balanced; else the seats' (or teams') intervals, with the
    error rate spent over the looks (and shared among the seats for a miss), against the band
    (spellpress.stats)."""
    tally = result.tally
    stalls = tally.games - tally.finished
    if stalls:
        return NOT_BALANCED, plural(stalls, "stalled game")
    wins = seat_wins(tally)
    who = "team" if tally.teams else "seat"
    decision = verdict_decision(result, looks or [tally.games], look)
    found = verdict(wins, tally.finished, BALANCE_TOLERANCE_POINTS, z=decision.z, z_inside=decision.z_inside)
    band = f"the +/-{BALANCE_TOLERANCE_POINTS:g}-point band around its fair share"
    wrong = f"wrong at most {ERROR_RATE:.0%} of the time over every look"
    return found, {BALANCED: f"every {who}'s interval lies inside {band} (one-sided z = {decision.z_inside:.2f}: "
                             f"{wrong})",
                   NOT_BALANCED: f"some {who}'s interval lies wholly outside {band} (z = {decision.z:.2f}: {wrong} "
                                 f"and {who})",
                   UNDECIDED: f"some {who}'s interval reaches across the edge of {band}: more games will tell"}[found]


def print_report(report: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    from spellpress.simulate.metrics import difference_text, effect_size
    from spellpress.simulate.vocabulary_dependence import dependence_text

    console = Console()
    console.print(f"[bold]{report['name']}[/bold]: {report['games']:,} games, {report['players']} players, seed {report['seed']}")
    console.print(known_words_note(report.get("vocabulary")))
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
    console.print(f"Score margin first-second: {spread['mean_margin_first_second']:.1f}; first-last: "
                  f"{spread['mean_spread_first_last']:.1f}")
    components = sorted(report["components"], key=effect_size)
    if components:
        table = Table("played", "play rate", "win rate played", "not played", "difference",
                      title="Cards and letters (largest effect first)")
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
        agents = Table("player", "seats a game", "win rate", "95% CI", "vs a seat's fair share",
                       title="Players (wherever they sat)")
        for row in report["agents"]:
            low, high = row["ci95"]
            agents.add_row(row["agent"], str(row["seats"]), f"{100 * row['win_rate']:.1f}%", f"{100 * low:.1f}-{100 * high:.1f}%",
                           f"{100 * (row['win_rate'] - row['fair_share']):+.1f} pts")
        console.print(agents)
    if "luck" in report:
        luck = report["luck"]
        console.print(f"Luck: the better player won {100 * luck['better_player_win_rate']:.1f}% "
                      f"(fair share {100 * luck['fair_share']:.0f}%; {luck['lineup']})")
    if "vocabulary_dependence" in report:
        console.print(dependence_text(report["vocabulary_dependence"]))
    console.print(verdict_text(report))


def verdict_text(report: dict) -> str:
    """'Verdict: balanced after 800 games (...)': which verdict, how many games it took, and why."""
    judged = "team" if report.get("judged_by") == "teams" else "seat"
    name = report["verdict"].upper() if report["verdict"] == NOT_BALANCED else report["verdict"]
    return (f"Verdict: {name} after {report['games']:,} games ({report['games_rule']}): {report['verdict_reason']}; "
            f"worst {judged} {report['max_seat_deviation_points']:.1f} points off")


def run_simulate(args) -> int:
    from spellpress.load.game import load_game

    folder = game_folders([args.game])[0]
    game = load_game(folder)
    report = simulate(game, args.players or game.spec.players.min, args)
    if args.json:
        print(finite_json(report))
    else:
        print_report(report)
    return 0


def run_report(args) -> int:
    from spellpress.load.game import load_game
    from spellpress.simulate.balance_pdf import balance_pdf
    from spellpress.write.atomic import write_bytes
    from spellpress.write.destination import game_output_folder

    folder = game_folders([args.game])[0]
    game = load_game(folder)
    out = game_output_folder(args.out, game.id, game.root) / f"{game.id}-balance.pdf"
    counts = [args.players] if args.players else list(range(game.spec.players.min, min(game.spec.players.max, 6) + 1))
    reports = [simulate(game, players, args) for players in counts]
    write_bytes(out, balance_pdf(game.name, reports))
    write_bytes(out.with_suffix(".json"), finite_json(reports).encode())
    for report in reports:
        print(f"{report['players']} players: {report['verdict']} after {report['games']:,} games, worst seat "
              f"{report['max_seat_deviation_points']:.1f} points off, {report['stalls']} stalls, "
              f"mean length {report['length'].get('mean', 0):.1f} {report['length_unit']}")
    print(out)
    return 0


def register(commands) -> None:
    simulate_parser = commands.add_parser("simulate", help="play many games of the real rules and report balance; runs the "
                                                           "game's rules engine (its Python)")
    add_arguments(simulate_parser, default_max_games=20000)
    simulate_parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    report_parser = commands.add_parser("report", help="simulate and write OUT/<game>/<game>-balance.pdf with charts; runs the "
                                                       "game's rules engine (its Python)")
    add_arguments(report_parser, default_max_games=10000)
    report_parser.add_argument("--out", type=Path, default=Path("output"))
