"""The base of the servers' apps: state as attributes, one method per route, every request behind the guard.

A subclass lists its routes (`routes()`), may run background tasks while it serves (`lifespan`), and answers
pages with `page(template, ...)`: the document carries the guard's token tag for the page's script.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any, Protocol

from markupsafe import Markup
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route
from starlette.types import ASGIApp

from spellpress.web.pages import Pages
from spellpress.web.static import StaticFiles


class Gate(Protocol):
    """Who may talk to the server (spellpress.serve.guard.Guard)."""

    def meta_tag(self) -> str: ...

    def wrap(self, app: ASGIApp) -> ASGIApp: ...


class WebApp:
    def __init__(self, guard: Gate, pages: Pages, static: StaticFiles):
        self.guard = guard
        self.pages = pages
        self.static = static

    def routes(self) -> list[Route]:
        raise NotImplementedError

    @asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        """What runs while the app serves (none here): a subclass starts and stops its tasks."""
        yield

    def page(self, template: str, /, status: int = 200, headers: Mapping[str, str] | None = None,
             **context: Any) -> HTMLResponse:
        html = self.pages.render(template, token_tag=Markup(self.guard.meta_tag()), **context)
        return HTMLResponse(html, status_code=status, headers=headers)

    def asgi(self) -> ASGIApp:
        """The ASGI app to run: the routes and the static files, behind the guard."""
        routes = [*self.routes(), Route("/static/{name}", self.static.serve)]
        return self.guard.wrap(Starlette(routes=routes, lifespan=self.lifespan))


async def json_body(request: Request) -> dict | None:
    """The request's body as a JSON object; None when it is not one."""
    try:
        data = await request.json()
    except ValueError:
        return None
    return data if isinstance(data, dict) else None
