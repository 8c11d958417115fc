"""Cards from a spreadsheet: CSV, XLSX or ODS, one row per card, columns named after the fields.

The first non-empty row names the columns: the component's `fields`, plus `count` and `id`.
Each cell is typed by its field (see `typed`); a mistake is reported at its row and
column letter (`consonants.csv:14:C`), like a YAML mistake at its line and column.
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spellpress.errors import Location, display_path
from spellpress.load.cells import column_letter
from spellpress.load.workbook_cells import CellNotes
from spellpress.wording import quoted

SHEET_SUFFIXES = (".csv", ".xlsx", ".ods")
TRUE_WORDS = frozenset({"true", "yes", "y", "1", "x"})
FALSE_WORDS = frozenset({"false", "no", "n", "0", ""})


class SheetError(ValueError):
    """The file cannot be read as a spreadsheet, or has no such sheet; `location` is the cell at fault, when one is."""

    def __init__(self, message: str, location: Location | None = None):
        super().__init__(message)
        self.location = location


@dataclass(frozen=True)
class CellLocation(Location):
    """A cell: shown as file:row:column-letter."""

    def __str__(self) -> str:
        if not self.line:
            return super().__str__()
        return f"{display_path(self.path)}:{self.line}:{column_letter(self.column)}"


@dataclass(frozen=True)
class Sheet:
    path: Path
    header: list[str]  # column names, lower-cased and stripped
    rows: list[tuple[int, list[Any]]]  # (1-based row number: a CSV's line, cells), empty rows left out
    separator: str = ","  # a CSV's column separator as found in the file (workbooks: ",")
    notes: CellNotes = CellNotes()  # a workbook's cells that read as empty though something was put there
    nameless: tuple[tuple[int, str], ...] = ()  # (column, merged range): a column of values whose header is merged away
    header_row: int = 1
    beyond: tuple[tuple[int, list[Any]], ...] = ()  # a CSV's (row, values right of the last named column)

    @property
    def read_as(self) -> str:
        """How the file was read, for messages about its columns ('' for the usual comma)."""
        return "" if self.separator == "," else f" (read as {SEPARATOR_NAMES[self.separator]}-separated values)"

    def cell(self, row: int, column: int) -> CellLocation:
        return CellLocation(self.path, row, column + 1)


def read_sheet(path: Path, sheet: str | None = None) -> Sheet:
    suffix = path.suffix.lower()
    separator = ","
    notes = CellNotes()
    if suffix == ".csv":
        if sheet is not None:
            raise SheetError(f"'{path.name}' is a CSV file, which has no sheets: remove sheet: {quoted(sheet)} "
                             "(or give an .xlsx or .ods workbook)")
        rows, separator = _csv_rows(path)
    elif suffix in (".xlsx", ".ods"):
        grid, notes = _workbook_rows(path, sheet)
        rows = list(enumerate(grid, start=1))
    else:
        raise SheetError(f"'{path.name}' is not a spreadsheet: expected {', '.join(SHEET_SUFFIXES)}")
    numbered = [(number, row) for number, row in rows if any(not _blank(c) for c in row)]
    if not numbered:
        raise SheetError(f"'{path.name}' has no rows")
    (header_row, header), body = numbered[0], numbered[1:]
    names = [str(c).strip().lower() if not _blank(c) else "" for c in header]
    nameless = tuple((column, notes.merged_over[(header_row, column)]) for column, name in enumerate(names)
                     if not name and (header_row, column) in notes.merged_over
                     and any(column < len(row) and not _blank(row[column]) for _, row in body))
    while names and not names[-1]:  # a spreadsheet's trailing empty columns
        names.pop()
    # a CSV has no room for remarks beside the cards, as a workbook has: a value past the header is a slip
    # (a comma too many in a cell), and dropping it would change the card in silence
    beyond = tuple((number, values) for number, row in body
                   if suffix == ".csv" and (values := [c for c in row[len(names):] if not _blank(c)]))
    return Sheet(path, names, [(number, list(row[: len(names)]) + [""] * (len(names) - len(row))) for number, row in body],
                 separator, notes, nameless, header_row, beyond)


SEPARATOR_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}


def csv_separator(text: str) -> str:
    """The column separator of a CSV file: the one of , ; or tab that its header line uses most
    (Excel writes ';' where the decimal mark is a comma); a comma when the header has none."""
    header = next((line for line in text.splitlines() if line.strip()), "")
    counts = {separator: _outside_quotes(header).count(separator) for separator in SEPARATOR_NAMES}
    best = max(counts, key=lambda separator: (counts[separator], separator == ","))
    return best if counts[best] else ","


def _outside_quotes(line: str) -> str:
    return "".join(part for index, part in enumerate(line.split('"')) if index % 2 == 0)


def _csv_rows(path: Path) -> tuple[list[tuple[int, list[Any]]], str]:
    """Each record with the line it starts on (a quoted cell may hold line breaks), and the separator."""
    try:
        text = path.read_text(encoding="utf-8-sig")  # a spreadsheet's CSV export may start with a BOM
    except UnicodeDecodeError as exc:
        raise SheetError(f"'{path.name}' is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    separator = csv_separator(text)
    lines = io.StringIO(text, newline="").readlines()  # the lines as the reader counts them
    reader = csv.reader(iter(lines), delimiter=separator)
    rows = []
    start = 1
    try:
        for row in reader:
            rows.append((start, row))
            start = reader.line_num + 1
    except csv.Error as exc:
        limit = csv.field_size_limit()
        reason = f"a cell holds more than {limit:,} characters" if "field limit" in str(exc) else str(exc)
        raise SheetError(f"'{path.name}' cannot be read as CSV at line {reader.line_num}: {reason}") from None
    if rows:  # the reader takes an unclosed quote to the end of the file: only the last record can hold one
        last = rows[-1][0]
        opened = _unclosed_quote("".join(lines[last - 1:]), separator)
        if opened is not None:
            line, column = last + opened[0], opened[1]
            raise SheetError(f"this quote is never closed: every line after it (to line {len(lines)}) would be read "
                             "into one cell; close it, or remove it", CellLocation(path, line, column + 1))
    return rows, separator


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _unclosed_quote(text: str, separator: str) -> tuple[int, int] | None:
    """(line within `text`, column index) of a quote that opens a cell and is never closed, as the csv module
    reads it: a quote opens a cell only as the cell's first character, and "" inside a quoted cell is a quote."""
    special = re.compile(f'"|\\r\\n|\\r|\\n|{re.escape(separator)}')
    column, cell_begins, position = 0, 0, 0
    while (found := special.search(text, position)) is not None:
        mark, position = found.group(), found.end()
        if mark == '"':
            if found.start() != cell_begins:
                continue  # a quote inside an unquoted cell is text
            while True:  # inside the quoted cell only a quote, not doubled, ends it
                closing = text.find('"', position)
                if closing < 0:
                    return len(_LINE_BREAK.findall(text, 0, found.start())), column
                position = closing + (2 if text.startswith('""', closing) else 1)
                if position == closing + 1:
                    break
        else:
            column = column + 1 if mark == separator else 0
            cell_begins = position
    return None


def _workbook_rows(path: Path, sheet: str | None) -> tuple[list[list[Any]], CellNotes]:
    from zipfile import BadZipFile

    from python_calamine import CalamineError, CalamineWorkbook  # only for games fed from a workbook

    from spellpress.load.workbook_bounds import WorkbookTooLarge, check_workbook
    from spellpress.load.workbook_cells import workbook_notes

    try:
        members, used_rows, used_columns = check_workbook(path, sheet)  # before the reader builds the whole grid
    except WorkbookTooLarge as exc:
        raise SheetError(str(exc)) from None
    except (BadZipFile, OSError, ValueError, EOFError) as exc:
        raise SheetError(f"'{path.name}' cannot be read as a workbook ({exc})") from None
    try:
        book = CalamineWorkbook.from_path(str(path))
    except (CalamineError, OSError, ValueError) as exc:
        raise SheetError(f"'{path.name}' cannot be read as a workbook ({exc})") from None
    names = book.sheet_names
    if sheet is None:
        sheet = names[0]
    elif sheet not in names:
        from spellpress.suggest import did_you_mean

        shown = ", ".join(quoted(n) for n in names[:10])
        more = f" and {len(names) - 10:,} more" if len(names) > 10 else ""
        raise SheetError(f"'{path.name}' has no sheet {quoted(sheet)}{did_you_mean(sheet, names)} (sheets: {shown}{more})")
    rows = book.get_sheet_by_name(sheet).to_python(skip_empty_area=False)
    return rows, workbook_notes(members, path.suffix.lower(), sheet, used_rows, used_columns)


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def typed(value: Any, kind: str, separator: str) -> Any:
    """A cell as its field's type; ValueError says what was expected.

    int: a whole number (3, 3.0, "3"); float: a number; bool: true/false, yes/no, y/n, 1/0, x or
    empty; list: items between `separator`s, each stripped (numbers stay text); str: the text
    (a whole number from a workbook without its ".0"). An empty cell of an optional field is None.
    """
    optional = kind.endswith("?")
    kind = kind.rstrip("?")
    if _blank(value) and (optional or kind not in ("str", "list", "bool")):
        if optional:
            return None
        raise ValueError(f"must be {_WHAT[kind]}, got an empty cell")
    if kind == "str":
        return _text(value)
    if kind == "int":
        number = _number(value, kind)
        if not float(number).is_integer():
            raise ValueError(f"must be a whole number, got {_shown(value)}")
        return int(number)
    if kind == "float":
        return _number(value, kind)
    if kind == "bool":
        if isinstance(value, bool):
            return value
        word = _text(value).strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise ValueError(f"must be {_WHAT[kind]}, got {_shown(value)}")
    if kind == "list":
        text = _text(value)
        return [item.strip() for item in text.split(separator)] if text.strip() else []
    raise ValueError("is a map field: maps cannot come from a spreadsheet (give this component's cards in YAML)")


_WHAT = {"int": "a whole number", "float": "a number", "bool": "true or false (yes/no, 1/0)", "str": "text", "list": "a list"}


def _number(value: Any, kind: str) -> float | int:
    number: float | int
    if isinstance(value, bool):
        raise ValueError(f"must be {_WHAT[kind]}, got {_shown(value)}")
    if isinstance(value, (int, float)):
        number = value
    else:
        text = str(value).strip()
        try:
            number = int(text)
        except ValueError:
            try:
                number = float(text)
            except ValueError:
                raise ValueError(f"must be {_WHAT[kind]}, got {_shown(value)}") from None
    if not math.isfinite(number):
        raise ValueError(f"must be {_WHAT[kind]}, got {_shown(value)}")
    return number


def _text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # a workbook stores 3 as 3.0
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _shown(value: Any) -> str:
    return quoted(_text(value))
