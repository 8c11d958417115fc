"""Tiny workbooks that asked for the machine: each is refused quickly, exit 2, the limit named, nothing written.

A cell at XFD1048576 made the reader ask for 512 GiB (the process aborted); a zip bomb inflated to
gigabytes. Each case runs `spellpress check` in a child process limited to 2 GB of address space,
so that with its guard removed the case fails (abort or MemoryError) instead of taking the machine.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
import zipfile

import pytest

from spellpress.build import BuildOptions
from spellpress.model.limits import MAX_SHEET_CELLS, MAX_SHEET_COLUMNS, MAX_SHEET_ROWS, MAX_WORKBOOK_BYTES
from spellpress.serve.preview import Preview
from tests.conftest import ROOT
from tests.load.test_spreadsheet import ROWS, cards_of, fed_from
from tests.load.workbooks import write_ods, write_xlsx

MEMORY_CAP = 2 << 30


def rewrite(path, member: str, edit) -> None:
    with zipfile.ZipFile(path) as book:
        files = {name: book.read(name) for name in book.namelist()}
    files[member] = edit(files[member].decode()).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as book:
        for name, data in files.items():
            book.writestr(name, data)


def xlsx_with_cell(reference: str):
    def make(path):
        write_xlsx(path, {"Deck": ROWS})
        row = "".join(ch for ch in reference if ch.isdigit())
        rewrite(path, "xl/worksheets/sheet1.xml",
                lambda xml: xml.replace("</sheetData>", f'<row r="{row}"><c r="{reference}"><v>1</v></c></row></sheetData>'))
    return make


def ods_with_row(row_xml: str):
    def make(path):
        write_ods(path, {"Deck": ROWS})
        rewrite(path, "content.xml", lambda xml: xml.replace("</table:table>", row_xml + "</table:table>"))
    return make


def xlsx_bomb(lying: bool):
    """A worksheet padded with 60 MB of spaces (about 60 kB zipped); `lying`: its headers say 1 kB."""
    def make(path):
        write_xlsx(path, {"Deck": ROWS})
        rewrite(path, "xl/worksheets/sheet1.xml", lambda xml: xml.replace("<sheetData>", "<sheetData>" + " " * 60_000_000))
        if lying:
            data = bytearray(path.read_bytes())
            with zipfile.ZipFile(path) as book:
                info = book.getinfo("xl/worksheets/sheet1.xml")
            size = info.file_size.to_bytes(4, "little")
            assert data.count(size) == 2  # the local header and the central directory
            path.write_bytes(bytes(data).replace(size, (1000).to_bytes(4, "little")))
    return make


VALUE_CELL = '<table:table-cell office:value-type="string"{}><text:p>x</text:p></table:table-cell>'
CASES = [
    # (id, how the workbook is made, words of the message); each took seconds to minutes, or aborted, before
    ("xlsx-cell-at-XFD1048576", xlsx_with_cell("XFD1048576"), f"uses 1,048,576 rows; a sheet may use at most {MAX_SHEET_ROWS:,}"),
    ("xlsx-cell-at-CV1000000", xlsx_with_cell("CV1000000"), "uses 1,000,000 rows"),
    ("xlsx-cell-at-ZZZ5", xlsx_with_cell("ZZZ5"),
     f"uses 18,278 columns (up to ZZZ); a sheet may use at most {MAX_SHEET_COLUMNS:,}"),
    ("xlsx-cell-at-CV6000", xlsx_with_cell("CV6000"),
     f"600,000 cells from A1 to CV6000; a sheet may span at most {MAX_SHEET_CELLS:,}"),
    ("xlsx-bomb", xlsx_bomb(lying=False),
     f"unpacks to 60,001,913 bytes; a workbook may unpack to at most {MAX_WORKBOOK_BYTES:,}"),
    ("xlsx-bomb-lying-header", xlsx_bomb(lying=True), f"unpacks to more than {MAX_WORKBOOK_BYTES:,} bytes"),
    ("ods-row-repeated-1M", ods_with_row('<table:table-row table:number-rows-repeated="1000000">'
                                         + VALUE_CELL.format("") + "</table:table-row>"), "uses 1,000,004 rows"),
    ("ods-cell-repeated-20k", ods_with_row("<table:table-row>" + VALUE_CELL.format(' table:number-columns-repeated="20000"')
                                           + "</table:table-row>"), "uses 20,000 columns"),
    ("ods-empty-rows-then-a-value", ods_with_row('<table:table-row table:number-rows-repeated="1048000"><table:table-cell/>'
                                                 '</table:table-row><table:table-row>' + VALUE_CELL.format("")
                                                 + "</table:table-row>"), "uses 1,048,005 rows"),
]


def limited_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_workbook_too_large_to_read_is_refused_quickly(game_copy, tmp_path, case):
    name, make, words = case
    suffix = "ods" if name.startswith("ods") else "xlsx"
    folder = fed_from(game_copy, f"{{file: deck.{suffix}, sheet: Deck}}")
    make(folder / f"deck.{suffix}")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "spellpress", "check", str(folder)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120, preexec_fn=limited_memory, env={**os.environ, "PYTHONPATH": str(ROOT)})
    elapsed = time.monotonic() - started
    print(f"\n{name}: exit {done.returncode} in {elapsed:.2f} s: {done.stderr.splitlines()[0] if done.stderr else ''}")
    assert done.returncode == 2, done.stderr
    assert "letters.yaml:" in done.stderr and words in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert elapsed < 10, f"{name} took {elapsed:.1f} s"  # 35 s to minutes, or an abort, before the guard


def test_a_spreadsheet_program_s_empty_tail_still_reads(game_copy):
    """LibreOffice saves the empty rows and columns below the data as one repeated row: not a used range."""
    folder = fed_from(game_copy, "{file: deck.ods, sheet: Deck}")
    ods_with_row('<table:table-row table:number-rows-repeated="1048572"><table:table-cell table:number-columns-repeated="1024"/>'
                 "</table:table-row>")(folder / "deck.ods")
    assert [card[1]["letter"] for card in cards_of(folder)] == ["N", "Q", "Z"]


def test_saving_a_hostile_workbook_shows_an_error_in_the_preview(game_copy, tmp_path):
    folder = fed_from(game_copy, "{file: deck.xlsx, sheet: Deck}")
    write_xlsx(folder / "deck.xlsx", {"Deck": ROWS})
    preview = Preview(folder, BuildOptions(out=tmp_path / "out"))
    assert preview.refresh() and not preview.state.errors
    xlsx_with_cell("XFD1048576")(folder / "deck.xlsx")
    assert preview.refresh()
    assert any("uses 1,048,576 rows" in problem for problem in preview.state.errors), preview.state.errors
    assert preview.state.snapshot is not None  # the last good cards stay


def test_three_hundred_sheet_names_are_not_all_echoed(game_copy, tmp_path, capsys, monkeypatch):
    from spellpress.cli import main

    folder = fed_from(game_copy, "{file: deck.xlsx, sheet: Dekc}")
    write_xlsx(folder / "deck.xlsx", {f"Sheet {n} " + "x" * 60: [["a"]] for n in range(301)} | {"Deck": ROWS})
    monkeypatch.chdir(tmp_path)
    assert main(["check", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "has no sheet 'Dekc' (did you mean 'Deck'?)" in err and "and 292 more)" in err
    assert "Sheet 200" not in err and len(err) < 2000, len(err)
