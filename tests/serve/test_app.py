"""The preview's routes without a browser: what it serves, what it refuses, what it redraws."""

from __future__ import annotations

import re
import shutil

import pytest
from starlette.testclient import TestClient

from spellpress.build import BuildOptions
from spellpress.serve.app import create_app
from spellpress.serve.guard import TOKEN_HEADER, Guard
from spellpress.serve.preview import Preview
from tests.conftest import FIXTURES

PORT = 8765
ORIGIN = f"http://127.0.0.1:{PORT}"


def guarded_client(preview, out) -> TestClient:
    """A client on the address the guard allows, sending the page's token with every POST."""
    guard = Guard.for_address("127.0.0.1", PORT)
    client = TestClient(create_app(preview, out, guard, watching=False), base_url=ORIGIN)
    client.guard = guard
    return client


def post_build(client, wanted: dict):
    return client.post("/build", json=wanted, headers={"Origin": ORIGIN, TOKEN_HEADER: client.guard.token})


def copied(tmp_path, name: str) -> Preview:
    game = tmp_path / name
    shutil.copytree(FIXTURES / name, game)
    preview = Preview(game, BuildOptions(out=tmp_path / "out"))
    assert preview.refresh()
    return preview


@pytest.fixture
def preview(tmp_path):
    return copied(tmp_path, "duplex-game")


@pytest.fixture
def client(preview, tmp_path):
    with guarded_client(preview, tmp_path / "out") as client:
        yield client


def face_urls(html: str) -> list[str]:
    return re.findall(r'src="(/face/[0-9a-f]{32}\.png)"', html)


def test_page_lists_every_card_and_each_shared_back_once(client, preview):
    html = client.get("/").text
    components = preview.state.snapshot.game.components
    cards = sum(len(c.cards) for c in components)
    assert html.count('<figure class="card" id=') == cards
    fronts = re.findall(r'<img class="face front" src="(/face/[0-9a-f]{32}\.png)"', html)
    backs = re.findall(r'<img class="face back" src="(/face/[0-9a-f]{32}\.png)"', html)
    assert len(fronts) == cards
    assert len(backs) == len(components)  # both components share one back: shown once each, not beside every card
    assert html.count('<figure class="card shared-back">') == len(components)
    # the slider scales each face from its actual height (trim + bleed) in CSS millimetres
    heights = re.findall(r'class="grid" style="--face-h:([\d.]+)mm"', html)
    assert [float(h) for h in heights] == [c.size[1] + 6 for c in components]
    assert 'id="zoom"' in html and 'max="1"' in html
    response = client.get(fronts[0])
    assert response.headers["content-type"] == "image/png" and response.content.startswith(b"\x89PNG")
    full = client.get(fronts[0] + "?dpi=300")
    assert full.content.startswith(b"\x89PNG") and len(full.content) > len(response.content)


@pytest.mark.parametrize("path", [
    "/face/../../../etc/passwd", "/face/..%2F..%2Fgame.yaml", "/face/%2e%2e/game.yaml.png", "/static/../preview.py",
    "/static/..%2Fpreview.py", "/static/%2e%2e%2fapp.py", "/download/../../game.yaml", "/download/%2e%2e/%2e%2e/etc/passwd",
    "/download//etc/passwd", "/sheet/../1.png", "/face/" + "0" * 32 + ".png", "/face/abc.png?dpi=72",
    "/card/../../game.yaml", "/fragment/../../etc/passwd",
])
def test_no_url_reaches_a_file_outside_what_the_page_shows(client, path):
    response = client.get(path)
    assert response.status_code == 404, path
    assert b"Duplex Test" not in response.content or path.startswith(("/card", "/fragment"))
    assert b"root:" not in response.content and b"players" not in response.content


def test_an_edit_redraws_only_the_changed_face(tmp_path):
    preview = copied(tmp_path, "toy-game")
    with guarded_client(preview, tmp_path / "out") as client:
        before = face_urls(client.get("/").text)
        for url in before:
            client.get(url)
        drawn = preview.renders
        assert drawn == len(before) == 4
        cards = preview.folder / "numbers.yaml"
        cards.write_text(cards.read_text().replace('"Worth 5."', '"Worth five."'))
        assert preview.refresh()
        after = face_urls(client.get("/").text)
        for url in after:
            assert client.get(url).status_code == 200
        assert [a == b for a, b in zip(before, after, strict=False)] == [True, True, False, True]
        assert preview.renders == drawn + 1
        assert not preview.refresh()  # nothing changed since


def test_errors_show_while_the_last_good_cards_stay_and_a_fix_clears_them(client, preview):
    good = client.get("/fragment").json()
    game = preview.folder / "game.yaml"
    text = game.read_text()
    game.write_text(text.replace("backs: duplex-long}", "backs: sideways}"))
    assert preview.refresh()
    broken = client.get("/fragment").json()
    assert re.search(r"game\.yaml:\d+:\d+: ", broken["errors"])
    assert broken["content"] == good["content"]
    game.write_text("name: [unclosed\n")
    preview.refresh()
    assert "game.yaml:2:1: YAML syntax error" in client.get("/fragment").json()["errors"]
    game.unlink()
    preview.refresh()
    assert "file not found" in client.get("/").text
    game.write_text(text)
    assert preview.refresh()
    fixed = client.get("/fragment").json()
    assert "hidden" in fixed["errors"] and fixed["content"] == good["content"]


def test_build_links_download_only_what_was_built(client, tmp_path):
    assert client.get("/download/duplex-game-a4.pdf").status_code == 404
    result = post_build(client, {"png": True}).json()
    assert "duplex-game-a4.pdf" in result["files"] and any(f.startswith("png/") for f in result["files"])
    pdf = client.get("/download/duplex-game-a4.pdf")
    assert pdf.content.startswith(b"%PDF") and "attachment" in pdf.headers["content-disposition"]
    assert client.get("/download/png%2F..%2Fduplex-game-a4.pdf").status_code == 404


def test_sheets_view_shows_every_imposed_page(client, preview):
    html = client.get("/sheets").text
    sheets = re.findall(r'src="(/sheet/[0-9a-f]{16}/\d+\.png)"', html)
    assert len(sheets) == len(preview.state.snapshot.pages)
    assert client.get(sheets[-1]).content.startswith(b"\x89PNG")
    assert client.get(sheets[0].replace("/1.png", f"/{len(sheets) + 1}.png")).status_code == 404


def test_card_view_steps_through_cards_and_lists_fields_with_their_source(client, preview):
    laid = preview.state.snapshot.laid
    first, second = laid[0], laid[1]
    html = client.get(f"/card/{first.component.id}/{first.card.id}").text
    assert re.search(r'<a class="step" rel="next" href="/card/cards/' + second.card.id + '"', html)
    assert 'rel="prev"' not in html and f"1 of {len(laid)}" in html
    middle = client.get(f"/card/{second.component.id}/{second.card.id}").text
    assert f'rel="prev" href="/card/cards/{first.card.id}"' in middle
    last = laid[-1]
    assert 'rel="next"' not in client.get(f"/card/{last.component.id}/{last.card.id}").text
    # the fields and the line of cards.yaml each card comes from
    lines = (preview.folder / "cards.yaml").read_text().splitlines()
    assert re.search(rf"from <code>[^<]*cards\.yaml:{lines.index('  - {n: 2, count: 4}') + 1}:\d+</code>", middle)
    assert "<tr><th>n</th><td>2</td></tr>" in middle
    assert "Back fields" not in middle  # the back is shared: no field of this card is on it
    # overlays: bleed band as wide as the bleed, trim inset by the bleed, safe zone inset by bleed + safe
    safe = preview.state.snapshot.game.spec.print.safe
    w, h = second.component.size
    assert 'class="overlay bleed-band" style="border-width:3mm"' in middle
    assert f'class="overlay trim" style="left:3mm;top:3mm;width:{w:g}mm;height:{h:g}mm"' in middle
    assert (f'class="overlay safe" style="left:{3 + safe:g}mm;top:{3 + safe:g}mm;'
            f'width:{w - 2 * safe:g}mm;height:{h - 2 * safe:g}mm"') in middle
    assert 'id="overlays"' in middle


def test_card_view_names_a_spreadsheet_row_as_such(tmp_path):
    from spellpress.errors import Location
    from spellpress.load.spreadsheet import CellLocation
    from spellpress.serve.page import source_of

    assert source_of(CellLocation(tmp_path / "spells.csv", 7, 2)).endswith("spells.csv, spreadsheet row 7")
    assert source_of(Location(tmp_path / "cards.yaml", 4, 5)).endswith("cards.yaml:4:5")


def test_an_error_is_marked_on_its_card_and_links_to_it(tmp_path):
    preview = copied(tmp_path, "toy-game")
    with guarded_client(preview, tmp_path / "out") as client:
        five = next(f for f in preview.state.snapshot.laid if f.card["title"] == "Five")
        cards = preview.folder / "numbers.yaml"
        cards.write_text(cards.read_text().replace('"Worth 5."', '"' + "Worth five, " * 400 + '"'))
        assert preview.refresh()
        parts = client.get("/fragment").json()
        link = f'<a class="to-card" href="/card/numbers/{five.card.id}">{five.card.id}</a>'
        assert parts["errors"].count('class="to-card"') == 1 and link in parts["errors"], parts["errors"]
        assert "does not fit" in parts["errors"]
        marked = re.findall(r'<figure class="card has-error" id="card-numbers-([^"]+)"', parts["content"])
        assert marked == [five.card.id]
        assert parts["content"].count('class="mark"') == 1
        detail = client.get(f"/card/numbers/{five.card.id}").text
        assert re.search(r'<ul class="card-errors" role="alert"><li><code>[^<]*does not fit', detail)
        other = preview.state.snapshot.laid[0]
        assert "card-errors" not in client.get(f"/card/numbers/{other.card.id}").text


def test_build_takes_paper_backs_and_marks_from_the_page_and_zips_what_it_wrote(client, tmp_path):
    import io
    import zipfile

    import pypdfium2

    assert client.get("/build.zip").status_code == 404  # nothing built yet
    html = client.get("/").text
    for name, value in (("paper", "letter"), ("backs", "fold"), ("marks", "lines")):
        assert re.search(rf'<select name="{name}"[^>]*><option value="">game\'s</option>.*<option value="{value}">', html)
    result = post_build(client, {"paper": "letter", "backs": "none", "marks": "none"}).json()
    assert "duplex-game-letter.pdf" in result["files"] and result["zip"] == "/build.zip"
    pdf = pypdfium2.PdfDocument(client.get("/download/duplex-game-letter.pdf").content)
    assert [round(x) for x in pdf[0].get_size()] == [612, 792]  # US letter in points, not the game's A4
    a4 = post_build(client, {"paper": "", "backs": "none"}).json()  # blank: the game's own paper
    assert "duplex-game-a4.pdf" in a4["files"]
    response = client.get("/build.zip")
    assert response.headers["content-type"] == "application/zip"
    assert 'filename="duplex-game.zip"' in response.headers["content-disposition"]
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert sorted(archive.namelist()) == sorted(a4["files"])
    assert archive.read("duplex-game-a4.pdf") == (tmp_path / "out" / "duplex-game" / "duplex-game-a4.pdf").read_bytes()
    refused = post_build(client, {"paper": "a5"})
    assert refused.status_code == 400 and "unknown paper 'a5'" in refused.json()["errors"][0]
    assert post_build(client, {"marks": 3}).status_code == 400


def test_an_error_on_a_shared_back_is_marked_on_it_and_links_to_its_component(client, preview):
    template = preview.folder / "templates" / "marker-back.yaml"
    template.write_text(template.read_text().replace("{{ card_width - 9 }}", "{{ card_width - nine }}"))
    assert preview.refresh()
    parts = client.get("/fragment").json()
    links = re.findall(r'<a class="to-card" href="([^"]+)">', parts["errors"])
    assert sorted(links) == ["/#component-cards", "/#component-tiles"], parts["errors"]
    assert parts["content"].count('<figure class="card shared-back has-error">') == 2
    assert '<figure class="card has-error"' not in parts["content"]  # the fronts are fine


def test_design_warnings_are_marked_on_their_cards(tmp_path):
    preview = copied(tmp_path, "design-game")
    with guarded_client(preview, tmp_path / "out") as client:
        content = client.get("/fragment").json()["content"]
        warned = sorted(re.findall(r'<figure class="card has-warning" id="card-cards-([^"]+)"', content))
        assert warned == ["border", "contrast", "edge", "overlap", "shop-sliver", "shrunk", "sliver", "small", "turned"]
        assert content.count('class="mark warn"') == 9
        detail = client.get("/card/cards/overlap").text
        assert re.search(r"<ul class=\"card-warnings\"><li><code>[^<]*draws its icon over the text of box", detail)
        assert "card-warnings" not in client.get("/card/cards/clean").text


def test_a_card_whose_id_holds_a_slash_or_a_space_has_its_own_page(tmp_path):
    preview = copied(tmp_path, "toy-game")
    cards = preview.folder / "numbers.yaml"
    cards.write_text(cards.read_text().replace("{title: Five,", '{id: "5/five up", title: Five,'))
    assert preview.refresh()
    with guarded_client(preview, tmp_path / "out") as client:
        html = client.get("/").text
        assert 'href="/card/numbers/5%2Ffive%20up"' in html
        for url in ("/card/numbers/5%2Ffive%20up", "/fragment/card/numbers/5%2Ffive%20up"):
            response = client.get(url)
            assert response.status_code == 200, url
            assert "Worth 5." in response.text
        assert client.get("/card/numbers/5/five%20up").status_code == 404
