"""Tabletopia pictures: one image per card side, all of a component the same size, within 4000 px.

Tabletopia's guide for creators asks for each side of each component in a file of its own,
both sides and every component of a type exactly the same size in pixels, 10 pixels to the
millimetre by default and at most 4000 x 4000. Cards are trimmed of their bleed (a digital
table cuts nothing). Tabletop Playground reads the TTS saved object instead (docs/digital.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from spellpress.layout.deck import CardFaces
from spellpress.layout.ops import FaceLayout
from spellpress.model.game import Component
from spellpress.units import MM_PER_INCH, mm_to_px
from spellpress.write.atomic import atomic_folder
from spellpress.write.fit import fit_dpi, trimmed_cell
from spellpress.write.raster import Rasterizer

MAX_PX = 4000
DPI = round(10 * MM_PER_INCH)  # 10 pixels to the millimetre: 254 dpi


@dataclass(frozen=True)
class Picture:
    face: FaceLayout
    file: Path  # relative to tabletopia/


@dataclass(frozen=True)
class ComponentPictures:
    component: Component
    dpi: int
    cell: tuple[int, int]
    bleed_px: int
    pictures: list[Picture]


def plan_tabletopia(laid: list[CardFaces]) -> list[ComponentPictures]:
    """Per component: its pictures at one size; a shared back once, double-sided backs per card."""
    plans = []
    for component_id in dict.fromkeys(f.component.id for f in laid):
        group = [f for f in laid if f.component.id == component_id]
        component, bleed = group[0].component, group[0].front.bleed
        dpi = min(DPI, fit_dpi(1, 1, component.size, bleed, MAX_PX))
        pictures = [Picture(f.front, Path(component_id) / f"{f.card.id}-front.png") for f in group]
        if component.back is not None and component.back.per_card:
            pictures += [Picture(f.back, Path(component_id) / f"{f.card.id}-back.png") for f in group if f.back is not None]
        elif group[0].back is not None:
            pictures.append(Picture(group[0].back, Path(component_id) / "back.png"))
        plans.append(ComponentPictures(component, dpi, trimmed_cell(component.size, bleed, dpi),
                                       mm_to_px(bleed, dpi), pictures))
    return plans


def prefetch_tabletopia(plans: list[ComponentPictures], raster: Rasterizer) -> None:
    for plan in plans:
        raster.prefetch((picture.face for picture in plan.pictures), plan.dpi)


def write_tabletopia(plans: list[ComponentPictures], folder: Path, title: str, raster: Rasterizer) -> list[Path]:
    """tabletopia/<component>/<card>-front.png, -back.png (or one back.png for a shared back)."""
    calls, files = [], []
    for plan in plans:
        pngs = raster.pngs((picture.face for picture in plan.pictures), plan.dpi, title)
        for picture in plan.pictures:
            calls.append(("trimmed_png", (pngs[picture.face], plan.bleed_px, plan.cell, plan.dpi)))
            files.append(picture.file)
    with atomic_folder(folder) as temporary:
        for relative, png in zip(files, raster.pixel_jobs(calls)):
            (temporary / relative).parent.mkdir(parents=True, exist_ok=True)
            (temporary / relative).write_bytes(png)
    return [folder / relative for relative in files]
