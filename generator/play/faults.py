"""A failure behind a request of `spellpress play`, answered as a JSON error the page shows.

A game folder's engine that fails (an exception, sys.exit(), a BaseException of its own) is told at its
rules.py line, as `simulate` tells it (spellpress.simulate.engine_faults), on the page and on the
terminal; before, it was an HTTP 500 with the server's traceback. A record that cannot be saved says
why. Anything else is Spellpress's bug: its traceback goes to the terminal, a short error to the page.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

from starlette.responses import JSONResponse, Response

log = logging.getLogger("spellpress.play")
NO_STORE = {"Cache-Control": "no-store"}


def answer(table, produce: Callable[[], Any]) -> Response:
    """What `produce()` gives (a Response, or data sent as JSON), or its failure as a JSON error."""
    from spellpress.simulate.engine_faults import passes_through

    try:
        result = produce()
    except BaseException as exc:
        if passes_through(exc):
            raise
        return failure(exc, table)
    return result if isinstance(result, Response) else JSONResponse(result, headers=NO_STORE)


def failure(exc: BaseException, table) -> JSONResponse:
    from spellpress.simulate.engine_faults import blamed, what_failed

    back_to_record(table)

    if isinstance(exc, OSError) and table.records is not None:
        message = f"{table.records}: cannot save the game record: {exc.strerror or exc}"
    else:
        error = blamed(exc, table.rules, table.games - 1, table.seed)
        if error is None:  # a shipped engine's or Spellpress's own failure: a bug, its traceback wanted
            log.error("spellpress play hit a bug; please report it", exc_info=exc)
            return JSONResponse({"error": f"Spellpress hit a bug ({what_failed(exc)}); the traceback is in the "
                                          "terminal"}, status_code=500, headers=NO_STORE)
        message = str(error)
    print(f"error: {message}", file=sys.stderr, flush=True)
    return JSONResponse({"error": message}, status_code=500, headers=NO_STORE)


def back_to_record(table) -> None:
    """A move the engine failed on may have half changed its state, after the move was logged and the
    human's decision noted: the table goes back to what its record replays to, so the record stays a
    game that replays (undo and new game still work). If the engine fails again there, the error stands."""
    from spellpress.play.table import replay

    actions = table.record.actions
    try:
        table.state = replay(table.rules, table.game, len(table.seats), actions, table.options)
    except Exception:
        return
    table.record.decisions = [d for d in table.record.decisions if d.step < len(actions)]
    table.log = [entry for entry in table.log if entry.step < len(actions)]
