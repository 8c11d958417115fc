"""Every export of a build, each one module of this package: the home-print sheets PDF, the
print-shop PDF, the print-shop presets (`--shop`) and the raster exports (PNG, Tabletop Simulator,
Tabletopia, Card Game Simulator). A module holds `EXPORT`: an `Export` (a raster export, drawn on
worker processes), a `PdfExport` (a PDF drawn in this process from the planned sheets) or a
`ShopExport` (a build of its own, as a print shop asks). Each says its name, its command-line
options and what of them decides its bytes, with the functions that write it. The command line,
the build (build.py, write/exports.py), the preview page and `spellpress shops` read `registry()`;
a new export is a new module here and its tests (docs/exports.md).

A module is imported whenever the command line is built, so it imports only light modules at
its top; the drawing code (write/raster.py, numpy) is imported by the functions that use it.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from spellpress.impose.sheets import Page, SheetSettings
    from spellpress.layout.deck import CardFaces
    from spellpress.model.game import Game
    from spellpress.write.cache import Cache
    from spellpress.write.canvas import DocumentInfo
    from spellpress.write.raster import Rasterizer


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def _no_settings(args: argparse.Namespace) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class Export:
    name: str  # `--digital NAME`, the output folder OUT/<game>/<name>/, the preview page's checkbox
    label: str  # the preview page's checkbox label
    summary: str  # one line for --digital's help and docs/exports.md
    plan: Callable[[Game, list[CardFaces], dict[str, Any]], Any]  # (game, laid cards, settings) -> a plan
    prefetch: Callable[[Any, Rasterizer], None]  # starts drawing what the plan needs, before the PDFs are written
    write: Callable[[Any, Path, str, Rasterizer], list[Path]]  # (plan, folder, title, raster) -> files written
    arguments: Callable[[argparse.ArgumentParser], None] = _no_arguments  # its own options of `build`
    settings: Callable[[argparse.Namespace], dict[str, Any]] = _no_settings  # those options, checked (UserError)
    cache_keys: tuple[str, ...] = field(default=())  # the settings that decide its bytes (faces are keyed by content)
    flag: str | None = None  # a flag of its own besides --digital NAME (--png, --tts)
    order: int = 100  # where it comes in --digital's choices, the preview's checkboxes and the build's files

    @property
    def key(self) -> str:
        """Its name as a Python identifier: the argparse destination of its flag, the preview's JSON key."""
        return self.name.replace("-", "_")


@dataclass(frozen=True)
class Sheets:
    """What a build has planned when it writes its PDFs: a `PdfExport` writes from it."""

    game: Game
    laid: list[CardFaces]
    pages: list[Page]
    settings: SheetSettings  # the sheets' print settings (the game's, with the command line's on top)
    paper: str  # the paper's name, as in <game>-<paper>.pdf
    info: DocumentInfo  # the PDFs' title, author and dates
    options: Any  # the build's BuildOptions
    cache: Cache
    out: Path  # the game's output folder


@dataclass(frozen=True)
class PdfExport:
    """A PDF drawn in this process from the planned sheets and laid-out faces, before the raster exports are
    written (they draw meanwhile): the home-print sheets, the print-shop PDF."""

    name: str  # the option's and the preview page's name (`print-shop`: --print-shop, "print_shop")
    label: str  # the preview page's checkbox label ("": always written, no checkbox)
    summary: str  # one line for its flag's help and docs/exports.md
    write: Callable[[Sheets, dict[str, Any]], list[Path]]  # (sheets, settings) -> files written, into sheets.out
    arguments: Callable[[argparse.ArgumentParser], None] = _no_arguments
    settings: Callable[[argparse.Namespace], dict[str, Any]] = _no_settings
    cache_keys: tuple[str, ...] = field(default=())
    flag: str | None = None  # its flag (--print-shop); None: written by every build
    order: int = 100
    modes: tuple[tuple[str, Any], ...] = ()  # (BuildOptions field, its Literal of names): the preview page's selects

    @property
    def key(self) -> str:
        """Its name as a Python identifier: the argparse destination of its flag, the preview's JSON key."""
        return self.name.replace("-", "_")


@dataclass(frozen=True)
class ShopExport:
    """A build of its own instead of the usual one (`build --shop NAME`): it decides every other export's
    options, so the command line refuses them beside it."""

    name: str
    summary: str
    arguments: Callable[[argparse.ArgumentParser], None]  # its options of `build`
    wanted: Callable[[argparse.Namespace], bool]  # whether the command line asks for it
    build: Callable[[argparse.Namespace], int]  # builds the games the command line names: the exit code
    refused: Callable[[argparse.Namespace], list[str]]  # options it would ignore, given (as flags), besides the other exports'
    unused: Callable[[argparse.Namespace], None]  # refuses its options given without it (UserError)
    order: int = 100


Entry = Export | PdfExport | ShopExport

_REGISTRY: dict[str, Entry] = {}


def registry() -> dict[str, Entry]:
    """Every export of this package, by name, in their `order` (then by name)."""
    if not _REGISTRY:
        found = [getattr(importlib.import_module(f"{__name__}.{info.name}"), "EXPORT", None)
                 for info in pkgutil.iter_modules(__path__)]
        entries = (e for e in found if isinstance(e, (Export, PdfExport, ShopExport)))
        for export in sorted(entries, key=lambda e: (e.order, e.name)):
            _REGISTRY[export.name] = export
    return _REGISTRY


def raster_exports() -> dict[str, Export]:
    """The raster exports (`--digital NAME`), by name."""
    return {name: e for name, e in registry().items() if isinstance(e, Export)}


def pdf_exports() -> dict[str, PdfExport]:
    return {name: e for name, e in registry().items() if isinstance(e, PdfExport)}


def shop_exports() -> dict[str, ShopExport]:
    return {name: e for name, e in registry().items() if isinstance(e, ShopExport)}


def optional() -> dict[str, Export | PdfExport]:
    """The exports a build adds when asked (the preview page's checkboxes): the raster ones and the flagged PDFs."""
    return {name: e for name, e in registry().items()
            if isinstance(e, Export) or (isinstance(e, PdfExport) and e.flag is not None)}


def chosen(options) -> list[tuple[Export, dict[str, Any]]]:
    """The raster exports a build's options ask for, each with its settings."""
    settings = dict(options.export_settings)
    return [(export, settings.get(export.name, {})) for name, export in raster_exports().items() if name in options.exports]


def chosen_pdfs(options) -> list[tuple[PdfExport, dict[str, Any]]]:
    """The PDFs a build writes: those written every time and those its options ask for, each with its settings."""
    settings = dict(options.export_settings)
    return [(export, settings.get(name, {})) for name, export in pdf_exports().items()
            if export.flag is None or name in options.exports]
