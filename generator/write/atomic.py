"""Files appear whole or not at all: written beside their target, then renamed."""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """A temporary path to write; it replaces `target` only if the block succeeds."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(handle)
    try:
        yield Path(temporary)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_bytes(target: Path, data: bytes) -> None:
    with atomic_path(target) as temporary:
        temporary.write_bytes(data)


def write_text(target: Path, text: str) -> None:
    write_bytes(target, text.encode("utf-8"))


@contextmanager
def atomic_folder(target: Path) -> Iterator[Path]:
    """A temporary folder that replaces `target` whole when the block succeeds."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        yield temporary
        if target.exists():
            old = target.with_name(f".{target.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            os.replace(target, old)
            os.replace(temporary, target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(temporary, target)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
