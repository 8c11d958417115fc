"""A workbook's XML read by its tags (no XML parser: no entities, no external references): which
member holds a sheet, and where each cell of it is, placed as the reader places it."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass

from spellpress.load.cells import column_number


def attribute(tag: str, name: str) -> str | None:
    match = re.search(rf'\b{re.escape(name)}\s*=\s*"([^"]*)"', tag)
    return match.group(1) if match else None


def xlsx_sheet_member(members: dict[str, bytes], sheet: str | None) -> str | None:
    """The zip member of the sheet named `sheet` (the first sheet when None), as the workbook's relations say."""
    workbook = members.get("xl/workbook.xml", b"").decode("utf-8", "replace")
    sheets = re.findall(r"<(?:\w+:)?sheet\b[^>]*>", workbook)
    chosen = next((tag for tag in sheets if sheet is None or attribute(tag, "name") == sheet), None)
    if chosen is None:
        return None
    rel_id = attribute(chosen, "r:id") or attribute(chosen, "id")
    rels = members.get("xl/_rels/workbook.xml.rels", b"").decode("utf-8", "replace")
    for tag in re.findall(r"<(?:\w+:)?Relationship\b[^>]*>", rels):
        if attribute(tag, "Id") == rel_id and (target := attribute(tag, "Target")):
            return target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))
    return None


XLSX_TAG = re.compile(r"<(?:\w+:)?(row|c)\b([^>]*?)(/?)>")
XLSX_CELL_END = re.compile(r"</(?:\w+:)?c>")
REFERENCE = re.compile(r"([A-Za-z]{1,4})(\d{1,8})")


@dataclass(frozen=True)
class XlsxCell:
    row: int  # 1-based
    column: int  # 1-based
    attributes: str
    content: str  # the XML inside the cell ('' for <c .../>)


def xlsx_cells(xml: str, with_content: bool = True) -> Iterator[XlsxCell]:
    """Each cell of a worksheet, placed by its `r` ("B4"), or after the previous one when it has none."""
    row = 0
    column = 0
    for match in XLSX_TAG.finditer(xml):
        kind, attributes, empty = match.groups()
        reference = attribute(attributes, "r")
        if kind == "row":
            row = int(reference) if reference and reference.isdigit() else row + 1
            column = 0
            continue
        cell = REFERENCE.fullmatch(reference or "")
        if cell:
            column, row = column_number(cell.group(1)), int(cell.group(2))
        else:
            column += 1
        content = ""
        if with_content and not empty:
            end = XLSX_CELL_END.search(xml, match.end())
            content = xml[match.end():end.start()] if end else ""
        yield XlsxCell(row, column, attributes, content)


ODS_TAG = re.compile(r"<(/?)(table:table|table:table-row|table:table-cell|table:covered-table-cell|text:p)"
                     r"(?=[\s/>])([^>]*?)(/?)>")


@dataclass(frozen=True)
class OdsCell:
    row: int  # 0-based: rows above it
    column: int  # 0-based
    rows: int  # how often its row repeats
    columns: int  # how often it repeats along the row
    attributes: str
    covered: bool  # a table:covered-table-cell (under merged cells)
    filled: bool  # it has a value type or a paragraph of text


def ods_cells(xml: str, sheet: str | None) -> Iterator[OdsCell]:
    """Each cell of the table named `sheet` (the first table when None), with its repeats as written."""
    inside = False
    row = 0
    repeat_rows = 1
    column = 0
    pending: OdsCell | None = None  # a cell whose content (a paragraph?) is not read yet
    for match in ODS_TAG.finditer(xml):
        closing, name, attributes, empty = match.groups()
        if name == "table:table":
            if closing:
                if inside:
                    break
                continue
            inside = sheet is None or attribute(attributes, "table:name") == sheet
            row, column = 0, 0
            continue
        if not inside:
            continue
        if name == "text:p":
            if pending is not None and not closing:
                yield OdsCell(**{**pending.__dict__, "filled": True})
                pending = None
            continue
        if pending is not None:  # the cell closed (or the next began) without a paragraph
            yield pending
            pending = None
        if name == "table:table-row":
            if closing:
                row += repeat_rows
            else:
                repeat_rows = count_attribute(attributes, "table:number-rows-repeated")
                column = 0
                if empty:
                    row += repeat_rows
            continue
        if closing:
            continue
        repeats = count_attribute(attributes, "table:number-columns-repeated")
        cell = OdsCell(row, column, repeat_rows, repeats, attributes, name == "table:covered-table-cell",
                       attribute(attributes, "office:value-type") is not None)
        column += repeats
        if cell.filled or empty:
            yield cell
        else:
            pending = cell
    if pending is not None:
        yield pending


def count_attribute(attributes: str, name: str) -> int:
    """A repeat or span count such as table:number-columns-repeated (1 when absent)."""
    value = attribute(attributes, name)
    return int(value) if value and value.isdigit() else 1
