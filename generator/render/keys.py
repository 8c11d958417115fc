"""Content addresses of faces: everything that decides a face's pixels, hashed.

A face's drawing operations already hold its fields resolved through the template,
its size, bleed and positions; the files it draws (fonts, icons, images) are
hashed by content, so editing an icon in place changes the key of every face that uses it.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache

from generator.layout.fonts import font_file
from generator.layout.ops import FaceLayout, Group, Icon, Image, Text

# bump when the drawing code changes what the same operations look like
RENDER_VERSION = "1"


@lru_cache(maxsize=4096)
def _digest(path: str, mtime_ns: int, size: int) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def file_digest(path: str) -> str:
    """sha256 of a file's bytes, remembered while its mtime and size stay the same."""
    try:
        status = os.stat(path)
    except OSError:
        return "missing"
    return _digest(path, status.st_mtime_ns, status.st_size)


def referenced_files(ops) -> set[str]:
    files: set[str] = set()
    for op in ops:
        if isinstance(op, (Icon, Image)):
            files.add(op.path)
        elif isinstance(op, Text):
            path = font_file(op.font)
            if path is not None:
                files.add(str(path))
        elif isinstance(op, Group):
            files |= referenced_files(op.ops)
    return files


def face_key(face: FaceLayout) -> str:
    """A hex digest that changes whenever anything the face's pixels depend on changes."""
    digest = hashlib.sha256(RENDER_VERSION.encode())
    digest.update(repr(face).encode())
    for path in sorted(referenced_files(face.ops)):
        digest.update(f"\n{path}={file_digest(path)}".encode())
    return digest.hexdigest()[:32]
