"""Who may talk to a local Spellpress server (an ASGI wrapper for the pages served on this computer).

A server on 127.0.0.1 is reachable from every web page the user has open: another site may send it
requests, and a site whose name is re-pointed at 127.0.0.1 (DNS rebinding) may read the answers.

- Every request must name an allowed Host: the listening address, localhost, 127.0.0.1 or [::1],
  with the server's port.
- Every request that changes state (any method but GET, HEAD, OPTIONS) must come from the page's
  own origin, carry JSON, and send this run's secret token in the X-Spellpress-Token header; the
  page learns the token from its HTML (`meta_tag()`), which no other origin can read.

Use: `guard = Guard.for_address(host, port)`, run `guard.wrap(app)`, put `guard.meta_tag()` in the
page's <head>. (The preview's guard, being written on another branch, has the same interface.)
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass, field
from html import escape

TOKEN_HEADER = "X-Spellpress-Token"
TOKEN_META = "spellpress-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def host_name(host: str) -> str:
    host = host.strip().lower().rstrip(".")
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


@dataclass(frozen=True)
class Guard:
    names: frozenset[str]
    port: int
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))

    @classmethod
    def for_address(cls, address: str, port: int, names=()) -> "Guard":
        return cls(frozenset({host_name(address), *LOOPBACK_NAMES, *(host_name(n) for n in names if n)}), port)

    def meta_tag(self) -> str:
        return f'<meta name="{TOKEN_META}" content="{escape(self.token)}">'

    def host_allowed(self, host: str | None) -> bool:
        return (host or "").strip().lower() in {f"{name}:{self.port}" for name in self.names}

    def refusal(self, scope) -> tuple[int, str] | None:
        """(status, message) for a refused request, None for an allowed one."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host")
        if not self.host_allowed(host):
            return 400, f"unknown host {host!r}: this server answers only to its own address"
        if scope.get("method", "GET").upper() in SAFE_METHODS and scope["type"] == "http":
            return None
        if headers.get("origin", "").lower() != f"http://{host.lower()}":
            return 403, "cross-origin request refused"
        if scope["type"] == "websocket":
            return None
        if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            return 415, "expected Content-Type: application/json"
        if not hmac.compare_digest(headers.get(TOKEN_HEADER.lower(), "").encode(), self.token.encode()):
            return 403, f"missing or wrong {TOKEN_HEADER} (reload the page)"
        return None

    def wrap(self, app):
        async def guarded(scope, receive, send):
            refused = self.refusal(scope) if scope["type"] in ("http", "websocket") else None
            if refused is None:
                return await app(scope, receive, send)
            status, message = refused
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            body = (message + "\n").encode()
            await send({"type": "http.response.start", "status": status,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})

        return guarded
