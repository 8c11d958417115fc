"""The raster exports, each one module of this package: PNG, Tabletop Simulator, Tabletopia, Card
Game Simulator. A module holds `EXPORT`, an `Export` that says the export's name, its command-line
options, its output folder and what of the options decides its bytes, with the functions that plan,
prefetch and write it. The command line (`--digital`), the build (write/exports.py) and the preview
page read `registry()`; a new export is a new module here and its tests (docs/exports.md).

A module is imported whenever the command line is built, so it imports only light modules at
its top; the drawing code (write/raster.py, numpy) is imported by the functions that use it.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from pathlib import Path

    from spellpress.layout.deck import CardFaces
    from spellpress.model.game import Game
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


_REGISTRY: dict[str, Export] = {}


def registry() -> dict[str, Export]:
    """Every export of this package, by name, in their `order` (then by name)."""
    if not _REGISTRY:
        found = [getattr(importlib.import_module(f"{__name__}.{info.name}"), "EXPORT", None)
                 for info in pkgutil.iter_modules(__path__)]
        for export in sorted((e for e in found if isinstance(e, Export)), key=lambda e: (e.order, e.name)):
            _REGISTRY[export.name] = export
    return _REGISTRY


def chosen(options) -> list[tuple[Export, dict[str, Any]]]:
    """The exports a build's options ask for, each with its settings."""
    settings = dict(options.export_settings)
    return [(export, settings.get(export.name, {})) for name, export in registry().items() if name in options.exports]
