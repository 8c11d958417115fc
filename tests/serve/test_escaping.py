"""Names and messages from a game's files are text in the preview's HTML, never markup (autoescaped templates)."""

from __future__ import annotations

import re
import shutil
from urllib.parse import quote

import pytest
from starlette.testclient import TestClient

from spellpress.build import BuildOptions
from spellpress.serve.app import create_app
from spellpress.serve.guard import Guard
from spellpress.serve.preview import Preview
from tests.conftest import FIXTURES

ATTACK = "<script>alert('{}')</script>"
CARD_ID = "<script>alert('id')"  # no slash: a card's URL names it in one path segment
OWN_SCRIPT = '<script src="/static/preview.js" defer></script>'


def hostile_game(tmp_path):
    """The toy game with a script as its name, its component's name, a card's id and a card's field."""
    game = tmp_path / "hostile"
    shutil.copytree(FIXTURES / "toy-game", game)
    game_yaml = game / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("name: Toy Draw", f'name: "{ATTACK.format("game")}"'))
    cards = game / "numbers.yaml"
    cards.write_text(cards.read_text()
                     .replace("name: Number cards", f'name: "{ATTACK.format("component")}"')
                     .replace("{title: One,", f'{{id: "{CARD_ID}", title: "{ATTACK.format("field")}",'))
    return game


def only_own_script(html: str) -> None:
    assert re.findall(r"<script[^>]*>", html.replace(OWN_SCRIPT, "")) == [], html


@pytest.mark.slow
def test_a_script_in_a_games_names_and_fields_is_shown_as_text(tmp_path):
    preview = Preview(hostile_game(tmp_path), BuildOptions(out=tmp_path / "out"))
    assert preview.refresh()
    with TestClient(create_app(preview, tmp_path / "out", Guard.for_address("127.0.0.1", 8765), watching=False),
                    base_url="http://127.0.0.1:8765") as client:
        cards = client.get("/").text
        answer = client.get(f"/card/numbers/{quote(CARD_ID, safe='')}")
        assert answer.status_code == 200
        detail = answer.text
        for html in (cards, detail, client.get("/sheets").text):
            only_own_script(html)
            assert "&lt;script&gt;alert(&#39;game&#39;)&lt;/script&gt;" in html  # the title and the header
        assert "&lt;script&gt;alert(&#39;component&#39;)&lt;/script&gt;" in cards
        assert cards.count("&lt;script&gt;alert(&#39;id&#39;)") == 4  # figure id, data-card, alt text, caption
        assert "&lt;script&gt;alert(&#39;field&#39;)&lt;/script&gt;" in detail
        # a definition error quoting the script: the errors panel and the card's mark show it as text
        numbers = preview.folder / "numbers.yaml"
        numbers.write_text(numbers.read_text().replace("value: 1,", f'value: "{ATTACK.format("error")}",'))
        assert preview.refresh()
        parts = client.get("/fragment").json()
        assert "alert(&#39;error&#39;)" in parts["errors"]
        for html in (parts["errors"], parts["content"], client.get("/").text):
            only_own_script(html)
