"""The web kit on its own: pages autoescape what they are given, static files come from a table only."""

from __future__ import annotations

import pytest
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from spellpress.web.pages import Pages
from spellpress.web.static import StaticFiles


def test_a_value_put_into_a_page_is_text_not_markup(tmp_path):
    (tmp_path / "card.html").write_text("<p>{{ name }}</p><p>{{ size | g }}</p>")
    html = Pages(tmp_path).render("card.html", name="<script>alert(1)</script>", size=63.0)
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<p>63</p>" in html


def test_a_name_the_template_uses_and_the_app_forgot_is_an_error(tmp_path):
    (tmp_path / "card.html").write_text("<p>{{ forgotten }}</p>")
    with pytest.raises(Exception, match="forgotten"):
        Pages(tmp_path).render("card.html")


def test_the_shared_document_is_found_after_the_apps_own_folder(tmp_path):
    (tmp_path / "document.html").write_text("mine")
    assert Pages(tmp_path).render("document.html") == "mine"


def test_static_files_are_served_only_from_the_table(tmp_path):
    (tmp_path / "app.js").write_text("console.log(1)")
    (tmp_path / "secret.txt").write_text("not for the page")
    static = StaticFiles(tmp_path, {"app.js": "text/javascript"})
    client = TestClient(Starlette(routes=[Route("/static/{name}", static.serve)]))
    shown = client.get("/static/app.js")
    assert shown.status_code == 200 and shown.text == "console.log(1)"
    assert shown.headers["content-type"].startswith("text/javascript")
    assert client.get("/static/secret.txt").status_code == 404
    assert client.get("/static/..%2Fsecret.txt").status_code == 404
