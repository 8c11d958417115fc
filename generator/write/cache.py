"""The build cache: rendered faces, sheet strips and PDFs, addressed by what decides their bytes.

Entries live in OUT/.cache/<game>/<kind>/<key>. Each is written beside its place and
renamed into it, and carries a checksum of its bytes: an entry half-written by a crash
is never read (it is a miss, and is written again). After a build, entries of the kinds
it used that it did not use are removed, so the cache stays the size of one build.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

CACHE_FOLDER = ".cache"
FORMAT = b"SPC1"  # bump when an entry's layout changes
_CHECK = 32  # sha256 of the payload, after it


def digest(*parts: object) -> str:
    """A key from anything with a stable repr."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:40]


class Cache:
    """Content-addressed bytes; `Cache(None)` (--no-cache) stores nothing and always misses."""

    def __init__(self, root: Path | None):
        self.root = root
        self.used: dict[str, set[str]] = {}
        self.hits = 0
        self.misses = 0

    @classmethod
    def for_game(cls, out: Path, game_id: str, enabled: bool = True) -> Cache:
        return cls(out / CACHE_FOLDER / game_id if enabled else None)

    def _path(self, kind: str, key: str) -> Path:
        assert self.root is not None
        return self.root / kind / key

    def get(self, kind: str, key: str) -> bytes | None:
        if self.root is None:
            self.misses += 1
            return None
        self.used.setdefault(kind, set()).add(key)
        try:
            data = self._path(kind, key).read_bytes()
        except OSError:
            self.misses += 1
            return None
        payload, check = data[len(FORMAT) : -_CHECK], data[-_CHECK:]
        if not data.startswith(FORMAT) or hashlib.sha256(payload).digest() != check:
            self.misses += 1
            return None  # damaged or from another version: rendered and written again
        self.hits += 1
        return payload

    def put(self, kind: str, key: str, payload: bytes) -> None:
        if self.root is None:
            return
        self.used.setdefault(kind, set()).add(key)
        target = self._path(kind, key)
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{key}.", suffix=".part", dir=target.parent)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(FORMAT + payload + hashlib.sha256(payload).digest())
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def bytes(self, kind: str, key: str, make: Callable[[], bytes]) -> bytes:
        """The cached bytes, or `make()`'s, stored for next time."""
        found = self.get(kind, key)
        if found is None:
            found = make()
            self.put(kind, key, found)
        return found

    def sweep(self) -> None:
        """Remove entries of the kinds this build used that it did not use (and stray partial files)."""
        if self.root is None:
            return
        for kind, keys in self.used.items():
            folder = self.root / kind
            if not folder.is_dir():
                continue
            for path in folder.iterdir():
                if path.name not in keys:
                    path.unlink(missing_ok=True)
