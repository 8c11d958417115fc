"""The `spellpress` command: parses the command line, runs one command, turns mistakes into exit code 2."""

from __future__ import annotations

import argparse
import errno
import importlib
import signal
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from spellpress import __version__
from spellpress.ctrl_c import CtrlC, end_at_once
from spellpress.errors import UserError, report_lines
from spellpress.paths import output_folder

EXIT_OK, EXIT_BUG, EXIT_USER = 0, 1, 2


@dataclass(frozen=True)
class Command:
    """A subcommand: its handler as "module:function", imported only when the command runs; the
    module's register(commands) adds its arguments (tests/test_cli.py checks the help matches)."""

    handler: str
    help: str

    @property
    def module(self) -> str:
        return self.handler.partition(":")[0]


# Every subcommand, in help order; a handler is named run_<command> in its module.
COMMANDS: dict[str, Command] = {
    "build": Command("spellpress.print_commands:run_build", "build print-ready PDFs (and PNG/TTS exports) for games"),
    "check": Command("spellpress.print_commands:run_check",
                     "validate games without writing anything; runs no game code (check-engine checks a game's rules engine)"),
    "list": Command("spellpress.print_commands:run_list", "list the games under cards/"),
    "calibrate": Command("spellpress.print_commands:run_calibrate",
                         "write a duplex calibration page to measure a printer's back offset"),
    "pull": Command("spellpress.pull:run_pull",
                    "fetch the Google Sheets a game's cards_from: links into snapshots beside their YAML"),
    "new": Command("spellpress.scaffold.command:run_new", "start a new game folder that checks and builds at once"),
    "check-engine": Command("spellpress.simulate.check_engine:run_check_engine",
                            "play random and heuristic games of a game's rules engine and check it keeps the protocol"),
    "simulate": Command("spellpress.simulate.command:run_simulate",
                        "play many games of the real rules and report balance; runs the game's rules engine (its Python)"),
    "report": Command("spellpress.simulate.command:run_report",
                      "simulate and write OUT/<game>/<game>-balance.pdf with charts; runs the game's rules engine (its Python)"),
    "sweep": Command("spellpress.simulate.sweep:run_sweep",
                     "simulate a grid of rules and card variants; table and OUT/<game>/<game>-sweep.pdf; "
                     "runs the game's rules engine (its Python)"),
    "tune": Command("spellpress.tune.command:run_tune",
                    "search rules and card values for a balanced game; verified proposals, a diff, --apply"),
    "letters": Command("spellpress.analysis.command:run_letters",
                       "analyse a game's letter mix: playability, distance from the language, fair points"),
    "edition": Command("spellpress.edition.command:run_edition",
                       "redesign a word game's letter deck for another language, to play like the original"),
    "serve": Command("spellpress.serve.command:run_serve", "live preview of a game in the browser, updated on every save"),
    "play": Command("spellpress.play.command:run_play",
                    "play a game in the browser against the bots (runs the game's rules code)"),
    "shops": Command("spellpress.shop.command:run_shops",
                     "list the print-shop presets (for build --shop) with their numbers and sources"),
    "icons": Command("spellpress.catalog.command:run_icons",
                     "search the game-icons.net library (4,000+ icons) and write a contact sheet"),
    "templates": Command("spellpress.catalog.command:run_templates", "list the shared templates a game can use or extend"),
    "docs": Command("spellpress.catalog.command:run_docs",
                    "read the manual: the YAML keys, the commands, rules engines, print shops..."),
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse exits 2 on usage errors already; keep its format
        self.print_usage(sys.stderr)
        self.exit(EXIT_USER, f"{self.prog}: error: {message}\n")


def parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command line for argv: only the module of the command it names is imported, the others are
    listed by their help alone. Without argv, every command's module (docs/cli.md, the tests)."""
    top = _Parser(prog="spellpress", description="Print-and-play decks, letter analysis and balance checks for word card games.")
    top.add_argument("--version", action="version", version=f"spellpress {__version__}")
    commands = top.add_subparsers(dest="command", required=True, parser_class=_Parser)
    named = _named_command(argv) if argv is not None else None
    wanted = {command.module for name, command in COMMANDS.items() if argv is None or name == named}
    for module in dict.fromkeys(command.module for command in COMMANDS.values()):
        if module in wanted:
            importlib.import_module(module).register(commands)
    for name, command in COMMANDS.items():
        if name not in commands.choices:
            commands.add_parser(name, help=command.help, add_help=False)
    _order(commands)
    return top


def _named_command(argv: list[str]) -> str | None:
    """The subcommand argv names: its first word that is not an option (the top level takes no values)."""
    return next((word for word in argv if not word.startswith("-")), None)


def _order(commands: argparse._SubParsersAction) -> None:
    """List the subcommands in the table's order, whichever module registered first."""
    rank = list(COMMANDS)
    commands._choices_actions.sort(key=lambda action: rank.index(action.dest))


def handler(name: str) -> Callable[[argparse.Namespace], int]:
    module, _, function = COMMANDS[name].handler.partition(":")
    return getattr(importlib.import_module(module), function)


def main(argv: list[str] | None = None) -> int:
    CtrlC.pressed = False  # one command a call (tests call main several times in one process)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        CtrlC.install()
    try:
        argv = sys.argv[1:] if argv is None else argv
        args = parser(argv).parse_args(argv)  # inside: building the parser imports modules, a Ctrl-C may land there
        if isinstance(getattr(args, "out", None), Path):
            args.out = output_folder(args.out)
        code = handler(args.command)(args)
        sys.stdout.flush()  # a closed pipe shows here, inside the handlers below, not at exit
        if CtrlC.pressed and code != 130:  # swallowed on the way (a command that stops on Ctrl-C says so itself)
            raise KeyboardInterrupt
        return code
    except UserError as exc:
        lines = report_lines(exc.problems)
        for line in lines:
            print(f"error: {line}", file=sys.stderr)
        count = len(lines)
        print(f"{count} error{'s' if count != 1 else ''}; nothing written.", file=sys.stderr)
        return EXIT_USER
    except KeyboardInterrupt:
        return _interrupted()
    except BrokenPipeError:
        return _closed_pipe()
    except OSError as exc:
        if exc.errno not in _SYSTEM_LIMITS:
            return _bug()
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"error: {where}{_SYSTEM_LIMITS[exc.errno]} ({exc.strerror})", file=sys.stderr)
        return EXIT_USER
    except Exception as exc:
        if CtrlC.pressed or _caused_by_ctrl_c(exc):
            return _interrupted()
        return _bug()
    except BaseException as exc:  # a compiled library's panic (pyo3's PanicException) where a Ctrl-C broke its import
        if CtrlC.pressed and not isinstance(exc, SystemExit):
            return _interrupted()
        raise


def _interrupted() -> int:
    print("interrupted", file=sys.stderr)
    return 130


def _caused_by_ctrl_c(exc: BaseException) -> bool:
    """A Ctrl-C raised inside code that wraps what it catches (Python's class creation turns it into
    'RuntimeError: Error calling __set_name__' while a module loads) is still the user's interruption."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


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

    try:
        code = main()
        sys.stdout.flush()
        sys.stderr.flush()
    except KeyboardInterrupt:  # between entry.py's handler and main's own, or after main returned
        code = _interrupted()
    except BrokenPipeError:
        code = _closed_pipe()
    _bound_the_cleanup(code)
    atexit._run_exitfuncs()
    os._exit(code)


def _bound_the_cleanup(code: int) -> None:
    """The work is over: another Ctrl-C ends the process at once (no traceback from an exit handler,
    nor from the import below: a Ctrl-C there once gave one), and after an interruption any worker
    still there is killed and the cleanup gets 2 s at most."""
    import os
    import signal

    signal.signal(signal.SIGINT, end_at_once if code != 130 else lambda *_: os._exit(130))  # 130: said already
    import multiprocessing

    CtrlC.disarm()  # a Ctrl-C still to be raised again has nowhere to go now
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
