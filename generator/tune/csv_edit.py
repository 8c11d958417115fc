"""--apply's CSV edits: a card's row found by the loader's record number, only the changed cell rewritten.

A record is found by the CSV reader's own positions (spellpress.load.csv_records), so a quoted
cell with a line break in it does not shift the rows below. In the record, the cell's own
characters are replaced and nothing else: the other cells keep their quoting, the row its line
ending, the file its BOM.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spellpress.errors import Location, UserError
from spellpress.load.csv_records import csv_records

QUOTE = '"'


@dataclass(frozen=True)
class Cell:
    key: str  # the tune key, for messages
    card_id: str
    row: int  # the loader's 1-based record number
    column: str  # the column's name
    value: Any


def edited_csv(text: str, separator: str, cells: list[Cell], where: Location) -> tuple[str, list[list[str]]]:
    """The text (BOM removed) with each cell written in; and every record's cells as they should read after."""
    records = csv_records(text, separator)
    expected = [list(found) for _, _, found in records]
    header_at = next((n for n, found in enumerate(expected) if any(c.strip() for c in found)), None)
    header = [c.strip().lower() for c in expected[header_at]] if header_at is not None else []
    splices = []
    for cell in cells:
        at = Location(where.path, cell.row, 0)
        if cell.column not in header:
            raise UserError.at(Location(where.path, (header_at or 0) + 1), f"{cell.key}: the sheet has no column "
                               f"{cell.column!r}; add it (columns: {', '.join(header)})")
        if not 0 <= cell.row - 1 < len(records) or cell.row - 1 == header_at:
            raise UserError.at(at, f"{cell.key}: the file has changed since it was loaded: run the command again")
        start, end, found = records[cell.row - 1]
        if "id" in header and header.index("id") < len(found) and found[header.index("id")].strip() not in ("", cell.card_id):
            raise UserError.at(at, f"{cell.key}: row {cell.row} is no longer card {cell.card_id!r}; the file has "
                                   "changed since it was loaded: run the command again")
        spans = cell_spans(text, start, end, separator)
        if [text_of(text, s, e) for s, e in spans] != found:
            raise UserError.at(at, f"{cell.key}: --apply cannot tell this row's cells apart faithfully; change "
                                   f"{cell.column} to {cell.value} by hand")
        column = header.index(cell.column)
        new = _cell_text(cell.value, separator)
        row = expected[cell.row - 1]
        if column < len(spans):
            s, e = spans[column]
            if text[s:e].startswith(QUOTE) and not new.startswith(QUOTE):
                new = QUOTE + new + QUOTE
            splices.append((s, e, new))
        else:  # a short row: the cells it lacks are added, empty
            tail = spans[-1][1] if spans else start
            splices.append((tail, tail, separator * (column - len(spans) + (1 if spans else 0)) + new))
            row.extend([""] * (column + 1 - len(row)))
        row[column] = str(_plain(cell.value))
    for s, e, new in sorted(splices, key=lambda splice: splice[0], reverse=True):
        text = text[:s] + new + text[e:]
    return text, expected


def csv_cells(text: str, separator: str) -> list[list[str]]:
    return [found for _, _, found in csv_records(text, separator)]


def cell_spans(text: str, start: int, end: int, separator: str) -> list[tuple[int, int]]:
    """Each cell's span in the record text[start:end], read the way the csv module reads the excel dialect."""
    stop = end
    while stop > start and text[stop - 1] in "\r\n":
        stop -= 1
    if stop == start:
        return []
    spans = []
    at = start
    while True:
        begin = at
        if at < stop and text[at] == QUOTE:
            at += 1
            while at < stop:
                if text[at] == QUOTE:
                    if at + 1 < stop and text[at + 1] == QUOTE:
                        at += 2
                        continue
                    at += 1
                    break
                at += 1
        while at < stop and text[at] != separator:
            at += 1
        spans.append((begin, at))
        if at >= stop:
            return spans
        at += 1


def text_of(text: str, start: int, end: int) -> str:
    """What the csv module reads from one cell's characters (a quoted part unquoted, doubled quotes halved)."""
    raw = text[start:end]
    if not raw.startswith(QUOTE):
        return raw
    out, at = [], 1
    while at < len(raw):
        if raw[at] == QUOTE:
            if raw[at + 1:at + 2] == QUOTE:
                out.append(QUOTE)
                at += 2
                continue
            return "".join(out) + raw[at + 1:]
        out.append(raw[at])
        at += 1
    return "".join(out)


def _plain(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def _cell_text(value: Any, separator: str) -> str:
    text = str(_plain(value))
    if any(c in text for c in (separator, QUOTE, "\r", "\n")) or text != text.strip():
        return QUOTE + text.replace(QUOTE, QUOTE * 2) + QUOTE
    return text
