"""A Google Sheet as a card source: pull into a snapshot, check and build from it offline, and every
failure of the fetch an exit 2 with its message (tests/load/google_stand_in.py answers as Google does)."""

from __future__ import annotations

import json
import re

import pytest

from spellpress.cli import main
from spellpress.load import google_fetch
from spellpress.load.game import load_game
from spellpress.load.google_sheet import parse_link
from tests.conftest import ROOT
from tests.load import google_stand_in as google

RUMMY = ROOT / "cards" / "word-rummy"
LETTERS = "id,letter,points,count\na,A,2,20\nn,N,1,25\nq,Q,10,1\n"  # 46 cards: Word Rummy's rules need that many


@pytest.fixture
def stand_in(monkeypatch):
    server = google.StandIn()
    server.tabs["7"] = LETTERS.encode()
    monkeypatch.setenv(google_fetch.BASE_VARIABLE, server.base)
    yield server
    server.close()


def linked(game_copy, sheet: str = google.SHEET, gid: str = "7"):
    folder = game_copy(RUMMY)
    component = folder / "letters.yaml"
    link = f"https://docs.google.com/spreadsheets/d/{sheet}/edit#gid={gid}"
    component.write_text(component.read_text().replace("cards_from: letters.csv", f"cards_from: {link}"))
    (folder / "letters.csv").unlink()
    return folder


def cards_of(folder):
    return [(c.id, c.fields["letter"], c.fields["points"], c.count) for c in load_game(folder).component("letters").cards]


def test_links_name_their_spreadsheet_and_tab():
    link = parse_link("https://docs.google.com/spreadsheets/d/1AbC_dEf-123456789/edit#gid=1234567")
    assert (link.spreadsheet, link.gid) == ("1AbC_dEf-123456789", "1234567")
    assert parse_link("https://docs.google.com/spreadsheets/d/1AbC_dEf-123456789/edit?usp=sharing").gid == "0"
    assert parse_link("https://docs.google.com/spreadsheets/d/1AbC_dEf-123456789/edit?gid=5#gid=5").gid == "5"
    assert link.cell_link(14, 3).endswith("/d/1AbC_dEf-123456789/edit#gid=1234567&range=C14")
    for wrong in ("https://example.com/spreadsheets/d/1AbC_dEf-123456789/edit", "http://docs.google.com/spreadsheets/d/x"):
        with pytest.raises(ValueError, match="not a Google Sheets link"):
            parse_link(wrong)


@pytest.mark.slow
def test_pull_then_build_offline_then_a_changed_sheet_changes_the_cards(stand_in, game_copy, tmp_path, capsys,
                                                                        monkeypatch):
    folder = linked(game_copy)
    assert main(["pull", str(folder)]) == 0
    assert "tab 'Letters', 3 rows (changed)" in capsys.readouterr().out
    snapshot = folder / "letters.sheet.csv"
    assert snapshot.read_bytes() == LETTERS.encode()
    described = json.loads((folder / "letters.sheet.json").read_text())
    assert described["link"].endswith(f"/d/{google.SHEET}/edit#gid=7")
    assert (described["spreadsheet"], described["gid"], described["tab"]) == (google.SHEET, "7", "Letters")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", described["fetched"])
    assert described["sha256"].startswith("sha256:") and described["bytes"] == len(LETTERS)

    asked = len(stand_in.requests)
    monkeypatch.setenv(google_fetch.BASE_VARIABLE, "http://127.0.0.1:9")  # nothing there: a fetch would fail
    assert main(["check", str(folder)]) == 0
    assert main(["build", str(folder), "--out", str(tmp_path / "out")]) == 0
    assert len(stand_in.requests) == asked  # check and build never went to the network
    assert cards_of(folder) == [("a", "A", 2, 20), ("n", "N", 1, 25), ("q", "Q", 10, 1)]

    monkeypatch.setenv(google_fetch.BASE_VARIABLE, stand_in.base)
    assert main(["pull", str(folder)]) == 0
    assert "(unchanged)" in capsys.readouterr().out
    stand_in.tabs["7"] = (LETTERS + "z,Z,10,2\n").encode()
    assert main(["pull", str(folder)]) == 0
    assert "4 rows (changed)" in capsys.readouterr().out
    assert cards_of(folder)[-1] == ("z", "Z", 10, 2)


def test_a_link_without_a_snapshot_says_to_pull(game_copy, capsys):
    folder = linked(game_copy)
    assert main(["check", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "letters.yaml:" in err and "has no snapshot here yet (letters.sheet.csv): run 'spellpress pull'" in err


def test_a_mistake_in_the_sheet_names_the_tab_the_cell_and_links_to_it(stand_in, game_copy, capsys):
    stand_in.tabs["7"] = b"id,letter,points,count\na,A,2,9\nq,Q,ten,1\n"
    folder = linked(game_copy)
    assert main(["pull", str(folder)]) == 0
    assert main(["check", str(folder)]) == 2
    err = capsys.readouterr().err
    link = f"https://docs.google.com/spreadsheets/d/{google.SHEET}/edit#gid=7&range=C3"
    assert f"letters.sheet.csv:3:C (tab 'Letters', cell C3: {link}): points must be a whole number, got 'ten'" in err


def test_a_snapshot_edited_by_hand_is_refused(stand_in, game_copy, capsys):
    folder = linked(game_copy)
    assert main(["pull", str(folder)]) == 0
    (folder / "letters.sheet.csv").write_text(LETTERS.replace("10", "1"))
    assert main(["build", str(folder), "--out", str(folder.parent / "out")]) == 2
    assert "edited since it was pulled" in capsys.readouterr().err


FAILURES = [
    (google.PRIVATE, "the sheet is private (Google answered with its sign-in page)"),
    (google.SIGN_IN_PAGE, "the sheet is private (Google answered with its sign-in page)"),
    (google.MISSING, "Google has no such spreadsheet or tab (404 Not Found)"),
    (google.HUGE, "the answer is larger than"),
    (google.SLOW, "Google did not answer within 0.5 s"),
    (google.ELSEWHERE, "redirected to 192.0.2.1, which is not Google's export: refused"),
]


@pytest.mark.parametrize("sheet, message", FAILURES, ids=[sheet for sheet, _ in FAILURES])
def test_each_failed_fetch_is_exit_2_with_its_message_and_writes_nothing(stand_in, game_copy, capsys, monkeypatch,
                                                                         sheet, message):
    monkeypatch.setattr(google_fetch, "TIMEOUT_S", 0.5)
    monkeypatch.setattr(google_fetch, "MAX_BYTES", 100_000)
    stand_in.slow_seconds = 1.5
    folder = linked(game_copy, sheet)
    assert main(["pull", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "letters.yaml:" in err and message in err, err
    assert "Traceback" not in err
    assert not (folder / "letters.sheet.csv").exists() and not (folder / "letters.sheet.json").exists()


def test_the_test_base_address_must_be_loopback(game_copy, capsys, monkeypatch):
    monkeypatch.setenv(google_fetch.BASE_VARIABLE, "http://example.com")
    folder = linked(game_copy)
    assert main(["pull", str(folder)]) == 2
    assert "is for Spellpress's tests only and must be a loopback address" in capsys.readouterr().err


def test_only_https_to_googles_hosts_when_not_testing():
    base = google_fetch.GOOGLE_BASE
    assert google_fetch._allowed("https://docs.google.com/spreadsheets/d/x/export", base)
    assert google_fetch._allowed("https://doc-0k-9s-sheets.googleusercontent.com/export/x", base)
    for refused in ("http://docs.google.com/x", "https://docs.google.com.evil.example/x", "https://evil.example/x",
                    "https://googleusercontent.com.evil.example/x", "https://docs.google.com:8443/x"):
        assert not google_fetch._allowed(refused, base), refused


def test_serve_pull_every_rebuilds_a_changed_sheet_and_the_page_says_when(stand_in, game_copy, capsys):
    import asyncio

    from spellpress.serve import page
    from spellpress.serve.app import Hub, poll_sheets
    from spellpress.serve.preview import Preview

    folder = linked(game_copy)
    assert main(["pull", str(folder)]) == 0
    preview = Preview(folder)
    preview.refresh()
    assert preview.state.note == "" and preview.state.snapshot is not None
    stand_in.tabs["7"] = (LETTERS + "z,Z,10,2\n").encode()

    async def poll_until_noted():
        stop = asyncio.Event()
        task = asyncio.create_task(poll_sheets(preview, Hub(), 0.05, stop))
        for _ in range(200):
            await asyncio.sleep(0.02)
            if preview.state.note:
                break
        stop.set()
        await task

    asyncio.run(poll_until_noted())
    assert re.fullmatch(r"Google Sheet changed at \d\d:\d\d:\d\d UTC \(tab 'Letters'\)", preview.state.note)
    assert preview.state.note in page.counts_line(preview.state) and preview.state.note in capsys.readouterr().out
    snapshot = preview.state.snapshot
    assert snapshot is not None and "z" in [f.card.id for f in snapshot.laid if f.component.id == "letters"]


def test_a_link_in_the_long_form_pulls_and_a_sheet_name_beside_it_is_refused(stand_in, game_copy, capsys):
    folder = linked(game_copy)
    component = folder / "letters.yaml"
    text = component.read_text()
    link = f"https://docs.google.com/spreadsheets/d/{google.SHEET}/edit#gid=7"
    component.write_text(text.replace(f"cards_from: {link}", f"cards_from: {{file: '{link}', separator: ';'}}"))
    assert main(["pull", str(folder)]) == 0
    assert [c[0] for c in cards_of(folder)] == ["a", "n", "q"]
    component.write_text(text.replace(f"cards_from: {link}", f"cards_from: {{file: '{link}', sheet: Letters}}"))
    assert main(["check", str(folder)]) == 2
    assert "a Google Sheets link names its tab itself (#gid=...): remove sheet:" in capsys.readouterr().err
