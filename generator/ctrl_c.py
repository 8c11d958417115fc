"""Ctrl-C, remembered: a command stops soon after it, even where the KeyboardInterrupt is lost.

`CtrlC.handler` records the press and raises KeyboardInterrupt. Two ways it got lost, both seen
when builds were interrupted on a loaded machine, and the command then ran to its end (5 s) before
main() saw the record and exited with 130:
- raised inside a callback (the import machinery's module-lock weakref callback; code that
  pydantic's compiled core calls back while it builds a schema), Python reports it as "Exception
  ignored" with a traceback and carries on. `unraisable` (sys.unraisablehook) prints nothing for it
  and raises it again a few milliseconds of work later, where the command's own code runs. The
  delay is a CPU-time timer (ITIMER_VIRTUAL): a signal handler run inside the hook itself would be
  lost the same way, and the real-time timer belongs to expressions' time limit.
- caught by a library (a bare `except:`): `check()`, called at each step of a progress bar, raises
  it again.
"""

from __future__ import annotations

import os
import signal
import sys

RAISE_AGAIN_AFTER_S = 0.005  # of the process's CPU time


class CtrlC:
    pressed = False
    _previous_hook = None

    @classmethod
    def handler(cls, signum, frame):
        cls.pressed = True
        raise KeyboardInterrupt

    @classmethod
    def install(cls) -> None:
        """Ours from now on: the SIGINT handler and the hook for exceptions Python cannot raise."""
        signal.signal(signal.SIGINT, cls.handler)
        if sys.unraisablehook is not cls.unraisable:
            cls._previous_hook = sys.unraisablehook
            sys.unraisablehook = cls.unraisable

    @classmethod
    def unraisable(cls, report) -> None:
        if (isinstance(report.exc_value, KeyboardInterrupt) and cls.pressed and hasattr(signal, "setitimer")
                and _in_main_thread()):
            signal.signal(signal.SIGVTALRM, cls.handler)
            signal.setitimer(signal.ITIMER_VIRTUAL, RAISE_AGAIN_AFTER_S)
            return
        (cls._previous_hook or sys.__unraisablehook__)(report)

    @classmethod
    def disarm(cls) -> None:
        """No Ctrl-C is to be raised again: the command's work is over."""
        if hasattr(signal, "setitimer"):
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)

    @classmethod
    def check(cls) -> None:
        """Raise the Ctrl-C again if one was pressed (and something swallowed it); in the main thread
        only, where Python raises it (a pool's threads run progress callbacks too)."""
        if cls.pressed and _in_main_thread():
            raise KeyboardInterrupt


def _in_main_thread() -> bool:
    import threading  # not at the top: entry.py imports this module before anything else, to be quick

    return threading.current_thread() is threading.main_thread()


def end_at_once(*_) -> None:
    """The SIGINT handler where nothing is left to stop cleanly (the command's modules still loading,
    or its work over and its exit handlers running): say so and end with 130."""
    try:
        print("interrupted", file=sys.stderr, flush=True)
    finally:
        os._exit(130)
