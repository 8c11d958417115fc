"""Workbook cells that read as empty though something was put there, named as such at their cell.

Issue 29: a formula cell written by a script (openpyxl, odfpy: the formula without its value) said
"got an empty cell", or, in a column that may be empty (count), silently counted 1. Issue 31: merged
cells were blamed on column A with "not ''" (the merged-away cells read as empty). Files are made
by openpyxl and odfpy, the libraries scripts write workbooks with.
"""

from __future__ import annotations

import re

import pytest
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import CoveredTableCell, Table, TableCell, TableRow
from odf.text import P
from openpyxl import Workbook

from spellpress.cli import main
from tests.load.test_hostile_sheets import rewrite
from tests.load.test_spreadsheet import cards_of, fed_from

HEADER = ["letter", "points", "count"]
DECK = [HEADER, ["N", 1, 12], ["Q", 10, 1], ["Z", 5, 2]]
FORMULA_ADVICE = "open and save the file in a spreadsheet program, or type the value"
MERGED_ADVICE = "unmerge the cells and type the value in each"


def openpyxl_book(path, rows, merges=()):
    book = Workbook()
    sheet = book.active
    sheet.title = "Deck"
    for row in rows:
        sheet.append(row)
    for cells in merges:
        sheet.merge_cells(cells)
    book.save(path)
    return path


def odfpy_book(path, rows, saved_values=None, spans=None):
    """`=...` strings become formulas (with their value when `saved_values` gives it, as LibreOffice saves
    them); `spans` {(row, column): (rows, columns)} merges cells (0-based), the covered ones written as such."""
    document = OpenDocumentSpreadsheet()
    table = Table(name="Deck")
    spans = spans or {}
    covered = {(r + dr, c + dc) for (r, c), (rows_, columns) in spans.items()
               for dr in range(rows_) for dc in range(columns) if (dr, dc) != (0, 0)}
    for r, values in enumerate(rows):
        row = TableRow()
        for c, value in enumerate(values):
            if (r, c) in covered:
                row.addElement(CoveredTableCell())
                continue
            extra = {}
            if (r, c) in spans:
                extra = {"numberrowsspanned": spans[(r, c)][0], "numbercolumnsspanned": spans[(r, c)][1]}
            if isinstance(value, str) and value.startswith("="):
                formula = "of:" + re.sub(r"([A-Z]+\d+)", r"[.\1]", value)
                saved = (saved_values or {}).get((r, c))
                cell = (TableCell(formula=formula, **extra) if saved is None
                        else TableCell(formula=formula, valuetype="float", value=saved, **extra))
            elif isinstance(value, str):
                cell = TableCell(valuetype="string", **extra)
                cell.addElement(P(text=value))
            elif value is None:
                cell = TableCell(**extra)
            else:
                cell = TableCell(valuetype="float", value=value, **extra)
                cell.addElement(P(text=str(value)))
            row.addElement(cell)
        table.addElement(row)
    document.spreadsheet.addElement(table)
    document.save(str(path))
    return path


def check_errors(folder, tmp_path, capsys, monkeypatch) -> list[str]:
    monkeypatch.chdir(tmp_path)
    assert main(["build", folder.name, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "empty cell" not in err and "not ''" not in err, err
    assert not (tmp_path / "out").exists()
    return err.splitlines()


@pytest.mark.parametrize("suffix", ["xlsx", "ods"])
def test_a_formula_whose_value_was_never_saved_is_named_at_its_cell(game_copy, tmp_path, capsys, monkeypatch, suffix):
    folder = fed_from(game_copy, f"{{file: consonants.{suffix}, sheet: Deck}}")
    rows = [HEADER, ["N", 1, 12], ["Q", 10, 1], ["Z", 5, "=B4*2"]]
    write = openpyxl_book if suffix == "xlsx" else odfpy_book
    write(folder / f"consonants.{suffix}", rows)
    err = check_errors(folder, tmp_path, capsys, monkeypatch)
    assert err == [f"error: {folder.name}/consonants.{suffix}:4:C: this cell holds a formula (=B4*2) whose value was "
                   f"never saved; {FORMULA_ADVICE}", "1 error; nothing written."]


@pytest.mark.parametrize("suffix", ["xlsx", "ods"])
def test_a_column_of_unsaved_formulas_is_one_error(game_copy, tmp_path, capsys, monkeypatch, suffix):
    folder = fed_from(game_copy, f"{{file: deck.{suffix}, sheet: Deck}}")
    rows = [HEADER] + [[letter, f"=C{n}*2", 1] for n, letter in enumerate("BCDFGHJKLM", start=2)]
    (openpyxl_book if suffix == "xlsx" else odfpy_book)(folder / f"deck.{suffix}", rows)
    err = check_errors(folder, tmp_path, capsys, monkeypatch)
    assert len(err) == 2, err
    assert (f"deck.{suffix}:2:B: this cell holds a formula (=C2*2) whose value was never saved (and 9 more cells like it: "
            f"B3, B4, B5, B6, B7 and 4 more); {FORMULA_ADVICE}") in err[0]


@pytest.mark.parametrize("suffix", ["xlsx", "ods"])
def test_formulas_with_their_saved_values_read_as_those_values(game_copy, suffix):
    """What a spreadsheet program writes: the formula and its last result."""
    folder = fed_from(game_copy, f"{{file: deck.{suffix}, sheet: Deck}}")
    rows = [HEADER, ["N", 1, "=B2*12"], ["Q", 10, "=B3-9"]]
    if suffix == "xlsx":
        path = openpyxl_book(folder / "deck.xlsx", rows)
        rewrite(path, "xl/worksheets/sheet1.xml", lambda xml: xml.replace("<f>B2*12</f><v></v>", "<f>B2*12</f><v>12</v>")
                .replace("<f>B3-9</f><v></v>", "<f>B3-9</f><v>1</v>"))
    else:
        odfpy_book(folder / "deck.ods", rows, saved_values={(1, 2): 12, (2, 2): 1})
    assert [(fields["letter"], count) for _, fields, count in cards_of(folder)] == [("N", 12), ("Q", 1)]


def test_an_empty_text_result_is_a_saved_value(game_copy):
    folder = fed_from(game_copy, "{file: deck.xlsx, sheet: Deck}")
    component = folder / "letters.yaml"
    component.write_text(component.read_text().replace("fields: {letter: str, points: int}",
                                                       "fields: {letter: str, points: int, note: str?}"))
    path = openpyxl_book(folder / "deck.xlsx", [[*HEADER, "note"], ["N", 1, 12, '=IF(B2>5,"rare","")']])
    rewrite(path, "xl/worksheets/sheet1.xml", lambda xml: xml.replace('<c r="D2">', '<c r="D2" t="str">'))
    assert cards_of(folder)[0][1] == {"letter": "N", "points": 1}


MERGES = [
    # (merged cells, the cell the error is at, the merged range), as openpyxl merges them
    ("A3:A4", "4:A", "A3:A4"),  # a letter written once for two rows: the second card's letter was ''
    ("C2:C3", "3:C", "C2:C3"),  # a count merged down: the second card counted 1, silently
    ("B2:C2", "2:C", "B2:C2"),  # points merged over count
]


@pytest.mark.parametrize("merged, cell, named", MERGES, ids=[m[0] for m in MERGES])
def test_a_cell_under_merged_cells_is_named_at_its_cell(game_copy, tmp_path, capsys, monkeypatch, merged, cell, named):
    folder = fed_from(game_copy, "{file: deck.xlsx, sheet: Deck}")
    openpyxl_book(folder / "deck.xlsx", DECK, merges=[merged])
    err = check_errors(folder, tmp_path, capsys, monkeypatch)
    assert err == [f"error: {folder.name}/deck.xlsx:{cell}: this cell is covered by the merged cells {named}, whose value "
                   f"is in {named.split(':')[0]} alone; {MERGED_ADVICE}", "1 error; nothing written."]


def test_merged_cells_in_an_ods_are_named_at_their_cell(game_copy, tmp_path, capsys, monkeypatch):
    folder = fed_from(game_copy, "{file: deck.ods, sheet: Deck}")
    odfpy_book(folder / "deck.ods", DECK, spans={(2, 0): (2, 1)})  # A3:A4
    err = check_errors(folder, tmp_path, capsys, monkeypatch)
    assert err == [f"error: {folder.name}/deck.ods:4:A: this cell is covered by the merged cells A3:A4, whose value is "
                   f"in A3 alone; {MERGED_ADVICE}", "1 error; nothing written."]


def test_a_header_merged_over_a_column_of_values_is_named(game_copy, tmp_path, capsys, monkeypatch):
    """A header merged over two columns leaves the second without a name: its values were dropped silently."""
    folder = fed_from(game_copy, "{file: deck.xlsx, sheet: Deck}")
    openpyxl_book(folder / "deck.xlsx", [["letter", None, "points", "count"], ["N", "n", 1, 12], ["Q", "q", 10, 1]],
                  merges=["A1:B1"])
    err = check_errors(folder, tmp_path, capsys, monkeypatch)
    assert err == [f"error: {folder.name}/deck.xlsx:1:B: this column's header is covered by the merged cells A1:B1, so "
                   "the column has no name and its values are not read; unmerge the cells and name each column",
                   "1 error; nothing written."]


def test_merged_cells_outside_the_columns_read_are_no_mistake(game_copy):
    """A remark typed beside the cards, over two cells of columns without a name, is not read."""
    folder = fed_from(game_copy, "{file: deck.xlsx, sheet: Deck}")
    openpyxl_book(folder / "deck.xlsx", [HEADER, ["N", 1, 12, "a remark over two cells"]], merges=["D2:E2"])
    assert cards_of(folder) == [("letters-001", {"letter": "N", "points": 1}, 12)]
