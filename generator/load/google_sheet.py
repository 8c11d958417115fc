"""A Google Sheet as a card source: the browser link in `cards_from:`, read from its snapshot.

`spellpress pull` (pull.py) fetches each linked tab as CSV into a snapshot beside the
component's YAML: `<yaml stem>.sheet.csv` with `<yaml stem>.sheet.json` saying which link and tab
it holds, when it was fetched and the CSV's SHA-256. `check`, `build` and `serve` read the
snapshot only, never the network: a build is offline, reproducible and its input diffable in git.
A mistake in the sheet's data is reported at the snapshot's row and column, with the tab and the
A1 cell and a link that opens that cell in the browser.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from spellpress.errors import Location, UserError
from spellpress.load.cells import column_letter
from spellpress.load.spreadsheet import CellLocation, Sheet, read_sheet

LINK = re.compile(r"https://docs\.google\.com/spreadsheets/d/(?P<id>[A-Za-z0-9_-]{10,100})(?:/[^?#\s]*)?"
                  r"(?:\?[^#\s]*)?(?:#(?P<fragment>\S*))?")
GID = re.compile(r"(?:^|[&?#])gid=(?P<gid>\d{1,12})(?:&|$)")
PULL = "run 'spellpress pull' in the game's folder (or 'spellpress pull GAME') to fetch it"


@dataclass(frozen=True)
class SheetLink:
    """A spreadsheet and one of its tabs (a gid; 0 is the first tab Google made)."""

    spreadsheet: str
    gid: str
    link: str  # as written in the YAML

    def cell_link(self, row: int, column: int) -> str:
        """The browser address that opens the spreadsheet at this cell (1-based row and column)."""
        return f"https://docs.google.com/spreadsheets/d/{self.spreadsheet}/edit#gid={self.gid}&range={column_letter(column)}{row}"


def looks_like_link(text: str) -> bool:
    return text.strip().lower().startswith(("http://", "https://"))


def parse_link(text: str) -> SheetLink:
    """The spreadsheet and tab of a browser link; ValueError says what a link should look like."""
    text = text.strip()
    match = LINK.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r} is not a Google Sheets link: copy the address of the tab from the browser, "
                         "https://docs.google.com/spreadsheets/d/<id>/edit#gid=<tab>")
    found = [GID.search(part) for part in (match.group("fragment") or "", text.partition("?")[2].partition("#")[0])]
    gid = next((m.group("gid") for m in found if m is not None), "0")
    return SheetLink(match.group("id"), gid, text)


def snapshot_paths(component_file: Path) -> tuple[Path, Path]:
    """The snapshot's CSV and its description, beside the component's YAML."""
    stem = component_file.with_suffix("")
    return stem.with_name(stem.name + ".sheet.csv"), stem.with_name(stem.name + ".sheet.json")


def content_hash(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class SheetCellLocation(CellLocation):
    """A cell of a snapshot: the snapshot's row and column, then the tab, the A1 cell and its link."""

    tab: str = ""
    link: str = ""

    def __str__(self) -> str:
        where = super().__str__()
        if not self.line:
            return f"{where} (tab {self.tab}: {self.link})"
        cell = f"{column_letter(self.column)}{self.line}"
        return f"{where} (tab {self.tab}, cell {cell}: {self.link})"


@dataclass(frozen=True)
class LinkedSheet(Sheet):
    """A snapshot's rows, whose cells are located in the Google Sheet too."""

    sheet_link: SheetLink | None = None
    tab: str = ""

    def cell(self, row: int, column: int) -> CellLocation:
        assert self.sheet_link is not None
        return SheetCellLocation(self.path, row, column + 1, self.tab, self.sheet_link.cell_link(row, column + 1))


def tab_name(description: dict, link: SheetLink) -> str:
    name = description.get("tab")
    return repr(name) if isinstance(name, str) and name else f"gid={link.gid}"


def read_linked_sheet(text: str, tab: str | None, where: Location) -> Sheet:
    """The cards of a linked tab, from its snapshot beside `where`'s file (the component's YAML);
    UserError (exit 2) when there is none or it is not this tab's."""
    if tab is not None:
        raise UserError.at(where, "a Google Sheets link names its tab itself (#gid=...): remove sheet:, "
                                  "and copy the link while the tab is open")
    try:
        link = parse_link(text)
    except ValueError as exc:
        raise UserError.at(where, str(exc)) from None
    csv_path, json_path = snapshot_paths(where.path)
    if not csv_path.is_file() or not json_path.is_file():
        raise UserError.at(where, f"the Google Sheet has no snapshot here yet ({csv_path.name}): {PULL}")
    try:
        description = json.loads(json_path.read_text(encoding="utf-8"))
        recorded = (description["spreadsheet"], str(description["gid"]), description["sha256"])
    except (OSError, ValueError, KeyError, TypeError):
        raise UserError.at(Location(json_path), f"not a snapshot description Spellpress wrote: {PULL} again") from None
    if recorded[:2] != (link.spreadsheet, link.gid):
        raise UserError.at(where, f"{csv_path.name} holds another sheet or tab (gid={recorded[1]}) than this link: {PULL} again")
    if content_hash(csv_path.read_bytes()) != recorded[2]:
        raise UserError.at(Location(csv_path), f"edited since it was pulled (its SHA-256 differs from {json_path.name}); "
                                               f"edit the Google Sheet and {PULL} again")
    sheet = read_sheet(csv_path)
    fields = {name: getattr(sheet, name) for name in Sheet.__dataclass_fields__}
    return LinkedSheet(**fields, sheet_link=link, tab=tab_name(description, link))
