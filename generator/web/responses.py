"""The answers both apps give besides pages: plain refusals and JSON errors."""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse, Response

NO_STORE = {"Cache-Control": "no-store"}


def not_found(message: str = "not found") -> Response:
    return Response(message, status_code=404)


def json_error(status: int, message: str, **more: Any) -> JSONResponse:
    """{"error": message, ...more} with the status: what a page's script shows the person."""
    return JSONResponse({"error": message, **more}, status_code=status)
