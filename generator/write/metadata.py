"""A game's PDFs say what they are: its name as title, `designer:` as author, its description as
subject, and a date that is the same on every rebuild of the same sources: SOURCE_DATE_EPOCH when set
(reproducible-builds.org), else the time of the newest file in the game's folder."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path

from spellpress.errors import Option, UserError
from spellpress.model.game import Game
from spellpress.write.canvas import DocumentInfo

LAST_PDF_SECOND = 253402300799  # 9999-12-31 23:59:59 UTC: a PDF date has four digits for the year


def source_date_epoch() -> int | None:
    """SOURCE_DATE_EPOCH as whole seconds, None when unset; a UserError (exit 2) naming it when it is not a date
    a PDF can hold."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        return None
    if not re.fullmatch(r"[0-9]+", epoch.strip()) or int(epoch) > LAST_PDF_SECOND:
        raise UserError.at(Option("SOURCE_DATE_EPOCH"), "expected a whole number of seconds since 1970-01-01 UTC, "
                           f"at most {LAST_PDF_SECOND} (the end of 9999), not {epoch!r}")
    return int(epoch)


def source_date(folder: Path) -> datetime:
    """SOURCE_DATE_EPOCH, else the modification time of the newest file under `folder` (UTC, whole seconds);
    hidden files and folders (.git/, an editor's) are not sources."""
    seconds = source_date_epoch()
    if seconds is None:
        times = (path.stat().st_mtime for path in folder.rglob("*")
                 if path.is_file() and not any(part.startswith(".") for part in path.relative_to(folder).parts))
        seconds = int(max(times, default=0))
    return datetime.fromtimestamp(seconds, tz=UTC)


def document_info(game: Game, title: str | None = None) -> DocumentInfo:
    spec = game.spec
    return DocumentInfo(title=title or spec.name, author=spec.designer, subject=spec.description,
                        date=source_date(game.root))
