"""Word tables (and checks that passed) kept on disk between processes, so a fresh process does not redo them.

It imports nothing of Spellpress: loading a game (icon verdicts, load/icon_verdicts.py) uses it without
the word code.

A table (the anagram table, a skeleton table) is a function of its word list only: it is saved with
marshal under the user's cache folder, named by a digest of the words (and the table's own name
and format), so a changed word list, an edited word file or an allow/deny list gets its own
file and never reads a stale one. A list read from a file keeps its words' digest here too, under a
digest of the file's bytes and settings (Lexicon.digest), so that its tables are found without reading
the words. `SPELLPRESS_WORD_CACHE` names another folder, or `off` keeps
nothing on disk. A file that cannot be read is built again; one that cannot be written is skipped
(a read-only home still works, only slower). Files are written whole (a temporary file renamed).

The folder is kept under a size (`SPELLPRESS_WORD_CACHE_MB`, default LIMIT_MB): a table read is
marked used, and writing one that takes the folder over the size removes the least recently used
files until it is back under PRUNE_TO of it (so that the next writes do not prune again).
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from collections.abc import Callable, Iterable
from contextlib import suppress
from pathlib import Path
from typing import TypeVar

FORMAT = 2  # raise when a table's layout changes
LIMIT_MB = 256.0  # the shipped games' tables take about 16 MB; edited word lists and tune's variants add theirs
PRUNE_TO = 0.75
Table = TypeVar("Table")


def cache_folder() -> Path | None:
    """Where word tables are kept: $SPELLPRESS_WORD_CACHE, else the user's cache folder; None for `off`."""
    setting = os.environ.get("SPELLPRESS_WORD_CACHE", "")
    if setting == "off":
        return None
    if setting:
        return Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "spellpress" / "word-tables"


def words_digest(words: Iterable[str]) -> str:
    return hashlib.blake2b("\n".join(words).encode(), digest_size=16).hexdigest()


def is_digest(value: object) -> bool:
    """Whether a value read back is a digest words_digest could have made (32 hex digits)."""
    return isinstance(value, str) and len(value) == 32 and all(c in "0123456789abcdef" for c in value)


def cached(name: str, digest: str, build: Callable[[], Table], valid: Callable[[object], bool] | None = None) -> Table:
    """The table `name` of the word list with this digest: read from the cache folder, else built and kept.
    `valid` checks what was read (a value that fails it is built again, as a file that cannot be read is)."""
    folder = cache_folder()
    if folder is None:
        return build()
    path = folder / f"{name}-{FORMAT}-py{sys.version_info[0]}{sys.version_info[1]}-{digest}.marshal"
    try:
        found = marshal.loads(path.read_bytes())
        if valid is None or valid(found):
            with suppress(OSError):
                os.utime(path)  # used: the last to be pruned
            return found
    except (OSError, EOFError, ValueError, TypeError):
        pass
    table = build()
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(marshal.dumps(table))  # type: ignore[arg-type]  # dicts of str, tuple, frozenset
        os.replace(temporary, path)
    except (OSError, ValueError):
        with suppress(OSError):
            temporary.unlink(missing_ok=True)
        return table
    prune(folder, limit_bytes())
    return table


def limit_bytes() -> int:
    """The most the cache folder may hold: $SPELLPRESS_WORD_CACHE_MB megabytes (a number), else LIMIT_MB."""
    setting = os.environ.get("SPELLPRESS_WORD_CACHE_MB", "")
    try:
        megabytes = float(setting) if setting else LIMIT_MB
    except ValueError:
        megabytes = LIMIT_MB  # a cache setting is never worth stopping a run for
    return int(max(0.0, megabytes) * 1_000_000)


def prune(folder: Path, limit: int) -> list[Path]:
    """Remove the least recently used files of `folder` while it holds more than `limit` bytes, down to
    PRUNE_TO of it; the files removed. Files another process removes first are skipped."""
    entries = []
    with suppress(OSError):
        for entry in os.scandir(folder):
            with suppress(OSError):
                if entry.is_file(follow_symlinks=False):
                    stat = entry.stat(follow_symlinks=False)
                    entries.append((stat.st_mtime, stat.st_size, Path(entry.path)))
    total = sum(size for _, size, _ in entries)
    if total <= limit:
        return []
    removed = []
    for _, size, path in sorted(entries, key=lambda e: e[0]):
        if total <= limit * PRUNE_TO:
            break
        with suppress(OSError):
            path.unlink()
            removed.append(path)
        total -= size
    return removed


def known_good(kind: str, digest: str) -> bool:
    """Whether a check of this kind passed on an input with this digest (remember_good), in an earlier process."""
    folder = cache_folder()
    return folder is not None and (folder / f"{kind}-ok-{digest}").is_file()


def remember_good(kind: str, digest: str) -> None:
    """Keep that a check passed: an empty file named by the input's digest (nothing to read, nothing to damage)."""
    folder = cache_folder()
    if folder is None:
        return
    with suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{kind}-ok-{digest}").touch()
