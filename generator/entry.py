"""The `spellpress` command's first step: Ctrl-C while the command's modules load ends it quietly.

Loading every command's modules takes a few tenths of a second; a Ctrl-C then used to print
Python's KeyboardInterrupt traceback (and end by the signal, not with 130). Until cli.run()
takes over with its own handling, a Ctrl-C prints "interrupted" and exits 130 at once.

Before this module runs, Python itself is starting (measured: 15 to 60 ms on a loaded 2-core
machine, most of it `site` and the install's .pth files), and no package's code can run that
early: a Ctrl-C in the first moments ends by the signal itself (the shell shows 130, nothing is
printed), or, once Python has set its own handler, with Python's traceback from `import site`
("Fatal Python error: init_import_site", or init_sys_streams), or is reported and then ignored
by Python while it looks at the script's path, or, while the script imports this module (a
millisecond), gives Python's traceback and ends by the signal, or lands in one of the import
machinery's callbacks, which reports it as "Exception ignored" and goes on (the command then
runs to its end, as if no Ctrl-C had come: this module's handler is not set yet to see it).
From the handler on, nothing is lost (ctrl_c.CtrlC records every Ctrl-C and raises a lost one
again). Measured at 60 seeded moments in the first 0.25 s: 49 ended with 130 and "interrupted",
5 by the signal, 6 in Python's start.
tests/test_startup_interrupt.py tells these apart from ours.
"""

from __future__ import annotations

import signal

from spellpress.ctrl_c import CtrlC, end_at_once


def run() -> None:
    previous = signal.signal(signal.SIGINT, end_at_once)
    from spellpress.cli import run as run_command

    # from here a Ctrl-C is recorded as well as raised, so one that a library swallows still ends the command
    if previous is signal.default_int_handler:
        CtrlC.install()
    else:
        signal.signal(signal.SIGINT, previous)
    run_command()
