"""The raster exports of a build (exporters/: PNG, Tabletop Simulator, Tabletopia, Card Game
Simulator): planned and started before the PDFs, so that the workers draw while this process writes
them, and written after."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spellpress.layout.deck import CardFaces
from spellpress.model.game import Game
from spellpress.write.cache import Cache
from spellpress.write.raster import Rasterizer


class RasterExports:
    """Use as a context manager around the rest of the build; `chosen` holds each export (exporters.Export) with
    its settings, `options` is the build's BuildOptions."""

    def __init__(self, game: Game, laid: list[CardFaces], chosen: list[tuple[Any, Any]], options, cache: Cache):
        self.game = game
        self.plans = [(export, export.plan(game, laid, dict(settings))) for export, settings in chosen]
        self.raster = Rasterizer(cache, options.workers)

    def __enter__(self) -> RasterExports:
        self.raster.__enter__()
        for export, plan in self.plans:
            export.prefetch(plan, self.raster)
        return self

    def __exit__(self, kind, value, traceback) -> None:
        self.raster.__exit__(kind, value, traceback)

    def write(self, out: Path) -> list[Path]:
        """Each export's folder under the game's output folder (png/, tts/, ...), in the registry's order."""
        files: list[Path] = []
        for export, plan in self.plans:
            files += export.write(plan, out / export.name, self.game.name, self.raster)
        return files
