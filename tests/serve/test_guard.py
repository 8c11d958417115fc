"""The preview refuses what a hostile web page sends: a rebound Host, cross-origin or non-JSON builds, no token."""

from __future__ import annotations

import http.client
import re
import shutil
import subprocess
import sys

import pytest
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spellpress.serve.command import exposure_warning
from spellpress.serve.guard import TOKEN_HEADER, Guard
from tests.conftest import FIXTURES
from tests.serve.test_app import ORIGIN, PORT, copied, guarded_client


@pytest.fixture
def client(tmp_path):
    with guarded_client(copied(tmp_path, "duplex-game"), tmp_path / "out") as client:
        yield client


def good_headers(client) -> dict:
    return {"Origin": ORIGIN, "Content-Type": "application/json", TOKEN_HEADER: client.guard.token}


@pytest.mark.parametrize("host", ["attacker.example", f"attacker.example:{PORT}", "127.0.0.1:9999", "localhost",
                                  f"127.0.0.1.attacker.example:{PORT}", f"[::1]:{PORT}x", "", f"localhost:{PORT}:1"])
@pytest.mark.parametrize("path", ["/", "/sheets", "/fragment", "/static/preview.js"])
def test_a_rebound_or_foreign_host_reads_nothing(client, host, path):
    response = client.get(path, headers={"Host": host})
    assert response.status_code == 400
    assert "unknown host" in response.text and "Duplex" not in response.text and "token" not in response.text


@pytest.mark.parametrize("host", [f"127.0.0.1:{PORT}", f"localhost:{PORT}", f"LOCALHOST:{PORT}", f"[::1]:{PORT}"])
def test_the_page_answers_to_its_own_names(client, host):
    response = client.get("/", headers={"Host": host})
    assert response.status_code == 200 and "Duplex Test" in response.text


def test_downloads_need_the_right_host_too(client, tmp_path):
    built = client.post("/build", json={}, headers=good_headers(client))
    assert built.status_code == 200, built.text
    assert "duplex-game-a4.pdf" in built.json()["files"]
    assert client.get("/download/duplex-game-a4.pdf").content.startswith(b"%PDF")
    stolen = client.get("/download/duplex-game-a4.pdf", headers={"Host": f"attacker.example:{PORT}"})
    assert stolen.status_code == 400 and b"%PDF" not in stolen.content


ATTACKS = {
    # a "simple" request any web page can send without a preflight: form or text/plain, another origin
    "text/plain from another page": ({"Origin": "http://attacker.example", "Content-Type": "text/plain"}, 403),
    "form post from another page": ({"Origin": "http://attacker.example",
                                     "Content-Type": "application/x-www-form-urlencoded"}, 403),
    "sandboxed page (Origin: null)": ({"Origin": "null", "Content-Type": "application/json", "token": True}, 403),
    "another origin with the token": ({"Origin": "http://attacker.example", "Content-Type": "application/json",
                                       "token": True}, 403),
    "another port of this computer": ({"Origin": "http://127.0.0.1:9999", "Content-Type": "application/json",
                                       "token": True}, 403),
    "https look-alike origin": ({"Origin": f"https://127.0.0.1:{PORT}", "Content-Type": "application/json",
                                 "token": True}, 403),
    "no Origin header": ({"Content-Type": "application/json", "token": True}, 403),
    "same origin, text/plain": ({"Origin": ORIGIN, "Content-Type": "text/plain", "token": True}, 415),
    "same origin, no content type": ({"Origin": ORIGIN, "token": True}, 415),
    "same origin, JSON, no token": ({"Origin": ORIGIN, "Content-Type": "application/json"}, 403),
    "same origin, JSON, wrong token": ({"Origin": ORIGIN, "Content-Type": "application/json", "token": "guess"}, 403),
    "same origin, JSON, empty token": ({"Origin": ORIGIN, "Content-Type": "application/json", "token": ""}, 403),
}


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_build_from_anywhere_but_the_page_is_refused_and_writes_nothing(client, tmp_path, attack):
    headers, status = ATTACKS[attack]
    headers = dict(headers)
    token = headers.pop("token", None)
    if token is not None:
        headers[TOKEN_HEADER] = client.guard.token if token is True else token
    response = client.post("/build", content=b'{"png": true, "tts": true, "print_shop": true}', headers=headers)
    assert response.status_code == status, response.text
    assert not (tmp_path / "out").exists(), "a refused build must write nothing"


def test_the_page_carries_a_token_of_its_own(client, tmp_path):
    html = client.get("/").text
    token = re.search(r'<meta name="spellpress-token" content="([^"]+)">', html).group(1)
    assert token == client.guard.token and len(token) >= 32
    other = Guard.for_address("127.0.0.1", PORT)
    assert other.token != token


def test_a_server_on_every_address_takes_typed_ips_but_not_names():
    guard = Guard.for_address("0.0.0.0", 8000)
    assert guard.host_allowed("192.168.1.5:8000") and guard.host_allowed("[fe80::1]:8000")
    assert not guard.host_allowed("attacker.example:8000") and not guard.host_allowed("192.168.1.5:8001")
    assert Guard.for_address("0.0.0.0", 80).host_allowed("10.0.0.2")  # the browser leaves out port 80
    named = Guard.for_address("192.168.1.5", 8000, names=["mybox.lan"])
    assert named.host_allowed("mybox.lan:8000") and named.host_allowed("MyBox.lan.:8000")
    assert not named.host_allowed("10.0.0.2:8000")


def test_a_websocket_needs_the_page_origin():
    """For servers that add a WebSocket (the guard is shared): a foreign Origin never connects."""

    async def echo(websocket):
        await websocket.accept()
        await websocket.send_text("hello")
        await websocket.close()

    guard = Guard.for_address("127.0.0.1", PORT)
    app = guard.wrap(Starlette(routes=[WebSocketRoute("/ws", echo)]))
    with TestClient(app, base_url=ORIGIN) as client:
        with client.websocket_connect(f"ws://127.0.0.1:{PORT}/ws", headers={"Origin": ORIGIN}) as socket:
            assert socket.receive_text() == "hello"
        for origin in ("http://attacker.example", None):
            with pytest.raises(WebSocketDisconnect):
                headers = {"Origin": origin} if origin else {}
                with client.websocket_connect(f"ws://127.0.0.1:{PORT}/ws", headers=headers) as socket:
                    socket.receive_text()


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.0.2", "127.255.0.9", "::1", "localhost"])
def test_no_warning_for_any_loopback_address(address, tmp_path):
    assert exposure_warning(address, tmp_path) is None


@pytest.mark.parametrize("address", ["0.0.0.0", "::", "192.168.1.5"])
def test_the_warning_says_what_other_computers_can_do(address, tmp_path):
    warning = exposure_warning(address, tmp_path / "out")
    assert "beyond this computer" in warning
    assert "see every card" in warning and "start builds" in warning and "download" in warning
    assert str(tmp_path / "out") in warning


@pytest.mark.slow
def test_serve_on_another_loopback_address_is_quiet_and_guarded(tmp_path):
    game = tmp_path / "toy-game"
    shutil.copytree(FIXTURES / "toy-game", game)
    process = subprocess.Popen([sys.executable, "-m", "spellpress", "serve", str(game), "--host", "127.0.0.2",
                                "--port", "0", "--out", str(tmp_path / "out")],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = process.stdout.readline()
        port = int(re.search(r"http://127\.0\.0\.2:(\d+)/", first).group(1))

        def status(host: str) -> int:
            connection = http.client.HTTPConnection("127.0.0.2", port, timeout=30)
            connection.request("GET", "/", headers={"Host": host})
            return connection.getresponse().status

        assert status(f"127.0.0.2:{port}") == 200
        assert status(f"localhost:{port}") == 200
        assert status(f"attacker.example:{port}") == 400
    finally:
        process.terminate()
        rest = process.communicate(timeout=20)[0]
    assert "warning" not in first + rest, first + rest
