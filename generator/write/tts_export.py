"""Tabletop Simulator files: the images of a plan (write/tts_plan.py) and the saved object.

A deck sheet is put together a strip (one row of cards) at a time by the Rasterizer
(write/raster.py) from face PNGs drawn at the sheet's resolution (drawing a face again at
165 dpi costs less than scaling its 300 dpi picture down); a die's texture is cut from the
same 300 dpi picture of its net as the PNG export.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from spellpress.layout.ops import FaceLayout
from spellpress.model.game import Game
from spellpress.write.atomic import atomic_folder
from spellpress.write.cache import digest
from spellpress.write.png import png_from_strips
from spellpress.write.raster import PNG_DPI, Rasterizer
from spellpress.write.tts_plan import DIE_GRID, DIE_PLACES, ImageFormat, TtsDeck, TtsOptions, TtsPlan, TtsTile
from spellpress.write.tts_save import saved_object

JPEG_QUALITY = 90


def prefetch_tts(plan: TtsPlan, raster: Rasterizer) -> None:
    """Start the deck strips, each as soon as the cards it shows are drawn, and the other pictures' faces."""
    for deck in plan.decks:
        for sheet in [*deck.sheets, *deck.back_sheets]:
            raster.prefetch_strips(sheet.jobs, deck.dpi)
    raster.prefetch((die.card.front for die in plan.dice), PNG_DPI)
    for tile in plan.tiles:
        raster.prefetch(_sides(tile), tile.dpi)


def write_tts_images(plan: TtsPlan, folder: Path, title: str, raster: Rasterizer, image_format: ImageFormat) -> None:
    """Every image of the plan, into `folder` (the TTS folder being written)."""
    encode = functools.partial(_encoded, raster=raster, image_format=image_format)
    for deck in plan.decks:
        for sheet in [*deck.sheets, *deck.back_sheets]:
            strips = raster.strips(sheet.jobs, deck.dpi, title)
            (folder / sheet.file).write_bytes(encode(png_from_strips(strips, deck.dpi)))
        if deck.back_file is None:
            continue
        back = raster.cache.bytes(
            "tts-backs", digest("tts-back", deck.dpi, deck.cell, deck.back_key),
            functools.partial(_trimmed_back, raster, deck, title))
        (folder / deck.back_file).write_bytes(encode(back))
    nets = raster.pngs((die.card.front for die in plan.dice), PNG_DPI, title)
    calls: list[tuple[str, tuple]] = []
    files = []
    for die in plan.dice:
        calls.append(("die_texture", (nets[die.card.front], die.bleed_px, die.faces_px, die.side,
                                      DIE_PLACES, DIE_GRID, die.dpi)))
        files.append(die.file)
    for tile in plan.tiles:
        pngs = raster.pngs(_sides(tile), tile.dpi, title)
        for face, name in ((tile.card.front, tile.front_file), (tile.card.back, tile.back_file)):
            if face is not None and name is not None:
                calls.append(("trimmed_png", (pngs[face], tile.bleed_px, tile.cell, tile.dpi)))
                files.append(name)
    for name, png in zip(files, raster.pixel_jobs(calls), strict=False):
        (folder / name).write_bytes(encode(png))


def _trimmed_back(raster: Rasterizer, deck: TtsDeck, title: str) -> bytes:
    return raster.pixel_jobs([("trimmed_png", (raster.png(deck.back, deck.dpi, title), deck.bleed_px, deck.cell, deck.dpi))])[0]


def _sides(tile: TtsTile) -> list[FaceLayout]:
    return [face for face in (tile.card.front, tile.card.back) if face is not None]


def _encoded(png: bytes, *, raster: Rasterizer, image_format: ImageFormat) -> bytes:
    if image_format == "png":
        return png
    key = digest("tts-jpeg", hashlib.sha256(png).hexdigest(), JPEG_QUALITY)
    return raster.cache.bytes("tts-jpeg", key, lambda: raster.pixel_jobs([("jpeg_from_png", (png, JPEG_QUALITY))])[0])


def write_tts(game: Game, plan: TtsPlan, folder: Path, raster: Rasterizer, options: TtsOptions) -> list[Path]:
    """tts/: the images of plan_tts and <game>.json, a saved object that lays them all on the table."""
    final = folder.resolve()

    def url(name: str) -> str:
        return f"{options.url.rstrip('/')}/{name}" if options.url else (final / name).as_uri()

    with atomic_folder(folder) as temporary:
        write_tts_images(plan, temporary, game.name, raster, options.image_format)
        save = saved_object(game, plan, url)
        (temporary / f"{game.id}.json").write_text(json.dumps(save, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return [folder / name for name in [*plan.files(), f"{game.id}.json"]]
