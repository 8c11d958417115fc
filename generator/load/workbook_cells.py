"""What a workbook's grid of values does not say about its cells: a formula whose value was never
saved, and a cell covered by merged cells. Read from the sheet's XML (already inflated and
size-checked by workbook_bounds), as the reader leaves both as an empty cell.

A spreadsheet program saves each formula's last result beside it (XLSX `<v>`, ODS `office:value`);
a file written by a script (openpyxl, odfpy) holds the formula alone. Merged cells keep their
value in the first cell of the range; the others are empty in the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import unescape

from spellpress.load.cells import column_letter, column_number
from spellpress.load.workbook_xml import REFERENCE, attribute, count_attribute, ods_cells, xlsx_cells, xlsx_sheet_member
from spellpress.model.limits import MAX_SHEET_CELLS

Position = tuple[int, int]  # (1-based row, 0-based column), as Sheet.cell takes them


@dataclass(frozen=True)
class CellNotes:
    unsaved_formulas: dict[Position, str] = field(default_factory=dict)  # the formula as typed ('=B4*2'; '' if shared)
    merged_over: dict[Position, str] = field(default_factory=dict)  # a cell under merged cells, not their first -> 'A2:A3'

    def why_empty(self, row: int, column: int) -> tuple[str, str] | None:
        """Why the cell reads as empty though something was put there: (kind, what is wrong), or None.
        The advice for each kind is ADVICE[kind]."""
        position = (row, column)
        if position in self.unsaved_formulas:
            formula = self.unsaved_formulas[position]
            shown = f" ({formula})" if formula else ""
            return "formula", f"this cell holds a formula{shown} whose value was never saved"
        if position in self.merged_over:
            merged = self.merged_over[position]
            return "merged", f"this cell is covered by the merged cells {merged}, whose value is in {merged.split(':')[0]} alone"
        return None


ADVICE = {"formula": "open and save the file in a spreadsheet program, or type the value",
          "merged": "unmerge the cells and type the value in each"}

MAX_FORMULA_SHOWN = 40


def workbook_notes(members: dict[str, bytes], suffix: str, sheet: str | None, rows: int, columns: int) -> CellNotes:
    """The notes for the cells of `sheet` within its used range (rows x columns from A1)."""
    if suffix == ".ods":
        xml = members.get("content.xml", b"").decode("utf-8", "replace")
        if "table:formula" not in xml and "-spanned" not in xml:  # the usual sheet of typed values: no walk
            return CellNotes()
        formulas, ranges = _ods_notes(xml, sheet, rows, columns)
    else:
        name = xlsx_sheet_member(members, sheet)
        xml = members.get(name, b"").decode("utf-8", "replace") if name else ""
        formulas = _xlsx_unsaved_formulas(xml, rows, columns) if ANY_FORMULA.search(xml) else {}
        ranges = [found for reference in MERGE_CELL.findall(xml) if (found := _range(reference)) is not None]
    return CellNotes(formulas, _covered(ranges, rows, columns))


Range = tuple[int, int, int, int]  # top row (1-based), left column (0-based), bottom row, right column


def _covered(ranges: list[Range], rows: int, columns: int) -> dict[Position, str]:
    """Every cell of each merged range but its first, within the used range (and a bounded count of them)."""
    covered: dict[Position, str] = {}
    budget = MAX_SHEET_CELLS  # overlapping ranges in a hostile file could ask for far more visits than cells
    for top, left, bottom, right in ranges:
        name = f"{column_letter(left + 1)}{top}:{column_letter(right + 1)}{bottom}"
        for row in range(top, min(bottom, rows) + 1):
            for column in range(left, min(right, columns - 1) + 1):
                if (row, column) != (top, left):
                    covered.setdefault((row, column), name)
            budget -= right - left + 1
            if budget < 0:
                return covered
    return covered


def shown_formula(text: str) -> str:
    """A formula as a person types it: '=B4*2' (ODS 'of:=[.B4]*2' too), cut to a readable length."""
    text = unescape(text).strip()
    text = re.sub(r"^(?:of|oooc|msoxl):", "", text)  # ODS's formula-language prefix
    text = re.sub(r"\[\$?'?[^\].]*'?\.([^\]]*)\]", r"\1", text)  # ODS [Sheet.B4] / [.B4:.B6] -> B4 / B4:.B6
    text = text.replace(":.", ":")
    if not text.startswith("="):
        text = "=" + text
    return text if len(text) <= MAX_FORMULA_SHOWN else text[:MAX_FORMULA_SHOWN] + "..."


MERGE_CELL = re.compile(r'<(?:\w+:)?mergeCell\b[^>]*?\bref="([A-Za-z]{1,4}\d{1,8}(?::[A-Za-z]{1,4}\d{1,8})?)"')
ANY_FORMULA = re.compile(r"<(?:\w+:)?f[\s>/]")
XLSX_FORMULA = re.compile(r"<(?:\w+:)?f\b[^>]*?(?:/>|>(.*?)</(?:\w+:)?f>)", re.S)
XLSX_VALUE = re.compile(r"<(?:\w+:)?v>(.*?)</(?:\w+:)?v>", re.S)


def _xlsx_unsaved_formulas(xml: str, rows: int, columns: int) -> dict[Position, str]:
    found: dict[Position, str] = {}
    for cell in xlsx_cells(xml):
        if cell.row > rows or cell.column > columns or "<" not in cell.content:
            continue
        formula = XLSX_FORMULA.search(cell.content)
        if formula is None:
            continue
        value = XLSX_VALUE.search(cell.content)
        # a formula whose result is empty text is saved as t="str" with an empty <v>: that is a value
        if (value is None or not value.group(1)) and attribute(cell.attributes, "t") != "str":
            found[(cell.row, cell.column - 1)] = shown_formula(formula.group(1)) if formula.group(1) else ""
    return found


def _range(reference: str) -> Range | None:
    first, _, last = reference.partition(":")
    start, end = REFERENCE.fullmatch(first), REFERENCE.fullmatch(last or first)
    if not start or not end:
        return None
    top, bottom = sorted((int(start.group(2)), int(end.group(2))))
    left, right = sorted((column_number(start.group(1)) - 1, column_number(end.group(1)) - 1))
    return top, left, bottom, right


def _ods_notes(xml: str, sheet: str | None, rows: int, columns: int) -> tuple[dict[Position, str], list[Range]]:
    """The unsaved formulas and the merged ranges of the sheet: a formula with no value type, a cell
    that spans rows or columns."""
    formulas: dict[Position, str] = {}
    ranges: list[Range] = []
    for cell in ods_cells(xml, sheet):
        if cell.covered or cell.row >= rows or cell.column >= columns:
            continue
        span_rows = count_attribute(cell.attributes, "table:number-rows-spanned")
        span_columns = count_attribute(cell.attributes, "table:number-columns-spanned")
        if (span_rows, span_columns) != (1, 1):
            ranges.append((cell.row + 1, cell.column, cell.row + span_rows, cell.column + span_columns - 1))
        formula = attribute(cell.attributes, "table:formula")
        if formula is not None and attribute(cell.attributes, "office:value-type") is None:
            for row in range(cell.row + 1, min(cell.row + cell.rows, rows) + 1):
                for column in range(cell.column, min(cell.column + cell.columns, columns)):
                    formulas[(row, column)] = shown_formula(formula)
    return formulas, ranges

