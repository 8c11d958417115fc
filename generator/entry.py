"""The `spellpress` command's first step: Ctrl-C while the command's modules load ends it quietly.

Loading every command's modules takes a few tenths of a second; a Ctrl-C then used to print
Python's KeyboardInterrupt traceback (and end by the signal, not with 130). Until cli.run()
takes over with its own handling, a Ctrl-C prints "interrupted" and exits 130 at once.
"""

from __future__ import annotations

import os
import signal
import sys


def _interrupted_while_loading(*_) -> None:
    try:
        print("interrupted", file=sys.stderr, flush=True)
    finally:
        os._exit(130)


def run() -> None:
    previous = signal.signal(signal.SIGINT, _interrupted_while_loading)
    from spellpress.cli import run as run_command

    signal.signal(signal.SIGINT, previous)
    run_command()
