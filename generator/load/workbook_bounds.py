"""Is a workbook (XLSX or ODS) small enough to read? Answered from its zip and XML, before the reader runs.

The reader (calamine) builds the whole grid from A1 to the last used cell in memory: one cell at
XFD1048576 asks for 17 billion cells (the process aborts), and a small zip can inflate to
gigabytes. So, first, every zip member is inflated here with a cap on the total (a member's
header may lie about its size), and the chosen sheet's used range is measured from its cells
(ODS repeated rows and columns counted as the reader expands them). Going past a limit is a
SheetError naming it.
"""

from __future__ import annotations

import copy
import re
import zipfile
import zlib
from pathlib import Path

from spellpress.load.cells import column_number
from spellpress.load.workbook_xml import ods_cells, xlsx_cells, xlsx_sheet_member
from spellpress.model.limits import MAX_SHEET_CELLS, MAX_SHEET_COLUMNS, MAX_SHEET_ROWS, MAX_WORKBOOK_BYTES

CHUNK = 1 << 20


class WorkbookTooLarge(ValueError):
    pass


def check_workbook(path: Path, sheet: str | None) -> tuple[dict[str, bytes], int, int]:
    """The workbook's members and the sheet's used range (rows, columns from A1); WorkbookTooLarge (or
    zipfile.BadZipFile) when reading `sheet` of the workbook would go past a limit."""
    members = _inflated_members(path)
    name = f"'{path.name}'" + (f" sheet '{sheet}'" if sheet else "")
    for member, data in members.items():
        if member.endswith(".xml") and _cell_tags(data) > MAX_SHEET_CELLS:  # quick, before any parsing
            raise WorkbookTooLarge(f"'{path.name}' holds more than {MAX_SHEET_CELLS:,} cells in '{member}'; a sheet may "
                                   f"span at most {MAX_SHEET_CELLS:,} cells")
    if path.suffix.lower() == ".ods":
        rows, columns = _ods_used_range(members.get("content.xml", b""), sheet)
    else:
        rows, columns = _xlsx_used_range(members, sheet)
    if rows > MAX_SHEET_ROWS:
        raise WorkbookTooLarge(f"{name} uses {rows:,} rows; a sheet may use at most {MAX_SHEET_ROWS:,}")
    if columns > MAX_SHEET_COLUMNS:
        raise WorkbookTooLarge(f"{name} uses {columns:,} columns (up to {_letters(columns)}); a sheet may use at most "
                               f"{MAX_SHEET_COLUMNS:,} (up to {_letters(MAX_SHEET_COLUMNS)})")
    if rows * columns > MAX_SHEET_CELLS:
        raise WorkbookTooLarge(f"{name} uses {rows:,} rows by {columns:,} columns, {rows * columns:,} cells from A1 to "
                               f"{_letters(columns)}{rows}; a sheet may span at most {MAX_SHEET_CELLS:,} cells")
    return members, rows, columns


def _letters(number: int) -> str:
    from spellpress.load.cells import column_letter

    return column_letter(number)


def _inflated_members(path: Path) -> dict[str, bytes]:
    """Every member's bytes, inflated with a cap on the total whatever the headers claim."""
    budget = MAX_WORKBOOK_BYTES
    members: dict[str, bytes] = {}
    with zipfile.ZipFile(path) as book:
        infos = [info for info in book.infolist() if not info.is_dir()]
        declared = sum(info.file_size for info in infos)
        if declared > MAX_WORKBOOK_BYTES:
            raise WorkbookTooLarge(f"'{path.name}' unpacks to {declared:,} bytes; a workbook may unpack to at most "
                                   f"{MAX_WORKBOOK_BYTES:,}")
        for info in infos:
            capped = copy.copy(info)
            capped.file_size = budget + 1  # read no further than the budget, whatever the header says
            del capped.CRC  # checked below, once the member is read whole
            parts = []
            with book.open(capped) as member:
                while chunk := member.read(CHUNK):
                    parts.append(chunk)
                    budget -= len(chunk)
                    if budget < 0:
                        raise WorkbookTooLarge(f"'{path.name}' unpacks to more than {MAX_WORKBOOK_BYTES:,} bytes "
                                               f"(its member '{info.filename}' is larger than its header says)")
            data = b"".join(parts)
            if len(data) != info.file_size or zlib.crc32(data) != info.CRC:
                raise zipfile.BadZipFile(f"its member '{info.filename}' is not what its header says")
            members[info.filename] = data
    return members


def _xlsx_used_range(members: dict[str, bytes], sheet: str | None) -> tuple[int, int]:
    """(rows, columns) from A1 to the last cell of the sheet (every worksheet's largest if it cannot be told)."""
    target = xlsx_sheet_member(members, sheet)
    names = [target] if target in members else [n for n in members if n.startswith("xl/worksheets/") and n.endswith(".xml")]
    rows = columns = 0
    for name in names:
        r, c = _xlsx_sheet_range(members[name])
        rows, columns = max(rows, r), max(columns, c)
    return rows, columns


def _cell_tags(data: bytes) -> int:
    """XLSX and ODS cell elements (a prefixed XLSX `<x:c>` is counted by the slower path)."""
    return (data.count(b"<c ") + data.count(b"<c>") + data.count(b"<c/") + data.count(b"<table:table-cell")
            + data.count(b"<table:covered-table-cell"))


CELL_WITH_REFERENCE = re.compile(rb'<(?:\w+:)?c\s[^>]*?\br="([A-Za-z]{1,4})(\d{1,8})"')


def _xlsx_sheet_range(data: bytes) -> tuple[int, int]:
    """Cells are placed by their `r` ("XFD1048576"), or after the previous one when it is missing, as the reader does."""
    references = CELL_WITH_REFERENCE.findall(data)
    if len(references) == _cell_tags(data):  # every cell says where it is: the quick way
        if not references:
            return 0, 0
        letters = max((letters.upper() for letters, _ in references), key=lambda text: (len(text), text))
        return max(int(row) for _, row in references), column_number(letters.decode())
    rows = columns = 0
    for cell in xlsx_cells(data.decode("utf-8", "replace"), with_content=False):
        rows, columns = max(rows, cell.row), max(columns, cell.column)
    return rows, columns


def _ods_used_range(xml_bytes: bytes, sheet: str | None) -> tuple[int, int]:
    """(rows, columns) up to the last cell with content; repeated rows and cells count as often as they repeat."""
    rows = columns = 0
    for cell in ods_cells(xml_bytes.decode("utf-8", "replace"), sheet):
        if cell.filled:
            rows, columns = max(rows, cell.row + cell.rows), max(columns, cell.column + cell.columns)
    return rows, columns
