"""Tabletopia pictures: one image per card side, all of a component the same size, within 4000 px.

Tabletopia's guide for creators asks for each side of each component in a file of its own,
both sides and every component of a type exactly the same size in pixels, 10 pixels to the
millimetre by default and at most 4000 x 4000. Cards are trimmed of their bleed (a digital
table cuts nothing). A die (a net whose template names its face boxes) comes as its six faces,
`<die>-face1.png` ... `-face6.png`, what Tabletopia's custom dice take; small tiles and tokens are
drawn at 512 px on their longer side at least (write/fit.py). Tabletop Playground reads the TTS
saved object instead (docs/digital.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from spellpress.layout.deck import CardFaces
from spellpress.layout.die_net import die_face_rects
from spellpress.layout.ops import FaceLayout
from spellpress.model.game import Component, Game
from spellpress.units import MM_PER_INCH, mm_to_px
from spellpress.write.atomic import atomic_folder
from spellpress.write.fit import MAX_DPI, SMALL_PIECE_KINDS, fit_dpi, piece_dpi, trimmed_cell
from spellpress.write.raster import Rasterizer

MAX_PX = 4000
MIN_FACE_PX = 512  # a die face, at least (a 20 mm face at 300 dpi is 236 px)
DPI = round(10 * MM_PER_INCH)  # 10 pixels to the millimetre: 254 dpi


@dataclass(frozen=True)
class Picture:
    face: FaceLayout
    file: Path  # relative to tabletopia/
    crop: tuple[int, int, int, int] | None = None  # a die's face: x, y, w, h in pixels from the trim's top-left
    side: int = 0  # that face's pixels a side


@dataclass(frozen=True)
class ComponentPictures:
    component: Component
    dpi: int
    cell: tuple[int, int]
    bleed_px: int
    pictures: list[Picture]


def plan_tabletopia(game: Game, laid: list[CardFaces]) -> list[ComponentPictures]:
    """Per component: its pictures at one size; a shared back once, double-sided backs per card; a die's six faces."""
    plans = []
    for component_id in dict.fromkeys(f.component.id for f in laid):
        group = [f for f in laid if f.component.id == component_id]
        component, bleed = group[0].component, group[0].front.bleed
        dice = _die_faces(game, component, group)
        if dice is not None:
            plans.append(dice)
            continue
        cap = piece_dpi(component.kind, component.size) if component.kind in SMALL_PIECE_KINDS else DPI
        dpi = fit_dpi(1, 1, component.size, bleed, MAX_PX, cap)
        pictures = [Picture(f.front, Path(component_id) / f"{f.card.id}-front.png") for f in group]
        if component.back is not None and component.back.per_card:
            pictures += [Picture(f.back, Path(component_id) / f"{f.card.id}-back.png") for f in group if f.back is not None]
        elif group[0].back is not None:
            pictures.append(Picture(group[0].back, Path(component_id) / "back.png"))
        plans.append(ComponentPictures(component, dpi, trimmed_cell(component.size, bleed, dpi),
                                       mm_to_px(bleed, dpi), pictures))
    return plans


def _die_faces(game: Game, component: Component, group: list[CardFaces]) -> ComponentPictures | None:
    """A die's six faces, cut from its net drawn where a face is 512 px (300 dpi at least); None when it
    is not a die with face boxes."""
    if component.kind != "die":
        return None
    rects_of = [die_face_rects(game.templates[component.template], f.card.fields, component.size) for f in group]
    if any(rects is None for rects in rects_of):
        return None
    smallest = min(min(w, h) for rects in rects_of for _, _, w, h in rects or ())
    dpi = min(max(MAX_DPI, math.ceil(MIN_FACE_PX * MM_PER_INCH / smallest)), fit_dpi(1, 1, component.size, 0, MAX_PX, 2400))
    pictures = []
    for faces, rects in zip(group, rects_of, strict=False):
        for number, (x, y, w, h) in enumerate(rects or (), start=1):
            crop = (mm_to_px(x, dpi), mm_to_px(y, dpi), mm_to_px(w, dpi), mm_to_px(h, dpi))
            side = min(MAX_PX, max(crop[2], crop[3]))
            pictures.append(Picture(faces.front, Path(component.id) / f"{faces.card.id}-face{number}.png", crop, side))
    side = pictures[0].side
    return ComponentPictures(component, dpi, (side, side), mm_to_px(group[0].front.bleed, dpi), pictures)


def prefetch_tabletopia(plans: list[ComponentPictures], raster: Rasterizer) -> None:
    for plan in plans:
        raster.prefetch((picture.face for picture in plan.pictures), plan.dpi)


def write_tabletopia(plans: list[ComponentPictures], folder: Path, title: str, raster: Rasterizer) -> list[Path]:
    """tabletopia/<component>/<card>-front.png, -back.png (or one back.png for a shared back)."""
    calls: list[tuple[str, tuple]] = []
    files = []
    for plan in plans:
        pngs = raster.pngs((picture.face for picture in plan.pictures), plan.dpi, title)
        for picture in plan.pictures:
            if picture.crop is not None:  # a die's face, scaled to its side
                calls.append(("die_texture", (pngs[picture.face], plan.bleed_px, [picture.crop], picture.side,
                                              [(0, 0)], (1, 1), plan.dpi)))
            else:
                calls.append(("trimmed_png", (pngs[picture.face], plan.bleed_px, plan.cell, plan.dpi)))
            files.append(picture.file)
    with atomic_folder(folder) as temporary:
        for relative, png in zip(files, raster.pixel_jobs(calls), strict=False):
            (temporary / relative).parent.mkdir(parents=True, exist_ok=True)
            (temporary / relative).write_bytes(png)
    return [folder / relative for relative in files]
