"""`spellpress tune --apply N`: write a candidate's values into the game's own files.

Only the values change, found where the loader found them: a YAML card by the node the loader's
own parser places at the card's line and column (tune/yaml_edit.py), a CSV card by the CSV
reader's record number (tune/csv_edit.py). Every other byte is kept: comments, order, style,
quoting, line endings, a BOM, the file's mode. The result is read back and must differ from the
file in exactly the edited values, the changed game is checked in a scratch copy, and each file
is replaced atomically only if it is still what was read (an edit saved meanwhile is never
overwritten). XLSX and ODS sheets, read-only files and values shared through YAML anchors are
refused: the values to change are named instead.
"""

from __future__ import annotations

import difflib
import math
import os
import re
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spellpress.errors import Location, Option, Problem, UserError, Where

APPLY = Option("--apply")
BOM = "\ufeff"
SNAPSHOT = ".sheet.csv"  # a linked Google Sheet's snapshot (load/google_sheet.py on main), beside its .sheet.json


@dataclass(frozen=True)
class Edit:
    path: Path  # the file to change
    where: Location  # the card as the loader located it (line 0 for a rules key)
    card_id: str  # "" for a rules key
    key: str  # the tune key
    field: str  # the YAML key (dotted under rules:) or CSV column
    value: Any


def edits_for(game, variant) -> list[Edit]:
    """Where each changed value lives: game.yaml's rules: map, a card in a component's YAML, or a sheet's row."""
    from spellpress.simulate.api import find_card

    found = []
    for key, value in variant:
        head, *path = key.split(".")
        if head == "rules":
            where = Location(game.root / "game.yaml")
            found.append(Edit(where.path, where, "", key, ".".join(path), value))
            continue
        component = game.component(path[0])
        card = find_card(component, path[1], key)
        found.append(Edit(card.location.path, card.location, card.id, key, path[2], value))
    return found


def read_text(path: Path) -> str:
    """The file as it is: its BOM and line endings kept (no newline translation)."""
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError.at(Location(path), f"not UTF-8 text ({exc.reason}); --apply edits UTF-8 files") from None
    except OSError as exc:
        raise UserError.at(Location(path), f"cannot read: {exc.strerror}") from None


def _yaml_text(path: Path, text: str, edits: list[Edit]) -> str:
    from spellpress.load.yamlsrc import parse_yaml
    from spellpress.tune.yaml_edit import Place, edited_yaml

    bom, body = (BOM, text[1:]) if text.startswith(BOM) else ("", text)
    places = [Place(e.key, (e.field,) if e.where.line else tuple(e.field.split(".")), e.value, e.where, e.card_id)
              for e in edits]
    after, changes = edited_yaml(body, places)
    expected = parse_yaml(body, path).data
    for data_path, value in changes:
        _set(expected, data_path, value)
    if not same_data(parse_yaml(after, path).data, expected):
        raise _unfaithful(edits)
    return bom + after


def _csv_text(path: Path, text: str, edits: list[Edit]) -> str:
    from spellpress.load.spreadsheet import csv_separator
    from spellpress.tune.csv_edit import Cell, csv_cells, edited_csv

    bom, body = (BOM, text[1:]) if text.startswith(BOM) else ("", text)
    separator = csv_separator(body)
    cells = [Cell(e.key, e.card_id, e.where.line, e.field, e.value) for e in edits]
    after, expected = edited_csv(body, separator, cells, Location(path))
    if csv_cells(after, separator) != expected:
        raise _unfaithful(edits)
    return bom + after


def _unfaithful(edits: list[Edit]) -> UserError:
    wanted = "; ".join(f"{e.key} = {e.value!r}" for e in edits)
    return UserError.at(edits[0].where, f"--apply cannot write these values here without changing anything else "
                                        f"({wanted}); change them by hand")


def _set(data: Any, path: tuple, value: Any) -> None:
    for part in path[:-1]:
        data = data[part]
    data[path[-1]] = value


def same_data(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (1, 1.0 and True are not the same value in a card)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_data(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_data(x, y) for x, y in zip(a, b, strict=False))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def new_texts(game, variant) -> dict[Path, tuple[str, str]]:
    """Each file the candidate changes: (its text now, its text after), BOM and line endings as in the file."""
    by_file: dict[Path, list[Edit]] = {}
    for edit in edits_for(game, variant):
        by_file.setdefault(edit.path, []).append(edit)
    texts = {}
    for path, edits in by_file.items():
        suffix = path.suffix.lower()
        if suffix not in (".yaml", ".yml", ".csv"):
            wanted = "; ".join(f"row {e.where.line} column {e.field} = {e.value}" for e in edits)
            raise UserError.at(APPLY, f"{path.name}: --apply writes YAML and CSV files only, not {suffix} sheets; "
                                      f"change these cells by hand: {wanted}")
        if path.name.endswith(SNAPSHOT) and path.with_name(path.name[: -len(".csv")] + ".json").exists():
            wanted = "; ".join(f"row {e.where.line} column {e.field} = {e.value}" for e in edits)
            raise UserError.at(APPLY, f"{path.name}: a snapshot of a Google Sheet, which the next `spellpress pull` "
                                      f"replaces; change these cells in the sheet, then pull: {wanted}")
        before = read_text(path)
        after = _csv_text(path, before, edits) if suffix == ".csv" else _yaml_text(path, before, edits)
        texts[path] = (before, after)
    return texts


def _inside(game, path: Path) -> Path:
    """The file's path inside the game folder (cards are never defined outside it)."""
    try:
        return path.resolve().relative_to(game.root.resolve())
    except ValueError:
        raise UserError.at(APPLY, f"{path}: not inside the game folder {game.root}; "
                                  "--apply changes the game's own files") from None


def _lines(text: str) -> list[str]:
    """The file's lines as a patch has them: split at \\n only (a CR or U+2028 stays inside its line)."""
    lines = text.split("\n")
    return [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])


def unified_diff(game, texts: dict[Path, tuple[str, str]]) -> str:
    parts: list[str] = []
    for path, (before, after) in texts.items():
        name = _inside(game, path)
        parts.extend(difflib.unified_diff(_lines(before), _lines(after),
                                          f"a/{game.root.name}/{name}", f"b/{game.root.name}/{name}"))
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in parts)


def stale_comments(game, texts: dict[Path, tuple[str, str]]) -> list[str]:
    """Comments beside a changed YAML value (on its line, or the comment lines right above it) that still mention
    the old value: 'word-rummy/game.yaml:31: comment mentions 6, now 4'. They describe the game as it was."""
    notes = []
    for path, (before, after) in texts.items():
        if path.suffix.lower() not in (".yaml", ".yml"):
            continue
        old_lines, new_lines = before.split("\n"), after.split("\n")
        opcodes = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes()
        for tag, i1, i2, j1, j2 in opcodes:
            if tag != "replace" or i2 - i1 != j2 - j1:
                continue
            for old_line, number in zip(old_lines[i1:i2], range(j1, j2), strict=False):
                old, new, end = _changed_span(old_line, new_lines[number])
                comments = [new_lines[number][end:]]
                above = number - 1
                while above >= 0 and new_lines[above].lstrip().startswith("#"):
                    comments.append(new_lines[above])
                    above -= 1
                mention = re.compile(rf"(?<![\w.]){re.escape(old)}(?![\w.])")
                if old and any("#" in c and mention.search(c[c.index("#"):]) for c in comments):
                    notes.append(f"{game.root.name}/{_inside(game, path)}:{number + 1}: comment mentions {old}, now {new}")
    return notes


def _changed_span(old: str, new: str) -> tuple[str, str, int]:
    """The differing words of two lines (a whole number, not its last digit): (old, new, where the new one ends)."""
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    tail = 0
    while tail < min(len(old), len(new)) - start and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    word = re.compile(r"[\w.+-]")
    while start > 0 and word.match(old[start - 1]):
        start -= 1
    while tail > 0 and word.match(old[len(old) - tail]):
        tail -= 1
    return old[start:len(old) - tail], new[start:len(new) - tail], len(new) - tail


def checked_in_scratch(game, texts: dict[Path, tuple[str, str]]) -> None:
    """Load and check the changed game in a scratch copy of its folder: a UserError if `check` would fail."""
    from spellpress.build import check

    with tempfile.TemporaryDirectory(prefix="spellpress-apply-") as scratch:
        copy = Path(scratch) / game.root.name
        shutil.copytree(game.root, copy)
        for path, (_, after) in texts.items():
            (copy / _inside(game, path)).write_bytes(after.encode("utf-8"))
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


def _writable(path: Path) -> None:
    """A read-only file is the user's way of saying 'leave it': refused, not replaced."""
    target = path.resolve()
    if not os.access(target, os.W_OK) or not target.stat().st_mode & 0o222:  # root may write anywhere
        raise UserError.at(Location(path), "the file is read-only; --apply leaves it as it is (make it writable "
                                            "to apply, or change the values by hand)")


def _unchanged(path: Path, before: str) -> None:
    """Compare before the swap: an edit saved since the file was read is never overwritten."""
    try:
        now = path.resolve().read_bytes()
    except OSError:
        now = b""
    if now != before.encode("utf-8"):
        raise UserError.at(Location(path), "the file changed while --apply was checking the game; nothing was "
                                           "written to it: run --apply again")


def apply(game, variant) -> dict[Path, tuple[str, str]]:
    """Write the candidate into the game's files: checked first; each file replaced atomically if unchanged."""
    from spellpress.write.atomic import atomic_path

    texts = new_texts(game, variant)
    for path in texts:
        _writable(path)
    checked_in_scratch(game, texts)
    for path, (before, _) in texts.items():
        _unchanged(path, before)
    for path, (before, after) in texts.items():
        target = path.resolve()  # a link to the file stays a link
        with atomic_path(target, mode=stat.S_IMODE(target.stat().st_mode)) as temporary:
            temporary.write_bytes(after.encode("utf-8"))
            _unchanged(path, before)
    return texts
