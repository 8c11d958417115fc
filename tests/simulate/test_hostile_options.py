"""`simulate`, `sweep` and `tune` options against hostile values (issue 43): each gave a traceback or hung
before; each is now exit 2 with one line naming the option, at once."""

from __future__ import annotations

import _thread
import socket
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from tests.hostile import refused

HUGE = "1" * 5000  # past int()'s 4,300 digits: a ValueError traceback in tune
LONG = "1" * 400  # a float overflows on it: an OverflowError traceback in tune


@pytest.mark.parametrize("command, vary", [
    ("sweep", f"rules.rounds=6,{HUGE}"),
    ("tune", f"rules.rounds=1..{HUGE}"),
    ("tune", f"rules.rounds=1..{LONG}"),
    ("tune", f"rules.rounds={LONG},2"),
    ("sweep", "rules.rounds=1e999"),
    ("tune", "rules.rounds=-1e999..3"),
])
def test_a_number_too_large_for_any_game_is_refused_naming_vary(command, vary, tmp_path, capsys):
    err = refused([command, "word-rummy", "--vary", vary, "--games", "4", "--workers", "1", "--out", str(tmp_path),
                   *(["--min-games", "2", "--trials", "2", "--fresh"] if command == "tune" else [])], capsys, "--vary")
    assert "rules.rounds" in err and "too large" in err and len(err) < 400


def test_ordinary_ranges_and_lists_still_parse():
    from spellpress.simulate.variants import parse_vary, split_vary

    assert parse_vary(["rules.rounds=3,4,5"]) == [("rules.rounds", [3, 4, 5])]
    assert split_vary(["rules.skill_margin=0.5..1.5", "cards.letters.q.count=-1..+2"]) == [
        ("rules.skill_margin", "0.5..1.5"), ("cards.letters.q.count", "-1..+2")]


@pytest.mark.parametrize("address, words", [
    ("garbage://", "garbage:// is not a scheme"),
    ("tcp://[::1", "not a"),
    ("inproc://x", "inproc://"),
    ("ucx://127.0.0.1:1", "ucx://"),
    ("tls://127.0.0.1:1", "tls://"),
    ("", "empty"),
    ("tcp://127.0.0.1:99999", "port"),
])
def test_a_dask_address_that_cannot_work_is_refused_at_once(address, words, capsys):
    """Before: each was one of Dask's tracebacks (ValueError, TypeError), reported as a Spellpress bug."""
    pytest.importorskip("dask.distributed")
    refused(["simulate", "word-rummy", "--games", "2", "--luck-games", "0", "--dask", address], capsys, "--dask", words)


class Silent(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.mark.slow
@pytest.mark.parametrize("server", ["http", "silent socket"])
def test_a_port_where_something_else_listens_is_refused_within_seconds(server, capsys):
    """Before: an HTTP server's port (the Dask dashboard's 8787) hung `simulate --dask` for over 200 s."""
    pytest.importorskip("dask.distributed")
    if server == "http":
        listening = HTTPServer(("127.0.0.1", 0), Silent)
        threading.Thread(target=listening.serve_forever, daemon=True).start()
        port, close = listening.server_address[1], lambda: (listening.shutdown(), listening.server_close())
    else:
        quiet = socket.socket()
        quiet.bind(("127.0.0.1", 0))
        quiet.listen()
        port, close = quiet.getsockname()[1], quiet.close
    stop = threading.Timer(40, _thread.interrupt_main)  # a hang: Ctrl-C it, main then returns 130, not 2
    stop.start()
    try:
        refused(["simulate", "word-rummy", "--games", "2", "--luck-games", "0", "--dask", f"tcp://127.0.0.1:{port}"],
                capsys, "--dask", "not", f"127.0.0.1:{port}")
    finally:
        stop.cancel()
        close()
