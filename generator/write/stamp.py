"""Up to date: a game whose files, options and outputs are unchanged since its last build is not built again.

It compares the content of every file in the game folder, the size and modification
time of every shared font, icon and template the game uses, the options, and the size
and modification time of every file the last build wrote. Anything changed, added or
removed means a build (which still takes what it can from the cache).

The record is kept per game folder (OUT/.cache/stamps/<folder's digest>.json), so an
unchanged game is recognised before it is loaded: that is most of a rebuild after
one game's edit.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from spellpress import __version__
from spellpress.paths import SHARED_FONTS, SHARED_ICONS
from spellpress.render.keys import RENDER_VERSION
from spellpress.write.atomic import write_text
from spellpress.write.cache import CACHE_FOLDER

STAMPS = "stamps"


@dataclass(frozen=True)
class LastBuild:
    game_id: str
    cards: int
    pages: int
    files: list[Path]


def _signature(path: Path) -> list:
    try:
        status = path.stat()
    except OSError:
        return [str(path), None]
    return [str(path), status.st_size, status.st_mtime_ns]


def _stamp_path(out: Path, folder: Path) -> Path:
    key = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:32]
    return out / CACHE_FOLDER / STAMPS / f"{key}.json"


def _shared_files(folder: Path, templates: list[str]) -> list[Path]:
    """The shared files a game can draw with: every built-in font and icon, and its templates from outside it."""
    root = folder.resolve()
    shared = {*SHARED_FONTS.glob("*.ttf"), *SHARED_ICONS.glob("*.svg")}
    shared |= {Path(t) for t in templates if not Path(t).resolve().is_relative_to(root)}
    return sorted(shared)


def inputs_digest(folder: Path, templates: list[str], options: object) -> str:
    """Everything a build of the game in `folder` with `options` reads, as one digest: the game
    folder's files by content, the shared files by name, size and time, SOURCE_DATE_EPOCH."""
    files = sorted(path for path in Path(folder).rglob("*") if path.is_file())
    epoch = os.environ.get("SOURCE_DATE_EPOCH")  # the PDFs' date (write/metadata.py)
    digest = hashlib.sha256(repr((__version__, RENDER_VERSION, repr(options), epoch)).encode())
    for path in files:
        digest.update(f"{path}\n".encode())
        with open(path, "rb") as handle:
            digest.update(hashlib.file_digest(handle, "sha256").digest())
    for path in _shared_files(folder, templates):
        digest.update(json.dumps(_signature(path)).encode())
    return digest.hexdigest()


def up_to_date(out: Path, folder: Path, options: object) -> LastBuild | None:
    """The last build of `folder` into `out`, if it read what is there now and its files are as it left them."""
    try:
        record = json.loads(_stamp_path(out, folder).read_text())
        templates, outputs = list(record["templates"]), list(record["outputs"])
        last = LastBuild(str(record["game"]), int(record["cards"]), int(record["pages"]), [Path(o[0]) for o in outputs])
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None
    if record.get("inputs") != inputs_digest(folder, templates, options):
        return None
    for name, size, mtime in outputs:
        if _signature(Path(name))[1:] != [size, mtime]:
            return None
    return last


def forget(out: Path, folder: Path) -> None:
    """Drop the record before writing anything: a build stopped half-way is never taken as up to date."""
    try:
        _stamp_path(out, folder).unlink(missing_ok=True)
    except OSError:
        pass  # nothing there to forget (an output that cannot be written is reported when it is written)


def record(out: Path, folder: Path, inputs: str, templates: list[str], game_id: str, cards: int, pages: int,
           outputs: list[Path]) -> None:
    """Note what this build read (`inputs`, digested before it started) and wrote."""
    entries = [_signature(path) for path in outputs]
    write_text(_stamp_path(out, folder), json.dumps({
        "inputs": inputs, "templates": templates, "game": game_id,
        "cards": cards, "pages": pages, "outputs": entries}))
