"""Cards from a spreadsheet (CSV, XLSX, ODS): typed by the fields, mistakes at row and column letter."""

from __future__ import annotations

import shutil

import pytest

from spellpress.cli import main
from spellpress.load.game import load_game
from spellpress.load.spreadsheet import column_letter
from tests.conftest import ROOT
from tests.load.workbooks import write_ods, write_xlsx

RUMMY = ROOT / "cards" / "word-rummy"

ROWS = [["letter", "points", "count"], ["N", 1, 12], ["Q", 10, 1], ["Z", 10, 2]]


def test_the_shipped_spreadsheet_deck_prints_the_same_bytes_as_its_yaml_twin(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the twin's files are newer: the same date for both
    twin = tmp_path / "twin" / "word-rummy"
    shutil.copytree(RUMMY, twin)
    component = twin / "letters.yaml"
    rows = (twin / "letters.csv").read_text().splitlines()[1:]
    cards = "".join(f"  - {{id: {i}, letter: \"{letter}\", points: {p}, count: {c}}}\n" for i, letter, p,
                    c in (row.split(",") for row in rows))
    component.write_text(component.read_text().replace("cards_from: letters.csv\n", "cards:\n" + cards))
    (twin / "letters.csv").unlink()
    assert main(["build", str(RUMMY), "--no-cache", "--out", str(tmp_path / "sheet")]) == 0
    assert main(["build", str(twin), "--no-cache", "--out", str(tmp_path / "yaml")]) == 0
    capsys.readouterr()
    pdf = "word-rummy/word-rummy-a4.pdf"
    assert (tmp_path / "sheet" / pdf).read_bytes() == (tmp_path / "yaml" / pdf).read_bytes()
    # and the rules and the letter analysis read the same cards
    spreadsheet_cards = [(c.id, dict(c.fields), c.count) for c in load_game(RUMMY).component("letters").cards]
    yaml_cards = [(c.id, dict(c.fields), c.count) for c in load_game(twin).component("letters").cards]
    assert spreadsheet_cards == yaml_cards and len(spreadsheet_cards) == 30


def fed_from(game_copy, name: str):
    folder = game_copy(RUMMY)
    component = folder / "letters.yaml"
    component.write_text(component.read_text().replace("cards_from: letters.csv", f"cards_from: {name}"))
    return folder


def cards_of(folder):
    return [(c.id, dict(c.fields), c.count) for c in load_game(folder).component("letters").cards]


@pytest.mark.parametrize("writer, suffix", [(write_xlsx, "xlsx"), (write_ods, "ods")])
def test_a_workbook_sheet_by_name_gives_typed_cards(game_copy, writer, suffix):
    folder = fed_from(game_copy, f"{{file: deck.{suffix}, sheet: Deck}}")
    writer(folder / f"deck.{suffix}", {"Notes": [["anything"]], "Deck": ROWS})
    cards = cards_of(folder)
    assert cards == [("letters-001", {"letter": "N", "points": 1}, 12), ("letters-002", {"letter": "Q", "points": 10}, 1),
                     ("letters-003", {"letter": "Z", "points": 10}, 2)]
    assert all(type(fields["points"]) is int for _, fields, _ in cards)  # 10.0 in the workbook


def test_a_google_sheets_csv_export_works_as_it_is(game_copy):
    folder = fed_from(game_copy, "export.csv")
    # a BOM, trailing empty columns and rows, ids given, a count left empty (1)
    (folder / "export.csv").write_bytes("\ufeffid,letter,points,count,,\nn,N,1,12,,\nq,Q,10,,,\n,,,,,\n".encode())
    assert cards_of(folder) == [("n", {"letter": "N", "points": 1}, 12), ("q", {"letter": "Q", "points": 10}, 1)]


BAD = [
    ("letter,points,count\nN,1,12\nQ,x,1\n", "deck.csv:3:B: points must be a whole number, got 'x'"),
    ("letter,points,count\nN,1.5,12\n", "deck.csv:2:B: points must be a whole number, got '1.5'"),
    ("letter,points,count\nN,,12\n", "deck.csv:2:B: points must be a whole number, got an empty cell"),
    ("letter,points,count\nN,1,many\n", "deck.csv:2:C: count must be a whole number, got 'many'"),
    ("letter,points,count\nN,1,-1\n", "deck.csv:2:C: count must be a whole number, 0 (left out for now) or more, got -1"),
    ("letter,points,count\nN,1,5000\n", "deck.csv:2:C: count may be at most 1,000 copies of one card"),
    ("letter,pionts,count\nN,1,12\n", "deck.csv:1:B: unknown column 'pionts' (did you mean 'points'?)"),
    ("id,letter,points\na,N,1\na,R,1\n", "deck.csv:3:A: card id 'a' is already used by card 1 of this file"),
    ("letter,count\nN,12\n", "deck.csv:1:A: no column for the required field 'points': the first row names the columns"),
    # issue 31: _csv.Error "field larger than field limit" was a traceback
    ("letter,points,count\nN,1,12\n" + "Q," + "9" * 140_000 + ",1\n",
     "'deck.csv' cannot be read as CSV at line 3: a cell holds more than 131,072 characters"),
    ("letter,points,count,points\nN,1,12,5\n", "deck.csv:1:D: column 'points' is already column B; each column once"),
    ("letter,points,count\nN,1,12\nQ,\x00,1\n", "deck.csv:3:B: points must be a whole number, got '\\x00'"),
    # issue 43: the extra cells were dropped in silence
    ("letter,points,count\nN,1,12\nQ,10,1,Qu,x\nZ,10,2\n",
     "deck.csv:3:D: this row has 2 cells more than the header's 3 columns ('Qu', 'x'): name their columns in the "
     "first row, or remove them"),
    # issue 43: an unclosed quote swallowed every later row, then was 'got an empty cell'
    ("letter,points,count\nN,1,12\nQ,\"10,1\nZ,10,2\nX,8,1\n",
     "deck.csv:3:B: this quote is never closed: every line after it (to line 5) would be read into one cell; "
     "close it, or remove it"),
    # a quoted cell over two lines: the rows after it are named by their own line
    ("letter,points,count\n\"N\nM\",1,12\nQ,x,1\n", "deck.csv:4:B: points must be a whole number, got 'x'"),
]


@pytest.mark.parametrize("text, line", [
    ("letter,pionts,count\n" + "N,1,12\n" * 27, "deck.csv:1:B: unknown column 'pionts' (did you mean 'points'?)"),
    ("letter;points;count\nN;1;12\nQ;x;1\n", "deck.csv:3:B: points must be a whole number, got 'x'"),
    ("letter;pionts;count\n" + "N;1;12\n" * 55, "deck.csv:1:B: unknown column 'pionts' (did you mean 'points'?) "
                                                   "(read as semicolon-separated values)"),
])
def test_a_header_mistake_is_one_error_whatever_the_rows_or_separator(game_copy, tmp_path, capsys, monkeypatch, text, line):
    folder = fed_from(game_copy, "deck.csv")
    (folder / "deck.csv").write_text(text)
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and err[1] == "1 error; nothing written." and line in err[0], err


def test_a_semicolon_or_tab_separated_csv_reads_like_a_comma_one(game_copy):
    folder = fed_from(game_copy, "deck.csv")
    (folder / "deck.csv").write_text("letter;points;count\nN;1;12\n\"Q;U\";10;1\n")
    assert cards_of(folder)[1][1] == {"letter": "Q;U", "points": 10}
    (folder / "deck.csv").write_text("letter\tpoints\tcount\nN\t1\t12\n")
    assert cards_of(folder)[0][1:] == ({"letter": "N", "points": 1}, 12)


@pytest.mark.parametrize("text, words", BAD, ids=[w.split(": ", 1)[1][:30] for _, w in BAD])
def test_a_bad_cell_is_reported_at_its_row_and_column(game_copy, tmp_path, capsys, monkeypatch, text, words):
    folder = fed_from(game_copy, "deck.csv")
    (folder / "deck.csv").write_text(text)
    monkeypatch.chdir(tmp_path)
    assert main(["build", folder.name, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("value, words", [
    ("deck.csv", "spreadsheet 'deck.csv' does not exist"),
    ("../../outside.csv", "spreadsheet path '../../outside.csv' leaves the game folder"),
    ("notes.txt", "'notes.txt' is not a spreadsheet: expected .csv, .xlsx, .ods"),
    ("{file: deck.xlsx, sheet: Dekc}", "'deck.xlsx' has no sheet 'Dekc' (did you mean 'Deck'?)"),
    ("{file: broken.xlsx}", "'broken.xlsx' cannot be read as a workbook"),
    ("{file: cards.csv, sheet: Deck}", "'cards.csv' is a CSV file, which has no sheets: remove sheet: 'Deck'"),
])
def test_a_bad_spreadsheet_reference_is_an_error_at_its_key(game_copy, tmp_path, capsys, monkeypatch, value, words):
    folder = fed_from(game_copy, value)
    (folder / "notes.txt").write_text("hello\n")
    write_xlsx(folder / "deck.xlsx", {"Deck": ROWS})
    (folder / "cards.csv").write_text("letter,points,count\nN,1,12\n")
    (folder / "broken.xlsx").write_bytes(b"PK\x03\x04 not really a workbook")
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 2
    err = capsys.readouterr().err
    assert "letters.yaml:" in err and words in err and "Traceback" not in err


def test_a_list_field_is_split_at_the_separator_and_booleans_read_as_people_write_them(game_copy):
    folder = game_copy(RUMMY)
    component = folder / "letters.yaml"
    component.write_text(component.read_text()
                         .replace("fields: {letter: str, points: int}",
                                  "fields: {letter: str, points: int, tags: list, rare: bool, note: str?}")
                         .replace("cards_from: letters.csv", "cards_from: {file: deck.csv, separator: ';'}"))
    (folder / "deck.csv").write_text("letter,points,tags,rare,note\nN,1,a; b ;c,no,\nQ,10,,Yes,hard\n")
    cards = cards_of(folder)
    assert cards[0][1] == {"letter": "N", "points": 1, "tags": ("a", "b", "c"), "rare": False}
    assert cards[1][1] == {"letter": "Q", "points": 10, "tags": (), "rare": True, "note": "hard"}


def test_cards_and_cards_from_are_one_or_the_other(game_copy, tmp_path, capsys, monkeypatch):
    folder = game_copy(RUMMY)
    component = folder / "letters.yaml"
    component.write_text(component.read_text() + "cards:\n  - {letter: N, points: 1}\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 2
    assert "give the cards either as a list (cards:) or as a spreadsheet (cards_from:)" in capsys.readouterr().err


def test_column_letters():
    assert [column_letter(n) for n in (1, 2, 26, 27, 52, 703)] == ["A", "B", "Z", "AA", "AZ", "AAA"]


HUGE = "9x" * 50_000  # 100,000 characters: a CSV cell may hold 131,072


@pytest.mark.parametrize("text, words", [
    (f"letter,points,count\nN,{HUGE},12\n",
     f"deck.csv:2:B: points must be a whole number, got '{HUGE[:40]}...' (100,000 characters)"),
    (f"letter,points,count,{HUGE}\nN,1,12,a\n", f"deck.csv:1:D: unknown column '{HUGE[:40]}...' (100,000 characters)"),
    (f"id,letter,points\n{HUGE},N,1\n{HUGE},R,1\n",
     f"deck.csv:3:A: card id '{HUGE[:40]}...' (100,000 characters) is already used"),
], ids=["cell", "column-name", "card-id"])
def test_a_huge_value_is_shortened_in_its_message(game_copy, tmp_path, capsys, monkeypatch, text, words):
    """Issue 31: a 100,000-character cell was echoed whole (the terminal flooded)."""
    folder = fed_from(game_copy, "deck.csv")
    (folder / "deck.csv").write_text(text)
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err) < 600, err[:1000]


def test_a_huge_cell_of_a_workbook_is_shortened_too(game_copy, tmp_path, capsys, monkeypatch):
    folder = fed_from(game_copy, "{file: deck.xlsx, sheet: Deck}")
    write_xlsx(folder / "deck.xlsx", {"Deck": [ROWS[0], ["N", "z" * 32_767, 1]]})  # the most an Excel cell holds
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 2
    err = capsys.readouterr().err
    assert f"deck.xlsx:2:B: points must be a whole number, got '{'z' * 40}...' (32,767 characters)" in err
    assert len(err) < 600, err[:1000]


@pytest.mark.parametrize("text, cards", [
    ("letter,points,count\nN,1,12,,\n", [("N", 1, 12)]),  # a spreadsheet's empty trailing cells
    ("letter,points,count\n\"N\"\"\",1,12\nQ,10,1\n", [('N"', 1, 12), ("Q", 10, 1)]),  # a doubled quote in a quoted cell
    ("letter,points,count\nN\",1,12\nQ,10,1\n", [('N"', 1, 12), ("Q", 10, 1)]),  # a quote inside an unquoted cell is text
    ("letter,points,count\n\"N\nM\",1,12\n\"\",2,1\n", [("N\nM", 1, 12), ("", 2, 1)]),
])
def test_quotes_that_close_and_empty_trailing_cells_are_no_mistake(game_copy, text, cards):
    folder = fed_from(game_copy, "deck.csv")
    (folder / "deck.csv").write_text(text)
    assert [(f["letter"], f["points"], count) for _, f, count in cards_of(folder)] == cards
