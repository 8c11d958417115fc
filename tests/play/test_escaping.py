"""The game's name is text in the table's pages, never markup (autoescaped templates). Seat labels are
the fixed kinds of --seats, and everything else the page shows comes as JSON, put in by script as text."""

from __future__ import annotations

import re
import shutil

import pytest
from starlette.testclient import TestClient

from spellpress.load.game import load_game
from spellpress.play.app import create_app
from spellpress.play.seats import seat_keys
from spellpress.play.table import SeatSpec, Table
from spellpress.rules.plugins import rules_for
from spellpress.serve.guard import Guard
from spellpress.serve.preview import Preview
from tests.conftest import ROOT

ATTACK = "<script>alert('name')</script>"
SHOWN = "&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;"
OWN_SCRIPT = '<script src="/static/play.js" defer></script>'


@pytest.mark.slow
def test_a_script_in_the_games_name_is_shown_as_text(tmp_path):
    folder = tmp_path / "hostile"
    shutil.copytree(ROOT / "cards" / "word-rummy", folder)
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(re.sub(r"^name: .*$", f'name: "{ATTACK}"', game_yaml.read_text(), count=1, flags=re.M))
    game = load_game(folder)
    assert game.name == ATTACK
    preview = Preview(folder)
    preview.refresh()
    pages = []
    for seats in (["human", "heuristic"], ["remote", "heuristic"]):
        table = Table(game, rules_for(game), [SeatSpec(s) for s in seats], seed=1, records=tmp_path / "records")
        keys = seat_keys(table)
        client = TestClient(create_app(table, preview, Guard.for_address("127.0.0.1", 8766), keys=keys),
                            base_url="http://127.0.0.1:8766")
        pages.append(client.get("/").text)  # the table, or the host's list of seats when every person is remote
        pages += [client.get(f"/seat/{key}").text for key in keys]
    assert len(pages) == 3 and "Every person plays by their seat's link." in pages[1]
    for html in pages:
        assert SHOWN in html and re.findall(r"<script[^>]*>", html.replace(OWN_SCRIPT, "")) == [], html
