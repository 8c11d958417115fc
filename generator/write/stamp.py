"""Up to date: a game whose files, options and outputs are unchanged since its last build is not built again.

It compares the content of every file in the game folder, the size and modification
time of every shared font, icon and template the game uses, the options, and the size
and modification time of every file the last build wrote. Anything changed, added or
removed means a build (which still takes what it can from the cache).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from generator import __version__
from generator.model.deck import Game
from generator.render.keys import RENDER_VERSION
from generator.write.atomic import write_text

STAMP = "stamp.json"


def _signature(path: Path) -> list:
    try:
        status = path.stat()
    except OSError:
        return [str(path), None]
    return [str(path), status.st_size, status.st_mtime_ns]


def inputs_digest(game: Game, options: object) -> str:
    """Everything a build of `game` with `options` reads, as a digest of names, sizes and times."""
    files = sorted(path for path in Path(game.root).rglob("*") if path.is_file())
    shared = sorted({Path(p) for p in (*game.fonts.values(), *game.icons.values(),
                                          *(t.location.path for t in game.templates.values()))} - set(files))
    digest = hashlib.sha256(repr((__version__, RENDER_VERSION, repr(options))).encode())
    for path in files:
        digest.update(f"{path}\n".encode())
        with open(path, "rb") as handle:
            digest.update(hashlib.file_digest(handle, "sha256").digest())
    for path in shared:
        digest.update(json.dumps(_signature(path)).encode())
    return digest.hexdigest()


def up_to_date(cache_root: Path | None, inputs: str) -> dict | None:
    """The last build's record if its inputs were these and its files are as it left them."""
    if cache_root is None:
        return None
    try:
        record = json.loads((cache_root / STAMP).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("inputs") != inputs:
        return None
    for name, size, mtime in record.get("outputs", []):
        if _signature(Path(name))[1:] != [size, mtime]:
            return None
    return record


def record(cache_root: Path | None, inputs: str, outputs: list[Path], pages: int) -> None:
    if cache_root is None:
        return
    entries = [_signature(path) for path in outputs]
    write_text(cache_root / STAMP, json.dumps({"inputs": inputs, "pages": pages, "outputs": entries}))


def output_files(record: dict) -> list[Path]:
    return [Path(name) for name, _, _ in record["outputs"]]

