"""`spellpress pull`: fetch every Google Sheets tab a game links in `cards_from:` into its snapshot.

Every linked tab is fetched before anything is written, so a failure leaves every snapshot as
it was. A tab whose CSV is unchanged keeps its snapshot untouched (no diff in git, no rebuild
in `serve`); `fetched` in the description is when the snapshot's content was fetched.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from spellpress.errors import Location, Problems, UserError, report_lines
from spellpress.load.google_fetch import FetchError, fetch_tab
from spellpress.load.google_sheet import SheetLink, content_hash, looks_like_link, parse_link, snapshot_paths
from spellpress.load.spreadsheet import SheetError, read_sheet
from spellpress.load.yamlsrc import read_yaml
from spellpress.paths import game_folders, inside
from spellpress.wording import plural
from spellpress.write.atomic import write_bytes, write_text


@dataclass(frozen=True)
class LinkedTab:
    component_file: Path
    link: SheetLink
    where: Location  # the cards_from: value


@dataclass(frozen=True)
class Pulled:
    tab: LinkedTab
    csv: Path
    changed: bool
    rows: int
    name: str  # the tab's name as Google gave it, or gid=N


def linked_tabs(folder: Path) -> list[LinkedTab]:
    """The Google Sheets tabs a game's component files link; a malformed link is a UserError."""

    problems = Problems()
    game = read_yaml(folder / "game.yaml")
    tabs = []
    components = game.data.get("components", []) if isinstance(game.data, dict) else []
    for index, relative in enumerate(components if isinstance(components, list) else []):
        try:
            path = inside(folder, relative, game.locate(("components", index)), "component file")
            doc = read_yaml(path)
        except UserError as exc:
            problems.extend(exc)
            continue
        source = doc.data.get("cards_from") if isinstance(doc.data, dict) else None
        text = source.get("file") if isinstance(source, dict) else source
        if not isinstance(text, str) or not looks_like_link(text):
            continue
        key = ("cards_from", "file") if isinstance(source, dict) else ("cards_from",)
        try:
            tabs.append(LinkedTab(path, parse_link(text), doc.locate(key)))
        except ValueError as exc:
            problems.add(doc.locate(key), str(exc))
    problems.raise_if_any()
    return tabs


def pull(folder: Path, fetch=None) -> list[Pulled]:
    """Fetch every linked tab, then write the snapshots of those that changed (all or none)."""

    fetch = fetch or fetch_tab
    problems = Problems()
    answers = []
    for tab in linked_tabs(folder):
        try:
            answers.append((tab, fetch(tab.link)))
        except FetchError as exc:
            problems.add(tab.where, f"cannot pull {tab.link.link}: {exc}")
    problems.raise_if_any()
    for tab, answer in answers:
        try:
            answer.data.decode("utf-8")
        except UnicodeDecodeError:
            problems.add(tab.where, f"cannot pull {tab.link.link}: the answer is not UTF-8 CSV")
    problems.raise_if_any()
    return [_saved(tab, answer) for tab, answer in answers]


def _saved(tab: LinkedTab, answer) -> Pulled:
    """The tab's snapshot, written when its content changed, and what it holds."""

    csv_path, json_path = snapshot_paths(tab.component_file)
    name = _tab_name(answer.filename)
    digest = content_hash(answer.data)
    changed = _recorded_hash(json_path) != digest or not csv_path.is_file()
    if changed:
        write_bytes(csv_path, answer.data)
        write_text(json_path, json.dumps({
            "link": tab.link.link, "spreadsheet": tab.link.spreadsheet, "gid": tab.link.gid, "tab": name,
            "download": answer.filename, "fetched": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "sha256": digest, "bytes": len(answer.data)}, indent=1, ensure_ascii=False) + "\n")
    try:
        rows = len(read_sheet(csv_path).rows)
    except SheetError:
        rows = 0  # said by check and build, at the snapshot's cells
    return Pulled(tab, csv_path, changed, rows, repr(name) if name else f"gid={tab.link.gid}")


def pull_changes(folder: Path) -> str | None:
    """One pull for serve --pull-every: a note when a tab changed or the pull failed, else None."""

    when = datetime.now(UTC).strftime("%H:%M:%S UTC")
    try:
        changed = [result.name for result in pull(folder) if result.changed]
    except UserError as exc:
        return f"pulling the Google Sheet failed at {when}: {report_lines(exc.problems)[0]}"
    return f"Google Sheet changed at {when} (tab {', '.join(changed)})" if changed else None


def _recorded_hash(json_path: Path) -> str | None:
    try:
        return str(json.loads(json_path.read_text(encoding="utf-8"))["sha256"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _tab_name(filename: str) -> str:
    """The tab's name from Google's download name, '<spreadsheet> - <tab>.csv' ('' if it is not that)."""
    stem = filename[:-4] if filename.lower().endswith(".csv") else ""
    return stem.rpartition(" - ")[2] if " - " in stem else ""


# -- the command ---------------------------------------------------------------------------
def register(commands) -> None:
    parser = commands.add_parser(
        "pull", help="fetch the Google Sheets a game's cards_from: links into snapshots beside their YAML",
        description="Fetch each Google Sheets tab linked in cards_from: as CSV into <component>.sheet.csv, with "
                    "<component>.sheet.json (the link, tab, time fetched and SHA-256). check, build and serve read "
                    "these snapshots and never the network. The sheet must be shared as 'Anyone with the link' or "
                    "published to the web.")
    parser.add_argument("games", nargs="*", metavar="GAME|PATH",
                        help="game ids under cards/ or game folders (default: the game whose folder you are in, else every game)")


def run_pull(args) -> int:

    problems = Problems()
    for folder in game_folders(args.games):
        started = time.perf_counter()
        try:
            results = pull(folder)
        except UserError as exc:
            problems.extend(exc)
            continue
        if not results:
            print(f"{folder.name}: no Google Sheets links in cards_from:")
            continue
        print(f"{folder.name}: {plural(len(results), 'tab')} in {time.perf_counter() - started:.2f} s")
        for result in results:
            state = "changed" if result.changed else "unchanged"
            print(f"  {result.csv}: tab {result.name}, {plural(result.rows, 'row')} ({state})")
    problems.raise_if_any()
    return 0
