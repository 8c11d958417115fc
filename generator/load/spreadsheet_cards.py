"""A component's `cards_from:` spreadsheet as raw cards, each with a way to locate its cells."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spellpress.errors import Location, Problems, UserError
from spellpress.model.limits import MAX_CARDS_PER_GAME
from spellpress.model.schema import ComponentSpec
from spellpress.paths import inside
from spellpress.wording import plural, quoted

if TYPE_CHECKING:
    from spellpress.load.spreadsheet import Sheet

COLUMNS_BESIDE_FIELDS = ("count", "id")


def spreadsheet_cards(spec: ComponentSpec, root: Path, where: Location, problems: Problems
                      ) -> Iterator[tuple[dict[str, Any], Callable[..., Location]]]:
    sheet = _open_sheet(spec, root, where, problems)
    if sheet is None:
        return
    _report_cells_beyond_header(sheet, problems)
    columns = _read_header(sheet, spec, problems)
    if columns is None:
        return
    unread: dict[str, list[tuple[int, int, str]]] = {}  # kind -> (row, column, what is wrong) of cells whose value is not there
    for row, cells in sheet.rows:
        raw = _row_fields(sheet, spec, columns, row, cells, unread, problems)
        if raw is not None:
            yield raw, _locator(sheet, columns, row)
    for reason, unread_cells in unread.items():  # one line for each reason: a script writes every row's formula alike
        _report_unread(sheet, reason, unread_cells, problems)


def _open_sheet(spec: ComponentSpec, root: Path, where: Location, problems: Problems) -> Sheet | None:
    """The component's sheet, or None once what stops it being read is in `problems`."""
    from spellpress.load.google_sheet import looks_like_link, read_linked_sheet
    from spellpress.load.spreadsheet import SheetError, read_sheet  # only for spreadsheet-fed games

    source = spec.sheet
    assert source is not None
    try:
        if looks_like_link(source.file):  # a Google Sheet, read from its snapshot (load/google_sheet.py)
            sheet = read_linked_sheet(source.file, source.sheet, where)
        else:
            sheet = read_sheet(inside(root, source.file, where, "spreadsheet"), source.sheet)
    except UserError as exc:
        problems.extend(exc)
        return None
    except SheetError as exc:
        problems.add(exc.location or where, str(exc))
        return None
    except OSError as exc:
        problems.add(where, str(exc))
        return None
    if len(sheet.rows) > MAX_CARDS_PER_GAME:
        problems.add(where, f"'{source.file}' has {len(sheet.rows):,} rows; a game may have at most {MAX_CARDS_PER_GAME:,} cards")
        return None
    return sheet


def _report_cells_beyond_header(sheet: Sheet, problems: Problems) -> None:
    for row, values in sheet.beyond[:MAX_CELLS_NAMED]:
        more = ", ..." if len(values) > MAX_CELLS_NAMED else ""
        shown = ", ".join(quoted(value) for value in values[:MAX_CELLS_NAMED]) + more
        problems.add(sheet.cell(row, len(sheet.header)), f"this row has {plural(len(values), 'cell')} more than the header's "
                     f"{len(sheet.header)} columns ({shown}){sheet.read_as}: name their columns in the first row, or remove them")
    if len(sheet.beyond) > MAX_CELLS_NAMED:
        problems.add(sheet.cell(sheet.beyond[MAX_CELLS_NAMED][0], len(sheet.header)),
                     f"and {len(sheet.beyond) - MAX_CELLS_NAMED:,} more rows with cells beyond the header's columns")


def _read_header(sheet: Sheet, spec: ComponentSpec, problems: Problems) -> list[tuple[int, str]] | None:
    """The (column, field) pairs the first row names, or None when a required field has no column.
    Repeated, nameless and unknown columns are reported."""
    from spellpress.suggest import did_you_mean

    known = [*spec.fields, *COLUMNS_BESIDE_FIELDS]
    columns, unknown = _name_columns(sheet, known, problems)
    for column, merged in sheet.nameless:
        problems.add(sheet.cell(sheet.header_row, column), f"this column's header is covered by the merged cells {merged}, "
                                                           "so the column has no name and its values are not read; unmerge "
                                                           "the cells and name each column")
    present = {name for _, name in columns}
    lacking = [name for name,
               kind in spec.fields.items() if not kind.endswith("?") and name not in spec.defaults and name not in present]
    explained = set()
    for column, name in unknown:
        suggestion = did_you_mean(name, known)
        explained |= {field for field in lacking if suggestion == f" (did you mean '{field}'?)"}
        problems.add(sheet.cell(sheet.header_row, column),
                     f"unknown column {quoted(name)}{suggestion}{sheet.read_as} (columns: {', '.join(known)})")
    unexplained = [name for name in lacking if name not in explained]
    if unexplained:  # said once at the header, not once a row
        problems.add(sheet.cell(sheet.header_row, 0), f"no column for the required field{'s' if len(unexplained) > 1 else ''} "
                     f"{', '.join(repr(name) for name in unexplained)}{sheet.read_as}: the first row names the columns")
    return None if lacking else columns


def _name_columns(sheet: Sheet, known: list[str], problems: Problems) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The header's (column, name) pairs: those of fields (or count, id), and the unknown ones; a name
    repeated is reported, and its later columns left out."""
    columns: list[tuple[int, str]] = []
    first_column: dict[str, int] = {}
    unknown: list[tuple[int, str]] = []
    for column, name in enumerate(sheet.header):
        if name in first_column:  # the later column would silently win over the earlier one
            from spellpress.load.cells import column_letter

            problems.add(sheet.cell(sheet.header_row, column), f"column {quoted(name)} is already column "
                                                               f"{column_letter(first_column[name] + 1)}; each column once")
            continue
        if name:
            first_column[name] = column
        if name in known:
            columns.append((column, name))
        elif name:
            unknown.append((column, name))
    return columns, unknown


def _row_fields(sheet: Sheet, spec: ComponentSpec, columns: list[tuple[int, str]], row: int, cells: list,
                unread: dict[str, list[tuple[int, int, str]]], problems: Problems) -> dict[str, Any] | None:
    """One row's fields as a raw card, or None when a cell of it cannot be read (reported, or noted in
    `unread` to be reported once a reason)."""
    from spellpress.load.spreadsheet import typed

    assert spec.sheet is not None
    raw: dict[str, Any] = {}
    failed = False
    for column, name in columns:
        value = cells[column]
        blank = value is None or (isinstance(value, str) and not value.strip())
        why = sheet.notes.why_empty(row, column) if blank else None
        if why is not None:
            unread.setdefault(why[0], []).append((row, column, why[1]))
            failed = True
            continue
        if blank and (name in COLUMNS_BESIDE_FIELDS or name in spec.defaults):
            continue  # count 1, the default id, or the component's default for the field
        kind = "int" if name == "count" else "str" if name == "id" else spec.fields[name]
        try:
            value = typed(value, kind, spec.sheet.separator)
        except ValueError as exc:
            problems.add(sheet.cell(row, column), f"{name} {exc}")
            failed = True
            continue
        if value is not None:  # an optional field's empty cell: left out, as in YAML
            raw[name] = value
    return None if failed else raw


def _locator(sheet: Sheet, columns: list[tuple[int, str]], row: int) -> Callable[..., Location]:
    """Where a card's field is: the cell of its first name's column in the card's row (column A for
    anything else)."""

    def locate(*names: str, at_key: bool = False) -> Location:
        column = next((c for c, n in columns if names and n == names[0]), 0)
        return sheet.cell(row, column)

    return locate


MAX_CELLS_NAMED = 5


def _report_unread(sheet, reason: str, cells: list[tuple[int, int, str]], problems: Problems) -> None:
    from spellpress.load.cells import column_letter
    from spellpress.load.workbook_cells import ADVICE

    row, column, said = cells[0]
    others = [f"{column_letter(c + 1)}{r}" for r, c, _ in cells[1:]]
    if others:
        more = f" and {len(others) - MAX_CELLS_NAMED:,} more" if len(others) > MAX_CELLS_NAMED else ""
        named = ", ".join(others[:MAX_CELLS_NAMED]) + more
        said += f" (and {plural(len(others), 'more cell')} like it: {named})"
    problems.add(sheet.cell(row, column), f"{said}; {ADVICE[reason]}")
