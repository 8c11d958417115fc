"""Fetching one tab of a Google Sheet as CSV: the only place Spellpress goes on the network.

Rules: https to Google's hosts only (docs.google.com, whose export answers with a redirect to
*.googleusercontent.com), no redirect anywhere else, a time limit for the whole fetch and a size
limit for the answer. A redirect to Google's sign-in page, or a web page where CSV was expected,
means the sheet is private. `SPELLPRESS_GOOGLE_SHEETS_BASE` replaces https://docs.google.com, for
the tests only: it must be a loopback address, and then only that address is fetched from.
"""

from __future__ import annotations

import http.client
import ipaddress
import os
import ssl
import time
from dataclasses import dataclass
from email.message import Message
from urllib.parse import urljoin, urlsplit

from spellpress.load.google_sheet import SheetLink

BASE_VARIABLE = "SPELLPRESS_GOOGLE_SHEETS_BASE"
GOOGLE_BASE = "https://docs.google.com"
EXPORT_HOSTS = ("docs.google.com",)
EXPORT_HOST_SUFFIX = ".googleusercontent.com"
SIGN_IN_HOSTS = ("accounts.google.com",)
TIMEOUT_S = 30.0  # the whole fetch, redirects included
MAX_BYTES = 20 * 1024 * 1024  # a CSV of cards is kilobytes; this is a runaway answer
MAX_REDIRECTS = 5
CHUNK = 64 * 1024
PRIVATE = ("the sheet is private (Google answered with its sign-in page): in Google Sheets choose Share > "
           "General access > 'Anyone with the link' (Viewer), or File > Share > Publish to the web, then pull again")


class FetchError(Exception):
    """Why a tab could not be fetched, in the user's terms."""


@dataclass(frozen=True)
class Fetched:
    data: bytes
    filename: str  # what Google names the download, "<spreadsheet> - <tab>.csv" ('' if it did not say)


def base_address() -> str:
    """Google's address, or the test stand-in's (a loopback address only)."""
    base = os.environ.get(BASE_VARIABLE, "").strip().rstrip("/")
    if not base:
        return GOOGLE_BASE
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not _is_loopback(parts.hostname or "") or parts.path not in ("", "/"):
        raise FetchError(f"{BASE_VARIABLE} is for Spellpress's tests only and must be a loopback address such as "
                         f"http://127.0.0.1:8000, not {base!r}; unset it to fetch from Google")
    return base


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def export_address(link: SheetLink, base: str) -> str:
    return f"{base}/spreadsheets/d/{link.spreadsheet}/export?format=csv&gid={link.gid}"


def _allowed(url: str, base: str) -> bool:
    parts = urlsplit(url)
    if base != GOOGLE_BASE:
        stand_in = urlsplit(base)
        return (parts.scheme, parts.hostname, parts.port) == (stand_in.scheme, stand_in.hostname, stand_in.port)
    host = parts.hostname or ""
    return parts.scheme == "https" and parts.port in (None, 443) and (host in EXPORT_HOSTS or host.endswith(EXPORT_HOST_SUFFIX))


def _sign_in(url: str) -> bool:
    parts = urlsplit(url)
    return (parts.hostname or "") in SIGN_IN_HOSTS or "servicelogin" in parts.path.lower() or "/signin" in parts.path.lower()


def fetch_tab(link: SheetLink) -> Fetched:
    """The tab's CSV as Google exports it; FetchError says why not."""
    base = base_address()
    deadline = time.monotonic() + TIMEOUT_S
    url = export_address(link, base)
    for _ in range(MAX_REDIRECTS + 1):
        status, reason, headers, body = _get(url, deadline)
        if status in (301, 302, 303, 307, 308):
            target = urljoin(url, headers.get("Location", ""))
            if _sign_in(target):
                raise FetchError(PRIVATE)
            if not _allowed(target, base):
                raise FetchError(f"Google's answer redirected to {urlsplit(target).hostname or target}, which is not "
                                 "Google's export: refused (only https to docs.google.com and googleusercontent.com)")
            url = target
            continue
        if status in (401, 403):
            raise FetchError(PRIVATE)
        if status == 404:
            raise FetchError("Google has no such spreadsheet or tab (404 Not Found): check the link, copied from the "
                             "browser with the tab open, and that the tab was not deleted")
        if status != 200:
            raise FetchError(f"Google answered {status} {reason}: try again later")
        kind = headers.get_content_type()
        if kind == "text/html":
            raise FetchError(PRIVATE)
        return Fetched(body, headers.get_filename() or "")
    raise FetchError(f"more than {MAX_REDIRECTS} redirects: refused")


def _get(url: str, deadline: float) -> tuple[int, str, Message, bytes]:
    parts = urlsplit(url)
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise FetchError(_too_slow())
    connection: http.client.HTTPConnection
    if parts.scheme == "https":
        connection = http.client.HTTPSConnection(parts.hostname or "", parts.port, timeout=remaining,
                                                 context=ssl.create_default_context())
    else:
        connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=remaining)
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    try:
        connection.request("GET", target or "/", headers={"User-Agent": "spellpress-pull", "Accept": "text/csv"})
        response = connection.getresponse()
        headers = response.msg
        length = headers.get("Content-Length", "")
        if length.isdigit() and int(length) > MAX_BYTES:
            raise FetchError(_too_large())
        chunks, size = [], 0
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise FetchError(_too_slow())
            if connection.sock is not None:
                connection.sock.settimeout(remaining)
            chunk = response.read1(CHUNK) if response.status == 200 else b""
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_BYTES:
                raise FetchError(_too_large())
            chunks.append(chunk)
        return response.status, response.reason, headers, b"".join(chunks)
    except TimeoutError:
        raise FetchError(_too_slow()) from None
    except ssl.SSLError as exc:
        raise FetchError(f"the secure connection to {parts.hostname} failed ({exc.reason or exc})") from None
    except (OSError, http.client.HTTPException) as exc:
        raise FetchError(f"cannot reach {parts.hostname} ({getattr(exc, 'strerror', None) or exc}): "
                         "check the network connection") from None
    finally:
        connection.close()


def _too_slow() -> str:
    return f"Google did not answer within {TIMEOUT_S:g} s: try again later"


def _too_large() -> str:
    return f"the answer is larger than {MAX_BYTES // (1024 * 1024)} MB, far more than a sheet of cards: refused"
