"""Who may talk to a local Spellpress server: a small ASGI wrapper for any page served on this computer.

A server on 127.0.0.1 is still reachable from every web page the user opens: a page elsewhere can
send requests to it ("simple" cross-origin POSTs need no permission), and a page whose DNS name is
re-pointed at 127.0.0.1 (DNS rebinding) can even read the answers. The guard closes both:

- every request (and WebSocket) must name an allowed Host: the address the server listens on,
  `localhost`, `127.0.0.1` or `[::1]` with the server's port, and any name given to `--host`;
  when listening on every address (0.0.0.0 or ::), also an IP address typed as the Host
  (a browser that dialled an address itself is not being rebound);
- every state-changing request (any method but GET, HEAD and OPTIONS) must also come from the
  page's own origin (`Origin: http://<that host>`), carry a JSON body (`Content-Type:
  application/json`), and send this session's secret in the `X-Spellpress-Token` header;
- a WebSocket must also come from the page's own origin.

The token is new for every run of the server. The page learns it from the HTML it is served
(`guard.meta_tag()` in the <head>: the web kit's document.html has it) and sends it back from script; no
other origin can read the page.

Use:

    guard = Guard.for_address(host, port, names=[args.host])   # host, port: where the socket is bound
    app = guard.wrap(starlette_app)                             # the ASGI app to run (web/app.py: WebApp.asgi)
    page = template.render(token_tag=Markup(guard.meta_tag()))  # every HTML page that sends requests

and in the page's script:

    const token = document.querySelector('meta[name="spellpress-token"]').content;
    fetch(url, {method: "POST", headers: {"Content-Type": "application/json", "X-Spellpress-Token": token},
                body: JSON.stringify(data)});

Refusals are plain-text answers: 400 for an unknown Host, 403 for a foreign origin or a missing or
wrong token, 415 for a body that is not JSON.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape

TOKEN_HEADER = "X-Spellpress-Token"
TOKEN_META = "spellpress-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def host_name(host: str) -> str:
    """A host as it appears in a Host header: lower case, an IPv6 address in brackets."""
    host = host.strip().lower().rstrip(".")
    if ":" in host and not host.startswith("["):
        return f"[{host}]"
    return host


def split_host_header(value: str) -> tuple[str, int | None] | None:
    """('name', port) from a Host header value; port None when absent; None when malformed."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[: end + 1], value[end + 1:]
    else:
        name, _, port_text = value.partition(":")
        rest = f":{port_text}" if _ else ""
    if not rest:
        return name.rstrip("."), None
    if not rest.startswith(":") or not rest[1:].isdigit():
        return None
    return name.rstrip("."), int(rest[1:])


def is_ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def is_loopback(address: str) -> bool:
    """True for any loopback address (127.0.0.0/8, ::1) and for the name localhost."""
    if address.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Guard:
    names: frozenset[str]
    port: int
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    any_ip: bool = False  # listening on every address: an IP typed as the Host is accepted

    @classmethod
    def for_address(cls, address: str, port: int, names: Iterable[str] = ()) -> Guard:
        """The guard for a server bound to (address, port), also answering to the given host names."""
        unspecified = is_ip_literal(address) and ipaddress.ip_address(address.strip("[]")).is_unspecified
        allowed = {host_name(address), *LOOPBACK_NAMES, *(host_name(n) for n in names if n)}
        return cls(names=frozenset(allowed), port=port, any_ip=unspecified)

    def meta_tag(self) -> str:
        return f'<meta name="{TOKEN_META}" content="{escape(self.token)}">'

    def host_allowed(self, host_header: str | None) -> bool:
        parsed = split_host_header(host_header or "")
        if parsed is None:
            return False
        name, port = parsed
        if (port if port is not None else 80) != self.port:
            return False
        return name in self.names or (self.any_ip and is_ip_literal(name))

    def refusal(self, scope) -> tuple[int, str] | None:
        """Why this request is refused (status, message), or None when it may go on."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host")
        if not self.host_allowed(host):
            return 400, f"unknown host {host!r}: this server answers only to its own address"
        origin = headers.get("origin")
        same_origin = origin is not None and host is not None and origin.lower() == f"http://{host.lower()}"
        if scope["type"] == "websocket":
            return None if same_origin else (403, "cross-origin connection refused")
        if scope.get("method", "GET").upper() in SAFE_METHODS:
            return None
        if not same_origin:
            return 403, "cross-origin request refused"
        if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            return 415, "expected Content-Type: application/json"
        if not hmac.compare_digest(headers.get(TOKEN_HEADER.lower(), "").encode(), self.token.encode()):
            return 403, f"missing or wrong {TOKEN_HEADER} (reload the page)"
        return None

    def wrap(self, app):
        """The ASGI app that refuses what the guard does not allow and passes the rest to `app`."""

        async def guarded(scope, receive, send):
            refused = self.refusal(scope) if scope["type"] in ("http", "websocket") else None
            if refused is None:
                return await app(scope, receive, send)
            status, message = refused
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
                return
            body = (message + "\n").encode()
            await send({"type": "http.response.start", "status": status,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                    (b"content-length", str(len(body)).encode()),
                                    (b"cache-control", b"no-store")]})
            await send({"type": "http.response.body", "body": body})

        return guarded
