"""The raster exports of a build (PNG per card, Tabletop Simulator, Tabletopia): planned and started
before the PDFs, so that the workers draw while this process writes them, and written after."""

from __future__ import annotations

from pathlib import Path

from spellpress.layout.deck import CardFaces
from spellpress.model.game import Game
from spellpress.write.cache import Cache
from spellpress.write.cgs import plan_cgs, prefetch_cgs, write_cgs
from spellpress.write.raster import PNG_DPI, Rasterizer, write_pngs
from spellpress.write.tabletopia import plan_tabletopia, prefetch_tabletopia, write_tabletopia
from spellpress.write.tts_export import prefetch_tts, write_tts
from spellpress.write.tts_plan import TtsOptions, plan_tts


class RasterExports:
    """Use as a context manager around the rest of the build; `options` is the build's BuildOptions."""

    def __init__(self, game: Game, laid: list[CardFaces], options, cache: Cache):
        self.game, self.laid, self.png = game, laid, options.png
        self.tts = TtsOptions(options.tts_max_px, options.tts_format, options.tts_url)
        self.tts_plan = plan_tts(game, laid, self.tts) if options.tts else None
        self.tabletopia = plan_tabletopia(laid) if options.tabletopia else None
        self.cgs = plan_cgs(game, laid, options.digital_url) if options.cgs else None
        self.raster = Rasterizer(cache, options.workers)

    def __enter__(self) -> "RasterExports":
        self.raster.__enter__()
        if self.png:
            self.raster.prefetch((face for f in self.laid for face in (f.front, f.back) if face is not None), PNG_DPI)
        if self.tts_plan is not None:
            prefetch_tts(self.tts_plan, self.raster)
        if self.tabletopia is not None:
            prefetch_tabletopia(self.tabletopia, self.raster)
        if self.cgs is not None:
            prefetch_cgs(self.cgs, self.raster)
        return self

    def __exit__(self, kind, value, traceback) -> None:
        self.raster.__exit__(kind, value, traceback)

    def write(self, out: Path) -> list[Path]:
        """png/, tts/ and tabletopia/ under the game's output folder, as asked."""
        files: list[Path] = []
        if self.png:
            files += write_pngs(self.laid, out / "png", self.game.name, self.raster)
        if self.tts_plan is not None:
            files += write_tts(self.game, self.tts_plan, out / "tts", self.raster, self.tts)
        if self.tabletopia is not None:
            files += write_tabletopia(self.tabletopia, out / "tabletopia", self.game.name, self.raster)
        if self.cgs is not None:
            files += write_cgs(self.cgs, out / "cgs", self.game.name, self.raster)
        return files
