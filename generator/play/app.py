"""The table's web application (Starlette): the page, card faces, the table's state and its moves.

Every request passes the guard (spellpress.serve.guard): an allowed Host, and for a move the
page's own origin and this run's token. Faces are the preview's renders (spellpress.serve.preview),
looked up by component and card id: nothing in a URL is a file path. The table is changed under
one lock, in a worker thread (a bot may think for a while).
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from html import escape
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from spellpress.play.faults import answer
from spellpress.play.records import Record
from spellpress.play.table import PEOPLE, REMOTE, Table, word_matches
from spellpress.rules.protocol import IllegalAction
from spellpress.serve.app import static_files
from spellpress.serve.guard import Guard
from spellpress.serve.preview import PREVIEW_DPI, Preview

log = logging.getLogger("spellpress.play")
STATIC = Path(__file__).resolve().parent / "static"
STATIC_FILES = {"play.css": "text/css", "play.js": "text/javascript"}
IMMUTABLE = {"Cache-Control": "public, max-age=3600"}
SEAT_HEADER = "X-Spellpress-Seat"  # a remote seat's secret
PUSH_S = 0.2  # how often the push stream looks for a change


class Faces:
    """Rendered faces by (component id, card id), and each component's back."""

    def __init__(self, preview: Preview):
        self.preview = preview
        snapshot = preview.state.snapshot
        self.fronts: dict[tuple[str, str], str] = {}
        self.backs: dict[str, str] = {}
        if snapshot is None:
            return
        for faces in snapshot.laid:
            self.fronts[(faces.component.id, faces.card.id)] = snapshot.keys[faces.front]
            if faces.back is not None:
                self.backs.setdefault(faces.component.id, snapshot.keys[faces.back])

    def png(self, key: str | None) -> bytes | None:
        return None if key is None else self.preview.image(key, PREVIEW_DPI)


def document(title: str, guard: Guard, replay: bool, sizes: dict[str, tuple[float, float]] | None = None,
             key: str = "") -> str:
    """The page; `sizes`: each component's card size in mm, to show a card at its actual size; `key`: a
    remote seat's secret, sent back with every request."""
    sized = escape(json.dumps(sizes or {}))
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{guard.meta_tag()}
<title>{escape(title)} · Spellpress table</title>
<link rel="stylesheet" href="/static/play.css">
<script src="/static/play.js" defer></script>
</head>
<body data-mode="{'replay' if replay else 'play'}" data-sizes="{sized}" data-key="{escape(key)}">
<header id=bar><h1>{escape(title)}</h1><span id=status></span>
<nav><button id=undo type=button>Undo</button><button id=new type=button>New game</button>
<button id=replay type=button>Replay</button></nav></header>
<main id=table aria-live=polite></main>
<section id=hand-area></section>
<section id=controls>
<form id=word-form autocomplete=off><label>Word <input id=word name=word spellcheck=false></label>
<button type=submit>Play word</button><span id=word-message role=status></span></form>
<div id=moves></div></section>
<aside id=log><h2>Moves</h2><ol id=log-lines></ol></aside>
<div id=curtain hidden><div><p id=curtain-text></p><button id=curtain-go type=button>Show my cards</button></div></div>
<div id=end hidden></div>
<div id=round hidden></div>
<div id=zoom hidden><img alt=""><p>actual size · Esc or a click closes it</p></div>
<div id=replay-bar hidden><button id=back type=button>◀ Back</button><span id=replay-step></span>
<button id=forward type=button>Forward ▶</button><button id=leave type=button>Back to the table</button></div>
</body>
</html>
"""


def seat_keys(table: Table) -> dict[str, int]:
    """A new secret for each remote seat: its invitation link carries it, and only it shows that seat."""
    return {secrets.token_urlsafe(18): seat for seat, spec in enumerate(table.seats) if spec.kind == REMOTE}


def create_app(table: Table, preview: Preview, guard: Guard, replay: Record | None = None,
               keys: dict[str, int] | None = None) -> Starlette:
    """`keys`: each remote seat's secret (seat_keys). A request with a secret acts and sees as that seat
    only; one with none is the host's, at the local seats; a wrong secret is refused."""
    lock = threading.Lock()
    keys = keys or {}
    joined: set[int] = set()
    faces = Faces(preview)

    def prefetch():  # the first face asked for draws every face at once, in the background
        try:
            faces.png(next(iter(faces.fronts.values()), None))
        except Exception:  # noqa: BLE001 - a face that fails to draw shows as missing in the page
            log.exception("drawing the faces failed")

    threading.Thread(target=prefetch, daemon=True).start()

    sizes = {c.id: c.size for c in table.game.components}

    async def home(request: Request) -> Response:
        if not table.humans:  # every person plays by a link: the host's page shows no seat's cards
            seats = "".join(f"<li>seat {seat + 1} ({spec.label}){' joined' if seat in joined else ''}</li>"
                            for seat, spec in enumerate(table.seats))
            return HTMLResponse(f"<!doctype html><title>{escape(table.game.name)}</title><h1>{escape(table.game.name)}</h1>"
                                f"<p>Every person plays by their seat's link.</p><ul>{seats}</ul>",
                                headers={"Cache-Control": "no-store"})
        return HTMLResponse(document(table.game.name, guard, replay is not None, sizes),
                            headers={"Cache-Control": "no-store"})

    async def seat_page(request: Request) -> Response:
        key = request.path_params["key"]
        if key not in keys:
            return Response("no such seat", status_code=403)
        return HTMLResponse(document(table.game.name, guard, False, sizes, key), headers={"Cache-Control": "no-store"})

    def requester(request: Request) -> int | None:
        """The remote seat a request comes from (its secret), None for the host; KeyError for a wrong secret."""
        key = request.headers.get(SEAT_HEADER, request.query_params.get("seat"))  # EventSource sends no header
        if key is None:
            return None
        return keys[key]

    def seen_by(seat: int | None) -> dict:
        if seat is not None and seat not in joined:
            joined.add(seat)
            print(f"seat {seat + 1} ({table.seats[seat].label}) joined", flush=True)
        return {**table.view(seat), "joined": sorted(joined)}

    static = static_files(STATIC, STATIC_FILES)

    async def face(request: Request) -> Response:
        key = faces.fronts.get((request.path_params["component"], request.path_params["card"]))
        png = await anyio.to_thread.run_sync(faces.png, key)
        return Response(png, media_type="image/png", headers=IMMUTABLE) if png else Response("not found", status_code=404)

    async def back(request: Request) -> Response:
        key = faces.backs.get(request.path_params["component"])
        png = await anyio.to_thread.run_sync(faces.png, key)
        return Response(png, media_type="image/png", headers=IMMUTABLE) if png else Response("not found", status_code=404)

    def locked(fn, *args):
        with lock:
            return answer(table, lambda: fn(*args))  # an engine's failure: a JSON error at its rules.py line

    def refused(request: Request) -> Response | None:
        try:
            seat = requester(request)
        except KeyError:
            return JSONResponse({"error": "not a seat of this table"}, status_code=403)
        if seat is None and not table.humans:
            return JSONResponse({"error": "every person plays by their seat's link"}, status_code=403)
        return None

    async def state(request: Request) -> Response:
        if (no := refused(request)) is not None:
            return no
        return await anyio.to_thread.run_sync(locked, seen_by, requester(request))

    async def events(request: Request) -> Response:
        """Server push: the table's step, each time it changes (a page then asks for its view)."""
        if (no := refused(request)) is not None:
            return no

        async def stream():
            seen = None
            while True:
                now = (table.games, table.step, len(table.log))
                if now != seen:
                    seen = now
                    yield f"retry: 500\ndata: {table.games}-{table.step}\n\n"
                await anyio.sleep(PUSH_S)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    async def body(request: Request) -> dict:
        try:
            data = await request.json()
        except ValueError:
            data = None
        return data if isinstance(data, dict) else {}

    async def changing(request: Request, change, fresh: bool = True) -> Response:
        """Run `change(data, seat)` on the table under the lock, in a worker thread (`seat`: the remote
        seat asking, None for the host); with `fresh`, only if the page saw the table as it is (a
        double click or a second tab must not play twice)."""
        if (no := refused(request)) is not None:
            return no
        data, seat = await body(request), requester(request)

        def run():
            with lock:
                if fresh and (data.get("step") != table.step or data.get("games") != table.games):
                    return JSONResponse({"error": "the table has moved on; here it is now", "view": table.view(seat)},
                                        status_code=409)
                try:
                    refusal = change(data, seat)
                except IllegalAction as exc:
                    return JSONResponse({"error": str(exc)}, status_code=409)
                return refusal or JSONResponse(table.view(seat))

        return await anyio.to_thread.run_sync(answer, table, run)

    def whose(seat: int | None, asking: int | None) -> Response | None:
        """Refused unless the seat is the asker's: a remote seat's own, or a local one for the host."""
        if seat is None or (seat if table.seats[seat].kind == REMOTE else None) == asking:
            return None
        return JSONResponse({"error": f"seat {seat + 1} is not yours"}, status_code=403)

    def human_move(data: dict, asking: int | None) -> Response | None:
        seat = table.to_move()
        if seat is None or table.seats[seat].kind not in PEOPLE:
            return JSONResponse({"error": "it is not a person's move"}, status_code=409)
        if (no := whose(seat, asking)) is not None:
            return no
        legal = table.legal()
        if "word" in data:
            found = word_matches(table.state, legal, str(data["word"]))
            if not found:
                return JSONResponse({"error": "not a legal word here", "word": str(data["word"])}, status_code=422)
            chosen = [a for a in found if legal.index(a) == data.get("choice")]
            if chosen:  # one of the moves the word is, picked from the list below
                found = chosen
            elif len({table.state.action_to_string(a) for a in found}) > 1:
                return JSONResponse({"error": "that word is several moves: choose one",
                                     "choices": [table.move_json(legal.index(a), a) for a in found][:40]}, status_code=422)
            action = found[0]
        else:
            index = data.get("move")
            offered = dict(table.offered())
            if not isinstance(index, int) or index not in offered:
                return JSONResponse({"error": "no such move"}, status_code=422)
            action = offered[index]
        table.play(seat, action)
        return None

    def new_game(data: dict, asking: int | None) -> Response | None:
        if asking is not None:
            return JSONResponse({"error": "only the host deals a new game"}, status_code=403)
        seed = data.get("seed")
        table.new_game(seed if isinstance(seed, int) and not isinstance(seed, bool) else table.seed + 1)
        return None

    async def move(request: Request) -> Response:
        return await changing(request, human_move)

    async def step(request: Request) -> Response:
        return await changing(request, lambda data, seat: table.bot_step() and None)

    async def undo(request: Request) -> Response:
        def take_back(data: dict, asking: int | None) -> Response | None:
            if (no := whose(table.last_mover(), asking)) is not None:
                return no
            table.undo()
            return None

        return await changing(request, take_back)

    async def new(request: Request) -> Response:
        return await changing(request, new_game, fresh=False)

    async def replay_step(request: Request) -> Response:
        try:
            step = int(request.query_params.get("step", "0"))
        except ValueError:
            step = 0
        return await anyio.to_thread.run_sync(locked, table.replay_view, step, replay)

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [
        Route("/", home),
        Route("/favicon.ico", no_icon),
        Route("/static/{name}", static),
        Route("/face/{component}/{card}.png", face),
        Route("/back/{component}.png", back),
        Route("/api/state", state),
        Route("/api/events", events),
        Route("/seat/{key}", seat_page),
        Route("/api/replay", replay_step),
        Route("/api/move", move, methods=["POST"]),
        Route("/api/step", step, methods=["POST"]),
        Route("/api/undo", undo, methods=["POST"]),
        Route("/api/new", new, methods=["POST"]),
    ]
    app = Starlette(routes=routes)
    app.state.table = table
    return guard.wrap(app)
