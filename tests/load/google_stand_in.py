"""A local HTTP server that answers as Google Sheets' CSV export does, on the loopback address only.

The spreadsheet id decides the answer: a sheet (a redirect to the content host, then CSV named
"<spreadsheet> - <tab>.csv"), a private sheet (a redirect to Google's sign-in, or its sign-in page
itself), a 404, an answer over the size limit, a slow answer, a redirect to another host.
"""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

SHEET = "SheetOfLetters01"
PRIVATE = "PrivateSheet0001"
SIGN_IN_PAGE = "SignInPage000001"
MISSING = "NoSuchSheet00001"
HUGE = "HugeSheet0000001"
SLOW = "SlowSheet0000001"
ELSEWHERE = "ElsewhereSheet01"


class StandIn:
    def __init__(self):
        self.tabs: dict[str, bytes] = {}  # gid -> CSV of SHEET
        self.requests: list[str] = []
        self.slow_seconds = 2.0
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                owner.requests.append(self.path)
                try:
                    owner.answer(self)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up first (the slow and oversized answers)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(handler.path)
        query = parse_qs(parts.query)
        gid = query.get("gid", ["0"])[0]
        if parts.path.startswith("/content/"):  # the content host Google redirects the export to
            body = self.tabs.get(gid)
            if body is None:
                return self._send(handler, 404, b"Not Found", "text/html")
            return self._send(handler, 200, body, "text/csv; charset=utf-8",
                              {"Content-Disposition": 'attachment; filename="Word Rummy - Letters.csv"'})
        segments = parts.path.split("/")  # /spreadsheets/d/<id>/export
        sheet = segments[3] if len(segments) > 4 and segments[4] == "export" else ""
        if sheet == SHEET:
            return self._redirect(handler, f"/content/{sheet}?gid={gid}")
        if sheet == PRIVATE:
            return self._redirect(handler, "https://accounts.google.com/ServiceLogin?passive=1209600&continue=x")
        if sheet == SIGN_IN_PAGE:
            return self._send(handler, 200, b"<!doctype html><title>Sign in - Google Accounts</title>", "text/html")
        if sheet == HUGE:  # no Content-Length: the size is found reading
            handler.send_response(200)
            handler.send_header("Content-Type", "text/csv")
            handler.end_headers()
            for _ in range(64):
                handler.wfile.write(b"letter,points\n" + b"A,1\n" * 1024)
            return None
        if sheet == SLOW:
            time.sleep(self.slow_seconds)
            return self._send(handler, 200, b"letter,points,count\nA,1,1\n", "text/csv")
        if sheet == ELSEWHERE:
            return self._redirect(handler, "http://192.0.2.1/export.csv")
        return self._send(handler, 404, b"<html>Not Found</html>", "text/html")

    @staticmethod
    def _redirect(handler, location: str) -> None:
        handler.send_response(307)
        handler.send_header("Location", location)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    @staticmethod
    def _send(handler, status: int, body: bytes, kind: str, headers: dict | None = None) -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", kind)
        handler.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(body)
