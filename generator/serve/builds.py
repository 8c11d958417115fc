"""Builds started from the preview page: the options it asked for, and the files the last one wrote."""

from __future__ import annotations

import io
import time
import zipfile
from pathlib import Path

from spellpress.build import BuildOptions, build
from spellpress.exporters import optional, pdf_exports
from spellpress.serve.preview import Preview


def chosen_modes(wanted: dict) -> dict:
    """Paper, backs and marks chosen on the page; empty means the game's own setting (ValueError if unknown)."""
    modes = {}
    for key in (name for export in pdf_exports().values() for name, _ in export.modes):
        value = wanted.get(key)
        if value in (None, ""):
            continue
        if not isinstance(value, str):
            raise ValueError(f"{key} must be a name such as a4, not {value!r}")
        modes[key] = value
    return modes


def build_options(wanted: dict, out: Path) -> BuildOptions:
    """The build the page asked for: {"png": true, "paper": "letter", ...} (ValueError if unknown)."""
    exports = tuple(name for name, export in optional().items() if wanted.get(export.key) is True)
    return BuildOptions(out=out, exports=exports, **chosen_modes(wanted))


def zipped(files: dict[str, Path]) -> bytes:
    """The built files in one ZIP, under the names the page lists; PNG, JPEG and PDF are stored as they are."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for name, path in sorted(files.items()):
            stored = path.suffix.lower() in (".png", ".jpg", ".jpeg", ".pdf")
            archive.write(path, name, compress_type=zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


class Downloads:
    """The files the last build of this session wrote, by the names the page lists: a URL never names a file by itself."""

    def __init__(self):
        self.game_id = ""
        self.files: dict[str, Path] = {}

    def run(self, preview: Preview, options: BuildOptions) -> tuple[list[str], float]:
        """Build the preview's game; the names of the files written and the seconds it took (UserError as build's)."""
        with preview.lock:  # the preview and a build share reportlab's and pdfium's global state
            started = time.perf_counter()
            result = build(preview.folder, options)
            seconds = time.perf_counter() - started
        game_out = (options.out / result.game_id).resolve()
        self.game_id = result.game_id
        self.files = {path.resolve().relative_to(game_out).as_posix(): path.resolve() for path in result.files}
        return list(self.files), seconds
