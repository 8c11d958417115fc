"""The preview's web application: pages, face images, live events, builds.

Nothing in a URL is used as a file path: faces and sheets are looked up by their
content address in memory, static files come from a fixed table, and downloads
are only the files the last build in this session wrote.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import quote, unquote

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from spellpress.errors import UserError
from spellpress.serve import page
from spellpress.serve.builds import Downloads, build_options, zipped
from spellpress.serve.preview import FULL_DPI, PREVIEW_DPI, Preview
from spellpress.serve.watch import poll_sheets, watch
from spellpress.web.app import Gate, WebApp, json_body
from spellpress.web.push import Hub, event_stream
from spellpress.web.responses import NO_STORE, not_found
from spellpress.web.static import StaticFiles

STATIC = StaticFiles(Path(__file__).resolve().parent / "static", {"preview.css": "text/css", "preview.js": "text/javascript"})
KEY = re.compile(r"[0-9a-f]{32}")
DIGEST = re.compile(r"[0-9a-f]{16}")
KEEP_ALIVE_S = 15.0
FOREVER = {"Cache-Control": "public, max-age=31536000, immutable"}  # the address is the content

log = logging.getLogger("spellpress.serve")


class PreviewApp(WebApp):
    """The preview of one game; `watching`: redraw on every save; `pull_every`: pull its Google Sheets so often."""

    def __init__(self, preview: Preview, out: Path, guard: Gate, watching: bool = True, pull_every: float | None = None):
        super().__init__(guard, page.PAGES, STATIC)
        self.preview = preview
        self.out = out
        self.watching = watching
        self.pull_every = pull_every
        self.hub = Hub()
        self.downloads = Downloads()

    def routes(self) -> list[Route]:
        return [
            Route("/", self.html),
            Route("/sheets", self.html),
            Route("/card/{view:path}", self.html),  # a card id may hold "/": parsed from the raw path
            Route("/fragment", self.fragment),
            Route("/fragment/{view:path}", self.fragment),
            Route("/face/{key}.png", self.face),
            Route("/sheet/{digest}/{number:int}.png", self.sheet),
            Route("/events", self.events),
            Route("/build", self.build, methods=["POST"]),
            Route("/build.zip", self.download_zip),
            Route("/download/{name:path}", self.download),
        ]

    @asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        stop = asyncio.Event()
        tasks = []
        if self.watching:
            tasks.append(asyncio.create_task(watch(self.preview, self.hub, self.out, stop)))
        if self.pull_every:
            tasks.append(asyncio.create_task(poll_sheets(self.preview, self.hub, self.pull_every, stop)))
        try:
            yield
        finally:
            stop.set()
            for task in tasks:
                task.cancel()

    def parts(self, view: str) -> tuple[str, str, str | None]:
        """The header, the errors and the view's content (None: no such card)."""
        state = self.preview.state
        content: str | None
        if view == "sheets":
            content = page.sheets_view(state)
        elif view.startswith("card/"):
            parts = [unquote(part) for part in view.split("/")]
            content = page.card_view(state, parts[1], parts[2]) if len(parts) == 3 else None
        else:
            content = page.cards_view(state)
        return page.header(state, "sheets" if view == "sheets" else "cards"), page.errors_panel(state), content

    @staticmethod
    def view_of(request: Request) -> str:
        """The view's path as the browser sent it, still quoted: a "/" inside a card's id stays %2F."""
        raw = request.scope.get("raw_path")
        path = raw.decode("latin-1") if raw else quote(request.url.path)
        return path.partition("?")[0].removeprefix("/fragment").strip("/")

    async def html(self, request: Request) -> Response:
        state = self.preview.state
        header, errors, content = self.parts(self.view_of(request))
        if content is None:
            return self.page("preview.html", status=404, title="not found", version=state.version, header=header,
                             errors=errors, content=page.PAGES.render("missing_card.html"))
        title = state.snapshot.game.name if state.snapshot else "Spellpress preview"
        return self.page("preview.html", title=title, version=state.version, header=header, errors=errors, content=content)

    async def fragment(self, request: Request) -> Response:
        state = self.preview.state
        _, errors, content = self.parts(self.view_of(request))
        return JSONResponse({"version": state.version, "errors": errors, "content": content,
                             "counts": page.counts_line(state)}, headers=NO_STORE)

    async def face(self, request: Request) -> Response:
        key = request.path_params["key"]
        try:
            dpi = int(request.query_params.get("dpi", PREVIEW_DPI))
        except ValueError:
            dpi = -1
        if not KEY.fullmatch(key) or dpi not in (PREVIEW_DPI, FULL_DPI):
            return not_found()
        png = await anyio.to_thread.run_sync(self.preview.image, key, dpi)
        return not_found() if png is None else Response(png, media_type="image/png", headers=FOREVER)

    async def sheet(self, request: Request) -> Response:
        digest, number = request.path_params["digest"], request.path_params["number"]
        if not DIGEST.fullmatch(digest):
            return not_found()
        png = await anyio.to_thread.run_sync(self.preview.sheet, digest, number)
        return not_found() if png is None else Response(png, media_type="image/png", headers=FOREVER)

    async def events(self, request: Request) -> Response:
        return event_stream(self.hub.events(self.preview.state.version, KEEP_ALIVE_S))

    async def build(self, request: Request) -> Response:
        wanted = await json_body(request)
        if wanted is None:
            return JSONResponse({"errors": ["expected a JSON object such as {\"png\": true}"]}, status_code=400)
        try:
            options = build_options(wanted, self.out)
        except ValueError as exc:
            return JSONResponse({"errors": [str(exc)]}, status_code=400)
        try:
            names, seconds = await anyio.to_thread.run_sync(self.downloads.run, self.preview, options)
        except UserError as exc:
            return JSONResponse({"errors": [str(p) for p in exc.problems]})
        except Exception as exc:
            log.exception("build failed")
            return JSONResponse({"errors": [f"spellpress hit a bug: {type(exc).__name__}: {exc} (see the server's log)"]})
        return JSONResponse({"files": names, "zip": "/build.zip", "seconds": round(seconds, 2)})

    async def download_zip(self, request: Request) -> Response:
        if not self.downloads.files:
            return not_found("not found (build first)")
        data = await anyio.to_thread.run_sync(zipped, dict(self.downloads.files))
        return Response(data, media_type="application/zip",
                        headers={"Content-Disposition": f'attachment; filename="{self.downloads.game_id}.zip"'})

    async def download(self, request: Request) -> Response:
        path = self.downloads.files.get(request.path_params["name"])
        if path is None or not path.is_file():
            return not_found("not found (build first)")
        return FileResponse(path, filename=path.name)


def create_app(preview: Preview, out: Path, guard: Gate, watching: bool = True, pull_every: float | None = None) -> ASGIApp:
    """The preview as an ASGI app, behind `guard` (Host, origin and token checks: serve/guard.py)."""
    return PreviewApp(preview, out, guard, watching, pull_every).asgi()
