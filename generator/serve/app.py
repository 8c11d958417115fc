"""The preview's web application (Starlette): pages, face images, live events, builds.

Nothing in a URL is used as a file path: faces and sheets are looked up by their
content address in memory, static files come from a fixed table, and downloads
are only the files the last build in this session wrote.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
import zipfile
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from spellpress.build import BuildOptions, build
from spellpress.errors import UserError
from spellpress.exporters import optional, pdf_exports
from spellpress.serve import page
from spellpress.serve.guard import Guard
from spellpress.serve.preview import FULL_DPI, PREVIEW_DPI, Preview

STATIC = Path(__file__).resolve().parent / "static"
STATIC_FILES = {"preview.css": "text/css", "preview.js": "text/javascript"}


def static_files(folder: Path, files: dict[str, str]):
    """A route handler serving the named files of `folder` (name -> media type), and nothing else."""

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in files:
            return Response("not found", status_code=404)
        return FileResponse(folder / name, media_type=files[name], headers={"Cache-Control": "no-cache"})

    return static
KEY = re.compile(r"[0-9a-f]{32}")
DIGEST = re.compile(r"[0-9a-f]{16}")
KEEP_ALIVE_S = 15.0
WATCH_DEBOUNCE_MS = 30

log = logging.getLogger("spellpress.serve")


class Hub:
    """Fans a new version number out to every open event stream."""

    def __init__(self):
        self.queues: set[asyncio.Queue] = set()

    def subscribe(self) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue(maxsize=16)
        self.queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue) -> None:
        self.queues.discard(queue)

    def publish(self, version: int) -> None:
        for queue in list(self.queues):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(version)


async def watch(preview: Preview, hub: Hub, out: Path, stop: asyncio.Event) -> None:
    """Refresh on every save in the game folder or the shared folders it uses; never gives up."""
    from watchfiles import DefaultFilter, awatch

    out = out.resolve()

    class Relevant(DefaultFilter):
        def __call__(self, change, path: str) -> bool:
            return super().__call__(change, path) and out not in Path(path).parents

    while not stop.is_set():
        roots = preview.watch_roots()
        try:
            async for _ in awatch(*roots, watch_filter=Relevant(), debounce=WATCH_DEBOUNCE_MS, step=10,
                                  stop_event=stop, rust_timeout=500, yield_on_timeout=False):
                if await anyio.to_thread.run_sync(preview.refresh):
                    hub.publish(preview.state.version)
                if preview.watch_roots() != roots:
                    break  # the game now uses other shared folders
        except Exception:  # a folder removed while watched, for instance: look again shortly
            log.exception("watching stopped; restarting")
            if await anyio.to_thread.run_sync(preview.refresh):
                hub.publish(preview.state.version)
            await asyncio.sleep(0.5)


async def poll_sheets(preview: Preview, hub: Hub, seconds: float, stop: asyncio.Event) -> None:
    """serve --pull-every: pull the game's Google Sheets every `seconds`; a changed sheet is rebuilt
    and the page says when (pull.py writes only a snapshot that changed)."""
    from spellpress.pull import pull_changes

    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), timeout=seconds)
            return
        except asyncio.TimeoutError:
            pass
        note = await anyio.to_thread.run_sync(pull_changes, preview.folder)
        if note is not None and note != preview.note:
            print(note, flush=True)
            preview.note = note
            if await anyio.to_thread.run_sync(preview.refresh):
                hub.publish(preview.state.version)


def chosen_modes(wanted: dict) -> dict:
    """Paper, backs and marks chosen on the page; empty means the game's own setting (ValueError if unknown)."""
    modes = {}
    for key in (name for export in pdf_exports().values() for name, _ in export.modes):
        value = wanted.get(key)
        if value in (None, ""):
            continue
        if not isinstance(value, str):
            raise ValueError(f"{key} must be a name such as a4, not {value!r}")
        modes[key] = value
    return modes


def zipped(files: dict[str, Path]) -> bytes:
    """The built files in one ZIP, under the names the page lists; PNG, JPEG and PDF are stored as they are."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for name, path in sorted(files.items()):
            stored = path.suffix.lower() in (".png", ".jpg", ".jpeg", ".pdf")
            archive.write(path, name, compress_type=zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def create_app(preview: Preview, out: Path, guard: Guard, watching: bool = True, pull_every: float | None = None):
    """The preview as an ASGI app, behind `guard` (Host, origin and token checks: serve/guard.py)."""
    hub = Hub()
    downloads: dict[str, Path] = {}
    built: list[str] = []  # the game id of the last build

    def render(view: str, request: Request) -> tuple[str, str, str | None]:
        state = preview.state
        content: str | None
        if view == "sheets":
            content = page.sheets_view(state)
        elif view.startswith("card/"):
            parts = view.split("/")
            content = page.card_view(state, parts[1], parts[2]) if len(parts) == 3 else None
        else:
            content = page.cards_view(state)
        return page.header(state, "sheets" if view == "sheets" else "cards"), page.errors_panel(state), content

    def view_of(request: Request) -> str:
        path = request.url.path
        if path.startswith("/fragment"):
            path = path[len("/fragment"):]
        return path.strip("/")

    async def html(request: Request) -> Response:
        view = view_of(request)
        head, errors, content = render(view, request)
        if content is None:
            return HTMLResponse(page.document("not found", head + errors + "<main id=content><p>No such card "
                                              "(it may have been renamed). <a href='/'>All cards</a></p></main>",
                                              preview.state.version, guard.meta_tag()), status_code=404)
        title = preview.state.snapshot.game.name if preview.state.snapshot else "Spellpress preview"
        return HTMLResponse(page.document(title, head + errors + content, preview.state.version, guard.meta_tag()))

    async def fragment(request: Request) -> Response:
        state = preview.state
        _, errors, content = render(view_of(request), request)
        return JSONResponse({"version": state.version, "errors": errors, "content": content,
                             "counts": page.counts_line(state)},
                            headers={"Cache-Control": "no-store"})

    async def face(request: Request) -> Response:
        key = request.path_params["key"]
        try:
            dpi = int(request.query_params.get("dpi", PREVIEW_DPI))
        except ValueError:
            dpi = -1
        if not KEY.fullmatch(key) or dpi not in (PREVIEW_DPI, FULL_DPI):
            return Response("not found", status_code=404)
        png = await anyio.to_thread.run_sync(preview.image, key, dpi)
        if png is None:
            return Response("not found", status_code=404)
        # the address is the content: the browser may keep it for good
        return Response(png, media_type="image/png", headers={"Cache-Control": "public, max-age=31536000, immutable"})

    async def sheet(request: Request) -> Response:
        digest, number = request.path_params["digest"], request.path_params["number"]
        if not DIGEST.fullmatch(digest):
            return Response("not found", status_code=404)
        png = await anyio.to_thread.run_sync(preview.sheet, digest, number)
        if png is None:
            return Response("not found", status_code=404)
        return Response(png, media_type="image/png", headers={"Cache-Control": "public, max-age=31536000, immutable"})

    static = static_files(STATIC, STATIC_FILES)

    async def events(request: Request) -> Response:
        queue = hub.subscribe()

        async def stream():
            try:
                yield f"retry: 500\ndata: {preview.state.version}\n\n"
                while True:
                    try:
                        version = await asyncio.wait_for(queue.get(), KEEP_ALIVE_S)
                        yield f"data: {version}\n\n"
                    except asyncio.TimeoutError:
                        yield ": still here\n\n"
            finally:
                hub.unsubscribe(queue)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    async def build_game(request: Request) -> Response:
        try:
            wanted = await request.json()
        except ValueError:
            wanted = None
        if not isinstance(wanted, dict):
            return JSONResponse({"errors": ["expected a JSON object such as {\"png\": true}"]}, status_code=400)
        try:
            exports = tuple(name for name, export in optional().items() if wanted.get(export.key) is True)
            options = BuildOptions(out=out, exports=exports, **chosen_modes(wanted))
        except ValueError as exc:
            return JSONResponse({"errors": [str(exc)]}, status_code=400)

        def run():
            with preview.lock:  # the preview and a build share reportlab's and pdfium's global state
                started = time.perf_counter()
                result = build(preview.folder, options)
                return result, time.perf_counter() - started

        try:
            result, seconds = await anyio.to_thread.run_sync(run)
        except UserError as exc:
            return JSONResponse({"errors": [str(p) for p in exc.problems]})
        except Exception as exc:
            log.exception("build failed")
            return JSONResponse({"errors": [f"spellpress hit a bug: {type(exc).__name__}: {exc} (see the server's log)"]})
        game_out = (out / result.game_id).resolve()
        downloads.clear()
        built[:] = [result.game_id]
        names = []
        for path in result.files:
            name = path.resolve().relative_to(game_out).as_posix()
            downloads[name] = path.resolve()
            names.append(name)
        return JSONResponse({"files": names, "zip": "/build.zip", "seconds": round(seconds, 2)})

    async def download_zip(request: Request) -> Response:
        if not downloads:
            return Response("not found (build first)", status_code=404)
        data = await anyio.to_thread.run_sync(zipped, dict(downloads))
        return Response(data, media_type="application/zip",
                        headers={"Content-Disposition": f'attachment; filename="{built[0]}.zip"'})

    async def download(request: Request) -> Response:
        name = request.path_params["name"]
        path = downloads.get(name)  # only what the last build wrote: a URL never names a file by itself
        if path is None or not path.is_file():
            return Response("not found (build first)", status_code=404)
        return FileResponse(path, filename=path.name)

    @asynccontextmanager
    async def lifespan(app):
        stop = asyncio.Event()
        task = asyncio.create_task(watch(preview, hub, out, stop)) if watching else None
        polling = asyncio.create_task(poll_sheets(preview, hub, pull_every, stop)) if pull_every else None
        try:
            yield
        finally:
            stop.set()
            for running in (task, polling):
                if running is not None:
                    running.cancel()

    routes = [
        Route("/", html),
        Route("/sheets", html),
        Route("/card/{component}/{card}", html),
        Route("/fragment", fragment),
        Route("/fragment/{view:path}", fragment),
        Route("/face/{key}.png", face),
        Route("/sheet/{digest}/{number:int}.png", sheet),
        Route("/static/{name}", static),
        Route("/events", events),
        Route("/build", build_game, methods=["POST"]),
        Route("/build.zip", download_zip),
        Route("/download/{name:path}", download),
    ]
    return guard.wrap(Starlette(routes=routes, lifespan=lifespan))
