"""The `spellpress` command: build, check and list games (and later analyse and simulate them)."""

from __future__ import annotations

import argparse
import errno
import sys
import time
import traceback
from contextlib import nullcontext
from pathlib import Path

from spellpress import __version__
from spellpress.errors import Location, UserError
from spellpress.units import UnitError, parse_length

EXIT_OK, EXIT_BUG, EXIT_USER = 0, 1, 2


class UsageError(Exception):
    pass


def _length_arg(text: str) -> float:
    try:
        value = parse_length(text)
    except UnitError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if value < 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return value


def _offset_arg(text: str) -> tuple[float, float]:
    parts = text.split(",")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError("expected X,Y such as 0.5,-0.3 or 0.5mm,-0.3mm")
    try:
        return parse_length(parts[0]), parse_length(parts[1])
    except UnitError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse exits 2 on usage errors already; keep its format
        self.print_usage(sys.stderr)
        self.exit(EXIT_USER, f"{self.prog}: error: {message}\n")


def parser() -> argparse.ArgumentParser:
    top = _Parser(prog="spellpress", description="Print-and-play decks, letter analysis and balance checks for word card games.")
    top.add_argument("--version", action="version", version=f"spellpress {__version__}")
    commands = top.add_subparsers(dest="command", required=True, parser_class=_Parser)

    build = commands.add_parser("build", help="build print-ready PDFs (and PNG/TTS exports) for games",
                                description="Build each game into OUT/<game>/: <game>-<paper>.pdf and manifest.json.")
    build.add_argument("games", nargs="*", metavar="GAME|PATH", help="game ids under cards/ or game folders (default: all)")
    build.add_argument("--paper", choices=["a4", "letter", "a3", "legal", "tabloid"], help="paper size (default: the game's print.paper)")
    build.add_argument("--backs", choices=["none", "duplex-long", "duplex-short", "fold"],
                       help="none; duplex-long (flip on long edge); duplex-short; fold (fronts above, backs below the fold)")
    build.add_argument("--back-offset", type=_offset_arg, metavar="X,Y",
                       help="shift the backs to correct a printer's misregistration; mm unless a unit is given (see 'calibrate')")
    build.add_argument("--bleed", type=_length_arg, metavar="LENGTH", help="bleed beyond the trim, e.g. 3mm or 0.125in (default 3mm)")
    build.add_argument("--png", action="store_true", help="also write a PNG per card side, 300 dpi with bleed")
    build.add_argument("--tts", action="store_true", help="also write Tabletop Simulator deck sheets (10 x 7) and back images")
    build.add_argument("--print-shop", action="store_true", help="also write a one-card-a-page PDF with TrimBox and BleedBox, back then front")
    build.add_argument("--out", type=Path, default=Path("output"), help="output folder (default: output)")
    build.add_argument("--shop", metavar="NAME",
                       help="write exactly what a print shop asks for into OUT/<game>/<shop>/ (see 'spellpress shops')")
    build.add_argument("--ink-limit", choices=["on", "off"], default="on",
                       help="with --shop: over the shop's total ink limit is an error (on) or a warning (off)")
    build.add_argument("--color", choices=["rgb", "cmyk"], default="rgb",
                       help="sheets in RGB, or CMYK PDF/X-1a through --profile (default rgb)")
    build.add_argument("--profile", type=Path, metavar="FILE.icc",
                       help="CMYK output profile for --color cmyk (default: the shipped FOGRA39L, 300%% ink)")
    build.add_argument("--marks", choices=["crop", "lines", "cutter", "none"],
                       help="crop: 5 mm crop marks; lines: full cut lines across the sheet; cutter: Silhouette Type 1 "
                            "registration marks for print-and-cut; none (default: the game's print.marks)")
    build.add_argument("--draft", action="store_true",
                       help="low-ink proof sheets, <game>-<paper>-draft.pdf: no background fills, outlines and text only, greyscale")
    build.add_argument("--no-cache", dest="cache", action="store_false",
                       help="draw every face again and neither read nor write OUT/.cache (the same bytes, slower)")

    check = commands.add_parser("check", help="validate games without writing anything; runs no game code "
                                              "(check-engine checks a game's rules engine)",
                                description="Validate each game's definitions (YAML, spreadsheets, templates, fonts) "
                                            "and write nothing. Never imports or runs a game's Python: its rules "
                                            "engine and rules: keys are checked by check-engine, simulate, report "
                                            "and sweep, which run the engine.")
    check.add_argument("games", nargs="*", metavar="GAME|PATH")

    commands.add_parser("list", help="list the games under cards/")

    calibrate = commands.add_parser("calibrate", help="write a duplex calibration page to measure a printer's back offset")
    calibrate.add_argument("--paper", choices=["a4", "letter"], default="a4")
    calibrate.add_argument("--backs", choices=["duplex-long", "duplex-short"], default="duplex-long")
    calibrate.add_argument("--out", type=Path, default=Path("output"))

    from spellpress.commands import register_extra

    register_extra(commands)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        code = args.handler(args) if hasattr(args, "handler") else COMMANDS[args.command](args)
        sys.stdout.flush()  # a closed pipe shows here, inside the handlers below, not at exit
        return code
    except UserError as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        count = len(exc.problems)
        print(f"{count} error{'s' if count != 1 else ''}; nothing written.", file=sys.stderr)
        return EXIT_USER
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return _closed_pipe()
    except OSError as exc:
        if exc.errno not in _SYSTEM_LIMITS:
            return _bug()
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"error: {where}{_SYSTEM_LIMITS[exc.errno]} ({exc.strerror})", file=sys.stderr)
        return EXIT_USER
    except Exception:
        return _bug()


# what the system refused, in the user's terms: not a bug in Spellpress
_SYSTEM_LIMITS = {
    errno.ENOSPC: "the disk is full: free some space and run again",
    errno.EDQUOT: "the disk quota is used up: free some space and run again",
    errno.ENAMETOOLONG: "a file name is too long for the file system: choose a shorter name",
    errno.EROFS: "the file system is read-only: choose another --out",
}


def _bug() -> int:
    """Called while an unexpected exception is handled: its traceback, and say it is our bug."""
    traceback.print_exc()
    print("spellpress hit a bug (the traceback above); please report it.", file=sys.stderr)
    return EXIT_BUG


def run() -> None:
    """The installed `spellpress` command and `python -m spellpress`: main(), then a quick exit.

    Once the command's work is done and its output flushed, the exit handlers run (worker
    pools, temporary folders) and the process ends without tearing down every module and
    object one by one, which costs a tenth of a second after a build: memory goes back to the
    system at once. Files are all written and closed by then (write/atomic.py).
    """
    import atexit
    import os

    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        code = _closed_pipe()
    _bound_the_cleanup(code)
    atexit._run_exitfuncs()
    os._exit(code)


def _bound_the_cleanup(code: int) -> None:
    """The work is over: another Ctrl-C ends the process at once (no traceback from an exit handler),
    and after an interruption any worker still there is killed and the cleanup gets 2 s at most."""
    import multiprocessing
    import os
    import signal

    signal.signal(signal.SIGINT, lambda *_: os._exit(130))
    if code != 130:
        return
    for child in multiprocessing.active_children():
        child.kill()
    signal.signal(signal.SIGALRM, lambda *_: os._exit(130))
    signal.alarm(2)


def _closed_pipe() -> int:
    """The reader of our output went away (`spellpress build | head`): end quietly, as Unix tools do."""
    import os

    # Python would complain again when it flushes stdout at exit: point stdout at nothing first
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 141  # 128 + SIGPIPE, what a shell reports for a tool that stopped on a closed pipe


def game_folders(names: list[str]) -> list[Path]:
    from spellpress.paths import find_game_folder, list_game_folders

    if names:
        problems = []
        folders = []
        for name in names:
            try:
                folders.append(find_game_folder(name))
            except UserError as exc:
                problems.extend(exc.problems)
        if problems:
            raise UserError(problems)
        return folders
    folders = list_game_folders()
    if not folders:
        raise UserError.at(Location(Path("cards")), "no games found (a game is a folder with a game.yaml)")
    return folders


def cmd_build(args) -> int:
    from spellpress.build import BuildOptions
    from spellpress.errors import Problems
    from spellpress.progress import track

    if args.shop:
        from spellpress.shop.command import build_shops

        return build_shops(args)
    if args.profile is not None and args.color != "cmyk":  # it would be silently ignored
        raise UserError.at(Location(Path("--profile")), "a profile is for CMYK sheets: add --color cmyk, or leave "
                                                        "--profile out")
    options = BuildOptions(paper=args.paper, backs=args.backs, back_offset=args.back_offset, bleed=args.bleed,
                           png=args.png, tts=args.tts, print_shop=args.print_shop, out=args.out, cache=args.cache,
                           draft=args.draft, color=args.color, profile=args.profile, marks=args.marks)
    problems = Problems()
    folders = game_folders(args.games)
    workers = nullcontext()
    if options.png or options.tts:  # one pool of workers draws for every game
        from spellpress.write.raster import shared_workers

        workers = shared_workers()
    with workers:
        for folder in track(folders, "building", len(folders)):
            build_one(folder, options, problems)
    problems.raise_if_any()
    return EXIT_OK


def build_one(folder: Path, options, problems) -> None:
    """Build one game and say what it wrote; its definition errors join `problems`."""
    from spellpress.build import build

    started = time.perf_counter()
    try:
        result = build(folder, options)
    except UserError as exc:
        problems.extend(exc)
        return
    seconds = time.perf_counter() - started
    state = " (up to date: nothing changed)" if result.up_to_date else ""
    print(f"{result.game_id}: {result.cards} cards on {result.pages} pages in {seconds:.2f} s{state}")
    for path in result.files[:4]:
        print(f"  {path}")
    if len(result.files) > 4:
        print(f"  ... and {len(result.files) - 4} more files")


def cmd_check(args) -> int:
    from spellpress.build import check
    from spellpress.errors import Problems

    problems = Problems()
    for folder in game_folders(args.games):
        try:
            game = check(folder)  # the definitions only: a game's rules engine is Python, never run here
        except UserError as exc:
            problems.extend(exc)
            continue
        cards = sum(c.copies for c in game.components)
        engine = game.spec.rules.get("engine")
        unchecked = f"; its rules engine '{engine}' is checked by check-engine" if engine is not None else ""
        print(f"{game.id}: ok ({len(game.components)} components, {cards} cards{unchecked})")
    problems.raise_if_any()
    return EXIT_OK


def cmd_list(args) -> int:
    from spellpress.load.game import load_game
    from spellpress.paths import list_game_folders

    for folder in list_game_folders():
        try:
            game = load_game(folder)
        except UserError:
            print(f"{folder.name:20} (has errors: run 'spellpress check {folder.name}')")
            continue
        players = game.spec.players
        cards = sum(c.copies for c in game.components)
        print(f"{game.id:20} {game.name} ({players.min}-{players.max} players, {cards} pieces)")
    return EXIT_OK


def cmd_calibrate(args) -> int:
    from spellpress.write.calibration import write_calibration

    path = write_calibration(args.paper, args.backs, args.out)
    print(f"calibration page: {path}")
    print("Print it duplex at actual size; hold it to the light; read the back offset on the scales;")
    print("then build with --back-offset X,Y (mm), or set print.back_offset in game.yaml.")
    return EXIT_OK


COMMANDS = {"build": cmd_build, "check": cmd_check, "list": cmd_list, "calibrate": cmd_calibrate}
