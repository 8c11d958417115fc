"""`spellpress play`: a card table in the browser, a designer against the bots, by the game's own rules."""

from __future__ import annotations

import argparse
import asyncio
import logging
import math
import random
from pathlib import Path

from spellpress.build import BuildOptions
from spellpress.errors import Location, Option, UserError
from spellpress.load.game import load_game
from spellpress.play.app import create_app, seat_keys
from spellpress.play.records import NotARecord, load, replay_problem, writable_folder
from spellpress.play.table import BOTS, HUMAN, PEOPLE, SeatSpec, Table
from spellpress.rules.plugins import rules_for
from spellpress.serve.command import game_folder, listening_socket
from spellpress.serve.guard import Guard, host_name, is_loopback
from spellpress.serve.preview import Preview
from spellpress.simulate.engine_faults import blaming
from spellpress.write.destination import game_output_folder

DEFAULT_PORT = 8766
SEATS_WHERE = Option("--seats")
MAX_PAUSE_S = 60.0  # the page's wait before a bot's move
MAX_THINK_S = 3600.0  # an ismcts seat's search a move


def register(commands) -> None:
    parser = commands.add_parser(
        "play", help="play a game in the browser against the bots (runs the game's rules code)",
        description="Serve a card table on this computer: your hand along the bottom drawn with the game's own "
                    "card faces, the bots' hands as backs, the piles, the scores and a move log. Click a card to "
                    "play it, or type a word. Every game is saved as JSON (game, seed, seats, actions) under "
                    "OUT/play/GAME/ and can be replayed move by move. This command runs the game's rules engine, "
                    "which for a game folder with its own rules.py is Python code from that folder: play only "
                    "games you trust.")
    parser.add_argument("game", metavar="GAME|PATH", help="a game id under cards/ or a game folder")
    parser.add_argument("--seats", default=None,
                        help="who sits where, one a seat, comma-separated: human, remote, heuristic, random, ismcts "
                             "(several humans play hot-seat at one screen; a remote seat is a person at another "
                             "browser, by the link printed for it; default: human then heuristic bots "
                             "up to the game's smallest table of 2 or more)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the first game (default: a random one, printed)")
    parser.add_argument("--budget", type=int, default=32, help="IS-MCTS playouts a move for ismcts seats (default 32)")
    parser.add_argument("--think", type=float, default=0.8,
                        help="seconds an ismcts seat may search a move; then it plays the heuristic's move unless "
                             "it has already confirmed a better one; 0: always its whole budget (default 0.8)")
    parser.add_argument("--pause", type=float, default=0.6,
                        help="seconds the page waits before a bot moves, so you see each move (default 0.6)")
    parser.add_argument("--timed", action=argparse.BooleanOptionalAction, default=True,
                        help="in a race (A Word to the Wise) your word is placed by the time you really took to "
                             "choose it, the bots' by the engine's speed model; --no-timed draws yours from the "
                             "model too (default: timed)")
    parser.add_argument("--replay", type=Path, default=None, metavar="RECORD.json",
                        help="open the page on a saved game, to step through it move by move")
    parser.add_argument("--agreement", action="store_true",
                        help="do not serve: say how often the game's heuristic would have made the recorded human moves")
    parser.add_argument("--stats", action="store_true",
                        help="do not serve: people against the bots in the saved records (points, word length, "
                             "wins, going out, game length, with 95%% intervals)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"port to listen on; 0 picks a free one (default {DEFAULT_PORT})")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this computer only; any other lets everyone who "
                             "can reach it see your hand and play your moves)")
    parser.add_argument("--out", type=Path, default=Path("output"),
                        help="output folder; records go to OUT/play/GAME/ (default: output)")


def parse_seats(text: str | None, allowed: range, budget: int, think: float = 0.8):

    if budget < 1:
        raise UserError.at(Option("--budget"), "must be at least 1 playout a move")
    if text is None:
        players = min(max(2, allowed.start), allowed.stop - 1)
        names = [HUMAN] + ["heuristic"] * (players - 1)
    else:
        names = [name.strip().lower() for name in text.split(",") if name.strip()]
    for name in names:
        if name not in PEOPLE and name not in BOTS:
            raise UserError.at(SEATS_WHERE, f"unknown seat {name!r} (known: {', '.join(PEOPLE + BOTS)})")
    if len(names) not in allowed:
        raise UserError.at(SEATS_WHERE, f"{len(names)} seats, but the game is for {allowed.start} to {allowed.stop - 1} players")
    if think < 0:
        raise UserError.at(Option("--think"), f"must be 0 or more seconds, not {think}")
    return [SeatSpec(name, budget, think or None) for name in names]


def seconds(option: str, value: float, most: float) -> None:
    if not (math.isfinite(value) and 0 <= value <= most):
        raise UserError.at(Option(option), f"must be a number of seconds from 0 to {most:g}, not {value:g}")


def records_folder(out: Path, game_id: str, game_root: Path) -> Path:
    """OUT/play/GAME, refused at the start when it lies in a game folder or cannot be written to (else
    the first game would be lost at its end)."""

    folder = game_output_folder(out / "play", game_id, game_root)
    problem = writable_folder(folder)
    if problem:
        raise UserError.at(Location(folder), f"cannot save game records here: {problem}; choose another --out")
    return out / "play"


def replayed(path: Path, rules, game):
    """The record at `path`, checked to replay on this game move by move before anything is served."""

    try:
        record = load(path)
    except OSError as exc:
        raise UserError.at(Location(path), f"cannot read the record: {exc.strerror or exc}") from None
    except NotARecord as exc:
        raise UserError.at(Location(path), f"not a Spellpress game record: {exc}") from None
    if record.game != game.id:
        raise UserError.at(Location(path), f"a record of {record.game!r}, not of {game.id!r}")
    for label in record.seats:
        kind = "ismcts" if label.startswith("ismcts-") and label[7:].isdigit() else label
        if kind != HUMAN and kind not in BOTS:
            raise UserError.at(Location(path), f"unknown seat {label!r} in 'seats' (known: {HUMAN}, {', '.join(BOTS)})")
    problem = replay_problem(rules, game, record)
    if problem:
        raise UserError.at(Location(path), f"the record does not replay on {game.id} as it is now: {problem}")
    return record


def run_play(args) -> int:

    folder = game_folder(args.game)
    game = load_game(folder)
    if not game.spec.rules or not game.spec.rules.get("engine"):
        raise UserError.at(game.location, "the game names no rules engine (rules: engine: in game.yaml; docs/rules.md)")
    rules = rules_for(game)
    if args.agreement:
        from spellpress.play.agreement import agreement_report

        print(agreement_report(rules, game, sorted((args.out / "play" / game.id).glob("*.json"))))
        return 0
    if args.stats:
        from spellpress.play.stats import stats_report

        print(stats_report(rules, game, sorted((args.out / "play" / game.id).glob("*.json"))))
        return 0
    seconds("--pause", args.pause, MAX_PAUSE_S)
    seconds("--think", args.think, MAX_THINK_S)
    replay = blaming(lambda: replayed(args.replay, rules, game), rules, 0) if args.replay is not None else None
    wanted = args.seats
    if replay is not None:  # the record's seats: "ismcts-32" sat as an ismcts seat
        wanted = ",".join("ismcts" if label.startswith("ismcts-") else label for label in replay.seats)
    seats = parse_seats(wanted, rules.players_allowed(game), args.budget, args.think)
    seed = args.seed if args.seed is not None else random.randrange(1, 1_000_000)
    records = records_folder(args.out, game.id, folder)
    sock = listening_socket(args.host, args.port)
    serve(folder, game, rules, seats, seed, records, sock, args, replay)
    return 0


def serve(folder, game, rules, seats, seed, records, sock, args, replay) -> None:
    import uvicorn

    preview = Preview(folder, BuildOptions(out=args.out))
    preview.refresh()
    table = blaming(lambda: Table(game, rules, seats, seed, records, pause=args.pause, timed=args.timed), rules, seed)
    host, port = sock.getsockname()[:2]
    guard = Guard.for_address(host, port, names=[args.host])
    shown = f"[{host}]" if ":" in host else host
    who = ", ".join(s.label for s in seats)
    print(f"playing {game.name} (seats: {who}; seed {seed}) at http://{shown}:{port}/ (Ctrl-C stops)", flush=True)
    keys = seat_keys(table)
    for key, seat in keys.items():
        print(f"seat {seat + 1} (remote): http://{shown}:{port}/seat/{key}", flush=True)
    if keys and is_loopback(host):
        print("note: these links work on this computer only; --host with this computer's LAN address opens them to "
              "your network (docs/play.md, 'Remote seats')", flush=True)
    if not is_loopback(host):
        print(f"warning: listening on {host_name(host)} beyond this computer: anyone who can reach it can see "
              "your hand and play your moves", flush=True)
    config = uvicorn.Config(create_app(table, preview, guard, replay, keys), log_level="warning",
                            timeout_graceful_shutdown=1)
    quiet = QuietShutdown()
    logging.getLogger("uvicorn.error").addFilter(quiet)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        logging.getLogger("uvicorn.error").removeFilter(quiet)


class QuietShutdown(logging.Filter):
    """A Ctrl-C while a bot thinks: the server cancels the waiting request after a second and logs that, with
    a CancelledError traceback; the command says "interrupted" (spellpress.cli) and nothing more."""

    def filter(self, record: logging.LogRecord) -> bool:
        cancelled = record.exc_info is not None and isinstance(record.exc_info[1], asyncio.CancelledError)
        return not cancelled and "timeout graceful shutdown exceeded" not in record.getMessage()
