"""`spellpress tune --apply N`: write a candidate's values into the game's own files.

Only the values change: YAML goes through ruamel.yaml's round trip (comments, key order,
flow or block style and quoting are kept), a CSV sheet has only its cells rewritten (every
other line is kept byte for byte). The changed game is checked in a scratch copy before
anything is written, then each file is replaced atomically. XLSX and ODS sheets are refused:
the values to change are named instead.
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spellpress.errors import Location, Option, Problem, UserError, Where

APPLY = Option("--apply")


@dataclass(frozen=True)
class Edit:
    path: Path  # the file to change
    line: int  # 1-based line of the card (0 for a rules key)
    key: str  # the --vary key
    field: str  # the YAML key or CSV column
    value: Any


def edits_for(game, variant) -> list[Edit]:
    """Where each changed value lives: game.yaml's rules: map, a card in a component's YAML, or a sheet's row."""
    from spellpress.simulate.variants import _find_card

    found = []
    for key, value in variant:
        head, *path = key.split(".")
        if head == "rules":
            found.append(Edit(game.root / "game.yaml", 0, key, ".".join(path), value))
            continue
        component = game.component(path[0])
        card = _find_card(component, path[1], key)
        found.append(Edit(card.location.path, card.location.line, key, path[2], value))
    return found


def _yaml_text(path: Path, edits: list[Edit]) -> str:
    """The file with only the edited scalars rewritten (or a missing key added to its mapping).

    ruamel.yaml composes the file with the position of every node; the new values are spliced
    in at those positions, so comments, order, style and every other byte stay as they were.
    """
    from ruamel.yaml import YAML

    text = path.read_text(encoding="utf-8")
    root = YAML().compose(text)
    splices: list[tuple[int, int, str]] = []
    for edit in edits:
        if edit.line == 0:
            *parents, last = edit.field.split(".")
            mapping = _value(root, "rules")
            for part in parents:
                mapping = _value(mapping, part) if mapping is not None else None
            where = Location(path, 1)
        else:
            cards = _value(root, "cards")
            mapping = next((c for c in (cards.value if cards is not None else []) if c.start_mark.line + 1 == edit.line), None)
            last, where = edit.field, Location(path, edit.line)
        if mapping is None or type(mapping).__name__ != "MappingNode":
            raise UserError.at(where, f"{edit.key}: --apply cannot find where this value is written")
        node = _value(mapping, last)
        if node is None:
            splices.append(_insertion(text, mapping, last, _scalar(edit.value, None)))
        elif type(node).__name__ != "ScalarNode":
            raise UserError.at(where, f"{edit.key}: the file has a list or map there, not a value")
        else:
            splices.append((node.start_mark.index, node.end_mark.index, _scalar(edit.value, node.style)))
    for start, end, new in sorted(splices, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _value(mapping, key: str):
    for key_node, value_node in getattr(mapping, "value", []):
        if str(key_node.value) == key:
            return value_node
    return None


def _scalar(value: Any, style: str | None) -> str:
    """A value as YAML writes it, in the quoting the old value had."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    if style == "'":
        return "'" + text.replace("'", "''") + "'"
    if style == '"' or not re.fullmatch(r"[A-Za-z][\w.-]*(?: [\w.-]+)*", text) or text.lower() in YAML_WORDS:
        return json.dumps(text, ensure_ascii=False)
    return text


YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n"}


def _insertion(text: str, mapping, key: str, value: str) -> tuple[int, int, str]:
    """A new `key: value` at the end of a mapping: `, key: value` inside braces, else a line below its last key."""
    if mapping.flow_style:
        close = mapping.end_mark.index - 1
        while close > 0 and text[close - 1] in " \t":
            close -= 1
        return close, close, f", {key}: {value}"
    last_key, last_value = mapping.value[-1]
    end = text.find("\n", last_value.end_mark.index - 1)
    end = len(text) if end < 0 else end
    return end, end, "\n" + " " * last_key.start_mark.column + f"{key}: {value}"


def _csv_text(path: Path, edits: list[Edit]) -> str:
    raw = path.read_bytes().decode("utf-8-sig" if path.read_bytes().startswith(b"\xef\xbb\xbf") else "utf-8")
    lines = raw.splitlines(keepends=True)
    dialect = csv.Sniffer().sniff(lines[0]) if lines else csv.excel
    header = next(csv.reader([lines[0]], dialect))
    for edit in edits:
        if edit.field not in header:
            raise UserError.at(Location(path, 1), f"{edit.key}: the sheet has no column {edit.field!r}; "
                                                  f"add it (columns: {', '.join(header)})")
        index = edit.line - 1
        ending = lines[index][len(lines[index].rstrip("\r\n")):]
        row = next(csv.reader([lines[index]], dialect))
        row[header.index(edit.field)] = str(edit.value)
        cell = io.StringIO()
        csv.writer(cell, delimiter=dialect.delimiter, quotechar=dialect.quotechar, lineterminator="").writerow(row)
        lines[index] = cell.getvalue() + ending
    return "".join(lines)


def new_texts(game, variant) -> dict[Path, tuple[str, str]]:
    """Each file the candidate changes: (its text now, its text after)."""
    by_file: dict[Path, list[Edit]] = {}
    for edit in edits_for(game, variant):
        by_file.setdefault(edit.path, []).append(edit)
    texts = {}
    for path, edits in by_file.items():
        suffix = path.suffix.lower()
        if suffix in (".yaml", ".yml"):
            after = _yaml_text(path, edits)
        elif suffix == ".csv":
            after = _csv_text(path, edits)
        else:
            wanted = "; ".join(f"row {e.line} column {e.field} = {e.value}" for e in edits)
            raise UserError.at(APPLY, f"{path.name}: --apply writes YAML and CSV files only, not {suffix} sheets; "
                                      f"change these cells by hand: {wanted}")
        texts[path] = (path.read_text(encoding="utf-8-sig"), after)
    return texts


def _inside(game, path: Path) -> Path:
    """The file's path inside the game folder (cards are never defined outside it)."""
    try:
        return path.resolve().relative_to(game.root.resolve())
    except ValueError:
        raise UserError.at(APPLY, f"{path}: not inside the game folder {game.root}; --apply changes the game's own files") from None


def unified_diff(game, texts: dict[Path, tuple[str, str]]) -> str:
    parts: list[str] = []
    for path, (before, after) in texts.items():
        name = _inside(game, path)
        parts.extend(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                          f"a/{game.root.name}/{name}", f"b/{game.root.name}/{name}"))
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in parts)


def checked_in_scratch(game, texts: dict[Path, tuple[str, str]]) -> None:
    """Load and check the changed game in a scratch copy of its folder: a UserError if `check` would fail."""
    from spellpress.build import check

    with tempfile.TemporaryDirectory(prefix="spellpress-apply-") as scratch:
        copy = Path(scratch) / game.root.name
        shutil.copytree(game.root, copy)
        for path, (_, after) in texts.items():
            (copy / _inside(game, path)).write_text(after, encoding="utf-8")
        try:
            changed = check(copy)
            if changed.spec.rules.get("engine") is not None:
                from spellpress.rules.plugins import check_engine

                check_engine(changed)
        except UserError as exc:  # blame the game's own file, not the scratch copy
            raise UserError([Problem(_moved(p.location, copy, game.root), f"after --apply: {p.message}")
                             for p in exc.problems]) from None


def _moved(location: Where, scratch: Path, root: Path) -> Where:
    if not isinstance(location, Location):
        return location
    try:
        return Location(root / location.path.resolve().relative_to(scratch.resolve()), location.line, location.column)
    except ValueError:
        return location


def apply(game, variant) -> dict[Path, tuple[str, str]]:
    """Write the candidate into the game's files (checked first; each file replaced atomically)."""
    from spellpress.write.atomic import write_text

    texts = new_texts(game, variant)
    checked_in_scratch(game, texts)
    for path, (_, after) in texts.items():
        write_text(path, after)
    return texts
