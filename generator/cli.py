"""The `spellpress` command: parses the command line, runs one command, turns mistakes into exit code 2."""

from __future__ import annotations

import argparse
import errno
import signal
import sys
import traceback
from pathlib import Path

from spellpress import __version__, exporters, print_commands
from spellpress import pull as pull_command
from spellpress.analysis import command as letters_command
from spellpress.catalog import command as catalog_command
from spellpress.ctrl_c import CtrlC, end_at_once
from spellpress.edition import command as edition_command
from spellpress.errors import UserError, report_lines
from spellpress.paths import output_folder
from spellpress.play import command as play_command
from spellpress.scaffold import command as new_command
from spellpress.serve import command as serve_command
from spellpress.simulate import check_engine as engine_command
from spellpress.simulate import command as simulate_command
from spellpress.simulate import sweep as sweep_command
from spellpress.tune import command as tune_command

EXIT_OK, EXIT_BUG, EXIT_USER = 0, 1, 2

# Each command module adds its subcommands with register(commands), each with its handler; in help order.
COMMAND_MODULES = (print_commands, pull_command, new_command, engine_command, simulate_command, sweep_command,
                   tune_command, letters_command, edition_command, serve_command, play_command, exporters,
                   catalog_command)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse exits 2 on usage errors already; keep its format
        self.print_usage(sys.stderr)
        self.exit(EXIT_USER, f"{self.prog}: error: {message}\n")


def parser() -> argparse.ArgumentParser:
    top = _Parser(prog="spellpress", description="Print-and-play decks, letter analysis and balance checks for word card games.")
    top.add_argument("--version", action="version", version=f"spellpress {__version__}")
    commands = top.add_subparsers(dest="command", required=True, parser_class=_Parser)

    for module in COMMAND_MODULES:
        module.register(commands)
    return top


def main(argv: list[str] | None = None) -> int:
    CtrlC.pressed = False  # one command a call (tests call main several times in one process)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        CtrlC.install()
    try:
        args = parser().parse_args(argv)  # inside: building the parser imports modules, a Ctrl-C may land there
        if isinstance(getattr(args, "out", None), Path):
            args.out = output_folder(args.out)
        code = args.handler(args)
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
