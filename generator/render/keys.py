"""Content addresses of faces: everything that decides a face's pixels, hashed.

A face's drawing operations already hold its fields resolved through the template,
its size, bleed and positions; the files it draws (fonts, icons, images) are
hashed by content, so editing an icon in place changes the key of every face that uses it.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from functools import lru_cache
from typing import assert_never

from spellpress import icon_library
from spellpress.layout.fonts import font_file
from spellpress.layout.ops import Ellipse, FaceLayout, Fill, Grid, Icon, Image, Line, Op, Rect, Text
from spellpress.layout.walk import walk
from spellpress.model.memo import memo_on

# bump when the drawing code changes what the same operations look like
RENDER_VERSION = "3"


@lru_cache(maxsize=4096)
def _digest(path: str, mtime_ns: int, size: int) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def file_digest(path: str) -> str:
    """sha256 of a file's bytes, remembered while its mtime and size stay the same."""
    if icon_library.is_library_path(path):  # drawn from the shipped library: its version decides the bytes
        return icon_library.VERSION
    try:
        status = os.stat(path)
    except OSError:
        return "missing"
    return _digest(path, status.st_mtime_ns, status.st_size)


def referenced_files(ops: Iterable[Op]) -> set[str]:
    """The files `ops` draw from: icons, images and the fonts' files."""
    files: set[str] = set()
    for op, _ in walk(ops):
        match op:
            case Icon() | Image():
                files.add(op.path)
            case Text():
                path = font_file(op.font)
                if path is not None:
                    files.add(str(path))
            case Fill() | Rect() | Ellipse() | Line() | Grid():
                pass
            case _:
                assert_never(op)
    return files


def face_key(face: FaceLayout) -> str:
    """A hex digest that changes whenever anything the face's pixels depend on changes
    (worked out once per face object, and kept on it)."""
    return memo_on(face, "face_key", None, lambda: _face_key(face))


def _face_key(face: FaceLayout) -> str:
    digest = hashlib.sha256(RENDER_VERSION.encode())
    digest.update(repr(face).encode())
    for path in sorted(referenced_files(face.ops)):
        digest.update(f"\n{path}={file_digest(path)}".encode())
    return digest.hexdigest()[:32]


def sheets_key(pages, title: str) -> str:
    """The sheets PDF's address: every page's marks, label and placed faces (by their keys)."""
    digest = hashlib.sha256(f"{RENDER_VERSION}\n{title}".encode())
    keys: dict[FaceLayout, str] = {}
    for page in pages:
        placed = [(keys.setdefault(p.face, face_key(p.face)), p.slot, p.side) for p in page.placed]
        digest.update(repr((page.kind, page.paper, page.marks, page.fold_y, page.label, placed, page.decor)).encode())
    return digest.hexdigest()[:40]


def faces_key(faces, title: str) -> str:
    """The address of a document of faces in order (None for a missing back)."""
    digest = hashlib.sha256(f"{RENDER_VERSION}\n{title}".encode())
    keys: dict[FaceLayout, str] = {}
    for face in faces:
        digest.update(b"-" if face is None else keys.setdefault(face, face_key(face)).encode())
    return digest.hexdigest()[:40]
