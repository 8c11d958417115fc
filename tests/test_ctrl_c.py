"""A Ctrl-C that Python or a library loses on the way still stops the command, soon (ctrl_c.py)."""

from __future__ import annotations

import signal
import sys
import time
import weakref

import pytest

from spellpress.ctrl_c import CtrlC
from spellpress.progress import LazyProgress


@pytest.fixture
def installed():
    handler, hook = signal.getsignal(signal.SIGINT), sys.unraisablehook
    CtrlC.install()
    CtrlC.pressed = False
    yield
    CtrlC.disarm()
    signal.signal(signal.SIGINT, handler)
    sys.unraisablehook = hook
    CtrlC.pressed = False


class Thing:
    pass


def test_a_ctrl_c_python_reports_as_ignored_is_raised_again_where_the_work_goes_on(installed, capfd):
    thing = Thing()
    # the Ctrl-C lands in a weakref callback, as it did in the import machinery's: Python cannot raise it there
    watch = weakref.ref(thing, lambda _: CtrlC.handler(signal.SIGINT, None))
    interrupted_after = None
    started = time.process_time()
    try:
        del thing
        while time.process_time() - started < 2:  # the command's work going on
            sum(range(1000))
    except KeyboardInterrupt:
        interrupted_after = time.process_time() - started
    assert watch() is None and CtrlC.pressed
    assert interrupted_after is not None and interrupted_after < 0.5, "the Ctrl-C was lost: the work ran on"
    assert "Exception ignored" not in capfd.readouterr().err  # and no traceback for it


def test_a_ctrl_c_a_library_swallowed_is_raised_again_at_the_next_step_of_progress(installed):
    try:
        CtrlC.handler(signal.SIGINT, None)
    except KeyboardInterrupt:
        pass  # a library's bare `except:`
    with LazyProgress("work", 10, enabled=False) as progress, pytest.raises(KeyboardInterrupt):
        progress.advance()


def test_without_a_ctrl_c_progress_goes_on(installed):
    with LazyProgress("work", 10, enabled=False) as progress:
        progress.advance(3)
    assert progress.done == 3
