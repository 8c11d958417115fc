"""Guards around the study journal (OUT/<game>/<game>-tune.study, an Optuna journal file).

- One tune of a study at a time: a second run is refused at once, naming the running one's
  process (an advisory lock on <study>.run, which the system drops when a process dies, even by kill -9).
- A journal lock (<study>.lock, Optuna's) found while this run holds the study is one a killed run
  left: it is removed with a warning instead of waited on.
- An entry cut short (a full disk, a killed write) is dropped with a warning naming the file; damage
  anywhere else is an error naming the file's line and --fresh.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from spellpress.errors import Location, UserError, display_path

try:
    import fcntl
except ImportError:  # not on Windows: no lock there, as before
    fcntl = None  # type: ignore[assignment]

ENTRY_START = b'{"op_code"'  # every Optuna journal entry starts so


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


@contextmanager
def one_run(study: Path) -> Iterator[None]:
    """Hold the study for this run; another run of the same study is refused at once."""
    run = study.with_name(study.name + ".run")
    try:
        study.parent.mkdir(parents=True, exist_ok=True)
        handle = open(run, "a+", encoding="utf-8")
    except OSError as exc:
        raise UserError.at(Location(run), f"cannot write here: {exc.strerror}; choose another --out") from None
    with handle:
        if fcntl is not None:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.seek(0)
                pid = handle.read().strip()
                running = f" (process {pid})" if pid.isdigit() else ""
                raise UserError.at(Location(study), f"another tune of this study is running{running}; wait for it to "
                                                    "end, or give this one another --out") from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        _remove_stale_lock(study)
        yield  # the lock goes with the handle


def _remove_stale_lock(study: Path) -> None:
    lock = Path(str(study) + ".lock")
    if lock.is_symlink() or lock.exists():
        try:
            lock.unlink()
        except OSError as exc:
            raise UserError.at(Location(lock), f"a killed run left this lock and it cannot be removed ({exc.strerror}); "
                                               "remove it by hand") from None
        _warn(f"{display_path(lock)}: removed the journal lock a killed run left")


def mended(study: Path) -> None:
    """Drop an entry cut short; a merged line (a torn entry that later runs wrote after) keeps its whole entry."""
    from spellpress.write.atomic import write_bytes

    if not study.is_file():
        return
    data = study.read_bytes()
    lines = data.split(b"\n")
    kept: list[bytes] = []
    torn = bool(lines[-1])  # the last entry has no line end
    for number, line in enumerate(lines[:-1], start=1):
        if _entry(line):
            kept.append(line)
            continue
        start = line.rfind(ENTRY_START)
        if start > 0 and _entry(line[start:]):
            kept.append(line[start:])
            torn = True
            continue
        if number == len(lines) - 1 and not lines[-1]:  # the last line is the damaged one
            torn = True
            continue
        raise UserError.at(Location(study, number, 1), "the study journal is damaged at this line; start the study "
                                                    "over with --fresh")
    if torn:
        write_bytes(study, b"".join(line + b"\n" for line in kept))
        _warn(f"{display_path(study)}: the study's last entry was cut short (a full disk, or a killed run); it is dropped and "
              "the study resumes from the entries before it")


def _entry(line: bytes) -> bool:
    if not line.startswith(ENTRY_START):
        return False
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False
