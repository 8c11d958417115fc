"""A rules engine that fails, stalls or hangs during play, stopped by the runner and blamed on its own line.

The runner does not trust an engine's own turn count: a game longer than MAX_ACTIONS_PER_GAME
actions is a stall, and a move (the player's choice and the engine's answer) that takes more than
SECONDS_PER_ACTION of CPU with no progress is stopped where it runs (a search player's playouts are
progress: `progress()`). Either, an exception raised by a game folder's engine,
or a score that is not a finite number becomes a UserError at the engine's file:line (exit 2),
not a traceback presented as a Spellpress bug. A shipped engine's exception stays a bug.
"""

from __future__ import annotations

import inspect
import math
import signal
import threading
import traceback
from pathlib import Path

from spellpress.errors import Location, UserError

MAX_ACTIONS_PER_GAME = 200_000  # the shipped games take at most a few thousand
# seconds of this process's CPU (not of the clock: a loaded machine must not trip it); the search
# player reports each playout as progress, so a long search is not an endless engine
SECONDS_PER_ACTION = 30.0
PACKAGE = Path(__file__).resolve().parents[1]


class EngineStall(Exception):
    """The game went on past MAX_ACTIONS_PER_GAME actions."""

    def __init__(self, state):
        super().__init__(f"no end after {MAX_ACTIONS_PER_GAME:,} actions")
        self.state = state


class EngineTimeout(Exception):
    """One move took longer than SECONDS_PER_ACTION."""


class BadScores(Exception):
    """returns() gave a score that is not a finite number (NaN would make every average NaN)."""

    def __init__(self, state, scores):
        super().__init__(f"scores {scores!r}")
        self.state, self.scores = state, scores


def finite_scores(scores) -> bool:
    return all(isinstance(score, (int, float)) and math.isfinite(score) for score in scores)


class Watchdog:
    """Raises EngineTimeout where the main thread runs when `moves` (which the runner adds 1 to at
    every action, and `progress()` at every playout of a search) has not changed for a while.

    A timer on the process's CPU time (ITIMER_PROF: waiting for a core on a loaded machine does not
    count) ticks every half limit, at no cost per action; two quiet ticks in a row stop the move.
    Only in a process's main thread (pool workers, a one-worker run); Dask's worker threads go unwatched.
    """

    active: Watchdog | None = None

    def __init__(self, seconds: float | None = None):
        self.seconds = SECONDS_PER_ACTION if seconds is None else seconds
        self.moves = self.seen = self.quiet = 0
        self.armed = False

    def _tick(self, *_) -> None:
        if self.moves != self.seen:
            self.seen, self.quiet = self.moves, 0
            return
        self.quiet += 1
        if self.quiet >= 2:
            self.quiet = 0
            raise EngineTimeout(f"one move took more than {self.seconds:g} s")

    def __enter__(self) -> Watchdog:
        if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
            self.previous = signal.signal(signal.SIGPROF, self._tick)
            signal.setitimer(signal.ITIMER_PROF, self.seconds / 2, self.seconds / 2)
            self.armed = True
            Watchdog.active = self
        return self

    def __exit__(self, *_) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, self.previous)
            Watchdog.active = None


def progress() -> None:
    """A player that works for long on one move (a search's playouts) says it is getting somewhere."""
    watchdog = Watchdog.active
    if watchdog is not None:
        watchdog.moves += 1


def passes_through(exc: BaseException) -> bool:
    """A Ctrl-C is the person's, never the engine's fault; everything else an engine raises (an
    Exception, sys.exit(), GeneratorExit, a BaseException of its own) is caught and told at its line."""
    return isinstance(exc, KeyboardInterrupt)


def what_failed(exc: BaseException) -> str:
    return f"it called sys.exit({exc.code!r})" if isinstance(exc, SystemExit) else f"{type(exc).__name__}: {exc}"


def engine_file(rules) -> Path | None:
    try:
        return Path(inspect.getsourcefile(type(rules)) or "").resolve()
    except (TypeError, OSError):
        return None


def _definition(function) -> Location | None:
    try:
        return Location(Path(inspect.getsourcefile(function) or ""), inspect.getsourcelines(function)[1], 1)
    except (TypeError, OSError):
        return None


def _deepest_frame_in(path: Path, exc: BaseException) -> traceback.FrameSummary | None:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).resolve() == path]
    return frames[-1] if frames else None


def blamed(exc: BaseException, rules, game_index: int, seed: int) -> UserError | None:
    """The failure as a UserError at the engine's line, or None to let it through (a shipped engine's bug)."""
    where = f"in game {game_index + 1} (seed {seed})"
    path = engine_file(rules)
    if isinstance(exc, EngineStall):
        location = _definition(type(exc.state).apply) or Location(path or Path("rules.engine"))
        return UserError.at(location, f"the game did not end after {MAX_ACTIONS_PER_GAME:,} actions {where}, and its turn "
                                      f"count stayed at {exc.state.turns} (the engine's turn cap is {rules.turn_cap:,}): "
                                      "a stall; does apply() advance state.turns and reach the end?")
    if isinstance(exc, BadScores):
        location = _definition(type(exc.state).returns) or Location(path or Path("rules.engine"))
        return UserError.at(location, f"returns() gave the scores {exc.scores!r} {where}; every score must be a finite "
                                      "number")
    if path is None:
        return None
    frame = _deepest_frame_in(path, exc)
    location = Location(path, frame.lineno or 0, 1) if frame else Location(path)
    function = f" in {frame.name}()" if frame else ""
    if isinstance(exc, EngineTimeout):
        return UserError.at(location, f"the engine spent more than {SECONDS_PER_ACTION:g} s of CPU on one move{function} "
                                      f"{where}: "
                                      "an endless loop?")
    if path.is_relative_to(PACKAGE) or frame is None:
        return None  # a shipped engine's failure is Spellpress's bug: its traceback is wanted
    return UserError.at(location, f"the engine failed{function} {where}: {what_failed(exc)}")


def blaming(run, rules, seed: int):
    """What `run()` gives; an engine that fails in it (raising anything but a Ctrl-C) is told at its line as a
    UserError (exit 2), for code that runs the engine outside a game's own guard (a first deal, a probe)."""
    try:
        return run()
    except BaseException as exc:
        error = None if passes_through(exc) else blamed(exc, rules, 0, seed)
        if error is None and not isinstance(exc, (Exception, KeyboardInterrupt)):
            raise RuntimeError(f"the rules engine raised {what_failed(exc)}") from exc  # never a quiet exit
        if error is None:
            raise
    raise error  # after the except block: no engine exception chained to it
