"""Where each record of a CSV file is written: the records the loader's reader finds, with their text spans.

`spreadsheet._csv_rows` numbers a CSV's records as `csv.reader` yields them, and a record may
span several physical lines (a quoted cell with a line break in it). A writer into the file
(`tune --apply`) finds a card's row by the same numbering: the reader is fed the same lines
and the characters it has taken so far mark where each record ends.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator


def csv_records(text: str, separator: str) -> list[tuple[int, int, list[str]]]:
    """(start, end, cells) of each record in `text` (a BOM already removed), in the loader's order:
    text[start:end] is the record with its line ending; a blank line is a record of no cells."""
    taken = 0

    def lines() -> Iterator[str]:
        nonlocal taken
        for line in io.StringIO(text, newline=""):  # the same lines the loader's reader is given
            taken += len(line)
            yield line

    records = []
    start = 0
    for cells in csv.reader(lines(), delimiter=separator):
        records.append((start, taken, cells))
        start = taken
    return records
