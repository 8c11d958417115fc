"""The table's web application: the page, card faces, the table's state and its moves.

Every request passes the guard (spellpress.serve.guard): an allowed Host, and for a move the
page's own origin and this run's token. Faces are the preview's renders (play/faces.py), looked
up by component and card id: nothing in a URL is a file path. The table is changed under one
lock, in a worker thread (a bot may think for a while).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from spellpress.play.faces import Faces
from spellpress.play.faults import answer
from spellpress.play.records import Record
from spellpress.play.seats import Seats, seat_keys
from spellpress.play.table import PEOPLE, Table, word_matches
from spellpress.rules.protocol import IllegalAction
from spellpress.serve.preview import Preview
from spellpress.web.app import Gate, WebApp, json_body
from spellpress.web.pages import Pages
from spellpress.web.push import event_stream, polled
from spellpress.web.responses import NO_STORE, json_error, not_found
from spellpress.web.static import StaticFiles

__all__ = ["TableApp", "create_app", "seat_keys"]  # seat_keys: for play/command.py, which makes the links

HERE = Path(__file__).resolve().parent
PAGES = Pages(HERE / "templates")
STATIC = StaticFiles(HERE / "static", {"play.css": "text/css", "play.js": "text/javascript"})
IMMUTABLE = {"Cache-Control": "public, max-age=3600"}
PUSH_S = 0.2  # how often the push stream looks for a change

Change = Callable[[dict, "int | None"], "Response | None"]  # (the request's JSON, the seat asking) -> a refusal or None


class TableApp(WebApp):
    """One table; `replay`: a saved game to step through; `keys`: each remote seat's secret (play/seats.py)."""

    def __init__(self, table: Table, preview: Preview, guard: Gate, replay: Record | None = None,
                 keys: dict[str, int] | None = None):
        super().__init__(guard, PAGES, STATIC)
        self.table = table
        self.replay = replay
        self.seats = Seats(table, keys or {})
        self.lock = threading.Lock()
        self.faces = Faces(preview)
        self.faces.prefetch()
        self.sizes = json.dumps({c.id: c.size for c in table.game.components})

    def routes(self) -> list[Route]:
        return [
            Route("/", self.home),
            Route("/favicon.ico", self.no_icon),
            Route("/face/{component}/{card}.png", self.face),
            Route("/back/{component}.png", self.back),
            Route("/api/state", self.state),
            Route("/api/events", self.events),
            Route("/seat/{key}", self.seat_page),
            Route("/api/replay", self.replay_step),
            Route("/api/move", self.move, methods=["POST"]),
            Route("/api/step", self.step, methods=["POST"]),
            Route("/api/undo", self.undo, methods=["POST"]),
            Route("/api/new", self.new, methods=["POST"]),
        ]

    # -- pages and faces ---------------------------------------------------------------------------

    def table_page(self, replay: bool, key: str = "") -> Response:
        """The page; `key`: a remote seat's secret, sent back with every request."""
        return self.page("table.html", title=self.table.game.name, mode="replay" if replay else "play",
                         sizes=self.sizes, key=key, headers=NO_STORE)

    async def home(self, request: Request) -> Response:
        if not self.table.humans:  # every person plays by a link: the host's page shows no seat's cards
            seats = [SimpleNamespace(number=seat + 1, label=spec.label, joined=seat in self.seats.joined)
                     for seat, spec in enumerate(self.table.seats)]
            return self.page("seats.html", title=self.table.game.name, seats=seats, headers=NO_STORE)
        return self.table_page(self.replay is not None)

    async def seat_page(self, request: Request) -> Response:
        key = request.path_params["key"]
        if key not in self.seats.keys:
            return Response("no such seat", status_code=403)
        return self.table_page(False, key)

    async def face(self, request: Request) -> Response:
        return await self.image(self.faces.fronts.get((request.path_params["component"], request.path_params["card"])))

    async def back(self, request: Request) -> Response:
        return await self.image(self.faces.backs.get(request.path_params["component"]))

    async def image(self, key: str | None) -> Response:
        png = await anyio.to_thread.run_sync(self.faces.png, key)
        return Response(png, media_type="image/png", headers=IMMUTABLE) if png else not_found()

    async def no_icon(self, request: Request) -> Response:
        return Response(status_code=204)

    # -- the table's state -------------------------------------------------------------------------

    def locked(self, fn, *args):
        with self.lock:
            return answer(self.table, lambda: fn(*args))  # an engine's failure: a JSON error at its rules.py line

    async def state(self, request: Request) -> Response:
        if (no := self.seats.refused(request)) is not None:
            return no
        return await anyio.to_thread.run_sync(self.locked, self.seats.seen_by, self.seats.requester(request))

    async def events(self, request: Request) -> Response:
        """Server push: the table's step, each time it changes (a page then asks for its view)."""
        if (no := self.seats.refused(request)) is not None:
            return no
        table = self.table
        return event_stream(polled(lambda: (table.games, table.step, len(table.log)),
                                   lambda: f"{table.games}-{table.step}", PUSH_S))

    async def replay_step(self, request: Request) -> Response:
        try:
            step = int(request.query_params.get("step", "0"))
        except ValueError:
            step = 0
        return await anyio.to_thread.run_sync(self.locked, self.table.replay_view, step, self.replay)

    # -- moves -------------------------------------------------------------------------------------

    async def changing(self, request: Request, change: Change, fresh: bool = True) -> Response:
        """Run `change(data, seat)` on the table under the lock, in a worker thread (`seat`: the remote
        seat asking, None for the host); with `fresh`, only if the page saw the table as it is (a
        double click or a second tab must not play twice)."""
        if (no := self.seats.refused(request)) is not None:
            return no
        data, seat = await json_body(request) or {}, self.seats.requester(request)
        table = self.table

        def run():
            with self.lock:
                if fresh and (data.get("step") != table.step or data.get("games") != table.games):
                    return json_error(409, "the table has moved on; here it is now", view=table.view(seat))
                try:
                    refusal = change(data, seat)
                except IllegalAction as exc:
                    return json_error(409, str(exc))
                return refusal or JSONResponse(table.view(seat))

        return await anyio.to_thread.run_sync(answer, table, run)

    async def move(self, request: Request) -> Response:
        return await self.changing(request, self.human_move)

    async def step(self, request: Request) -> Response:
        return await self.changing(request, self.bot_move)

    async def undo(self, request: Request) -> Response:
        return await self.changing(request, self.take_back)

    async def new(self, request: Request) -> Response:
        return await self.changing(request, self.new_game, fresh=False)

    def human_move(self, data: dict, asking: int | None) -> Response | None:
        table = self.table
        seat = table.to_move()
        if seat is None or table.seats[seat].kind not in PEOPLE:
            return json_error(409, "it is not a person's move")
        if (no := self.seats.whose(seat, asking)) is not None:
            return no
        legal = table.legal()
        if "word" in data:
            found = word_matches(table.state, legal, str(data["word"]))
            if not found:
                return json_error(422, "not a legal word here", word=str(data["word"]))
            chosen = [a for a in found if legal.index(a) == data.get("choice")]
            if chosen:  # one of the moves the word is, picked from the list below
                found = chosen
            elif len({table.state.action_to_string(a) for a in found}) > 1:
                return json_error(422, "that word is several moves: choose one",
                                  choices=[table.move_json(legal.index(a), a) for a in found][:40])
            action = found[0]
        else:
            index = data.get("move")
            offered = dict(table.offered())
            if not isinstance(index, int) or index not in offered:
                return json_error(422, "no such move")
            action = offered[index]
        table.play(seat, action)
        return None

    def bot_move(self, data: dict, asking: int | None) -> Response | None:
        self.table.bot_step()
        return None

    def take_back(self, data: dict, asking: int | None) -> Response | None:
        if (no := self.seats.whose(self.table.last_mover(), asking)) is not None:
            return no
        self.table.undo()
        return None

    def new_game(self, data: dict, asking: int | None) -> Response | None:
        if asking is not None:
            return json_error(403, "only the host deals a new game")
        seed = data.get("seed")
        self.table.new_game(seed if isinstance(seed, int) and not isinstance(seed, bool) else self.table.seed + 1)
        return None


def create_app(table: Table, preview: Preview, guard: Gate, replay: Record | None = None,
               keys: dict[str, int] | None = None) -> ASGIApp:
    return TableApp(table, preview, guard, replay, keys).asgi()
