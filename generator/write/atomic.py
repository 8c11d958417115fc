"""Files appear whole or not at all: written beside their target, then renamed.

Staging files and folders carry the writing process's id in their names, so a
later run can tell the leftovers of a killed run (whose process is gone) from the
work of a run still going, and clean them. What is written gets the usual mode
for the user's umask, as any other program's files would.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from spellpress.errors import Location, UserError

EXPORT_MARKER = ".spellpress-export"  # in every folder Spellpress writes whole; it replaces no other
_STAGING = re.compile(r"^\.(?P<name>.+)\.staging-(?P<pid>\d+)-")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _staging_prefix(target: Path) -> str:
    return f".{target.name}.staging-{os.getpid()}-"


def clean_stale_staging(folder: Path) -> None:
    """Remove what killed runs left behind in `folder`: staging files and folders of processes that are gone."""
    if not folder.is_dir():
        return
    for entry in folder.iterdir():
        match = _STAGING.match(entry.name)
        if match is None or _alive(int(match["pid"])):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def _cannot_write(target: Path, exc: OSError) -> UserError:
    reason = exc.strerror or str(exc)
    if target.is_dir():
        reason = "a folder of that name is in the way"
    return UserError.at(Location(target), f"cannot write here: {reason}; choose another --out or free the path")


@contextmanager
def atomic_path(target: Path, mode: int | None = None) -> Iterator[Path]:
    """A temporary path to write; it replaces `target` only if the block succeeds (with `mode`, else the
    umask's usual mode)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        clean_stale_staging(target.parent)
        handle, temporary = tempfile.mkstemp(prefix=_staging_prefix(target), suffix=".part", dir=target.parent)
    except OSError as exc:
        raise _cannot_write(target, exc) from None
    os.close(handle)
    try:
        yield Path(temporary)
        os.chmod(temporary, 0o666 & ~_umask() if mode is None else mode)
        os.replace(temporary, target)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise _cannot_write(target, exc) from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def remove_file(target: Path) -> None:
    """Remove a file if it is there; a path that cannot be touched is the user's to fix (exit 2)."""
    try:
        target.unlink(missing_ok=True)
    except OSError as exc:
        raise _cannot_write(target, exc) from None


def write_bytes(target: Path, data: bytes) -> None:
    with atomic_path(target) as temporary:
        temporary.write_bytes(data)


def write_text(target: Path, text: str) -> None:
    write_bytes(target, text.encode("utf-8"))


def refuse_foreign_folder(target: Path) -> None:
    """A folder Spellpress did not write (it has no marker) is never replaced."""
    if target.is_symlink() or (target.exists() and not (target / EXPORT_MARKER).is_file()):
        raise UserError.at(
            Location(target),
            f"'{target.name}' already exists and was not written by Spellpress (it has no {EXPORT_MARKER} file), "
            "so it is left alone: move it away or choose another --out",
        )


@contextmanager
def atomic_folder(target: Path) -> Iterator[Path]:
    """A temporary folder that replaces `target` whole when the block succeeds.

    Only a folder that Spellpress wrote (it carries EXPORT_MARKER) is ever replaced.
    """
    refuse_foreign_folder(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        clean_stale_staging(target.parent)
        temporary = Path(tempfile.mkdtemp(prefix=_staging_prefix(target), dir=target.parent))
    except OSError as exc:
        raise _cannot_write(target, exc) from None
    try:
        yield temporary
        (temporary / EXPORT_MARKER).write_text("written by spellpress; replaced whole by the next build\n")
        os.chmod(temporary, 0o777 & ~_umask())
        if target.exists():
            old = temporary.with_name(temporary.name + "-old")
            os.replace(target, old)
            os.replace(temporary, target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(temporary, target)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
