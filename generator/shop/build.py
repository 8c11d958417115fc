"""Build a game exactly as a print shop asks: OUT/<game>/<shop>/, from its preset."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from spellpress.errors import Problem, UserError
from spellpress.layout.deck import CardFaces, layout_game
from spellpress.load.game import load_game
from spellpress.model.deck import Game
from spellpress.model.sizes import CARD_SIZES
from spellpress.render.paint import CmykPaint
from spellpress.shop.ink import face_excess
from spellpress.shop.pdfx import cmyk_faces_pdf
from spellpress.shop.presets import Shop, shop
from spellpress.write.atomic import atomic_folder


@dataclass
class ShopBuild:
    game: Game
    shop: Shop
    files: list[Path]
    warnings: list[str]


def at_shop_sizes(game: Game, preset: Shop) -> Game:
    """Components of a built-in size the shop names (poker 63 x 88 mm) take the shop's size (2.5 x 3.5 in)."""
    by_dims = {dims: name for name, dims in CARD_SIZES.items()}
    components = []
    for component in game.components:
        name = by_dims.get(component.size)
        if name in preset.spec.sizes:
            size = preset.spec.sizes[name]
            component = dataclasses.replace(component, size=(size.width, size.height))
        components.append(component)
    print_settings = game.spec.print.model_copy(update={"bleed": preset.spec.bleed, "safe": preset.spec.safe})
    return dataclasses.replace(game, spec=game.spec.model_copy(update={"print": print_settings}),
                               components=tuple(components))


def build_for_shop(folder: Path, name: str, out: Path, ink_limit: bool = True, workers: int | None = None) -> ShopBuild:
    preset = shop(name, folder)
    spec = preset.spec
    game = at_shop_sizes(load_game(folder), preset)
    laid = layout_game(game, spec.bleed)
    target = out / game.id / name
    warnings: list[str] = []
    paint = CmykPaint(preset.profile_path()) if spec.color == "cmyk" else None
    if paint is not None and spec.ink_limit is not None:
        problems = ink_problems(laid, paint, spec.ink_limit)
        if problems and ink_limit:
            raise UserError(problems)
        warnings += [str(p) for p in problems]
    files: list[Path] = []
    with atomic_folder(target) as staging:
        if spec.format == "pdf-x1a":
            assert paint is not None, "a PDF/X-1a preset is CMYK (checked when the preset loads)"
            for filename, faces in pdf_files(laid, spec.files, spec.order):
                (staging / filename).write_bytes(cmyk_faces_pdf(faces, f"{game.name} · {filename}", paint))
                files.append(target / filename)
        else:
            files += _pngs(laid, staging, target, game.name, workers)
    return ShopBuild(game, preset, files, warnings)


def pdf_files(laid: list[CardFaces], layout: str, order: str) -> list[tuple[str, list]]:
    """(file name, faces in page order) for each file the shop wants."""
    def pages(group: list[CardFaces]) -> list:
        faces = []
        for f in group:
            for _ in range(f.card.count):
                pair = (f.back, f.front) if order == "back-front" else (f.front, f.back)
                faces += [face for face in pair if face is not None]
        return faces

    if layout == "sides":
        copies = [f for f in laid for _ in range(f.card.count)]
        files = [("fronts.pdf", [f.front for f in copies])]
        backs = [f.back for f in copies if f.back is not None]
        return files + ([("backs.pdf", backs)] if backs else [])
    decks = dict.fromkeys(f.component.id for f in laid)
    return [(f"{deck}.pdf", pages([f for f in laid if f.component.id == deck])) for deck in decks]


def ink_problems(laid: list[CardFaces], paint: CmykPaint, limit: float) -> list[Problem]:
    problems = []
    checked = set()
    for f in laid:
        for side, face in (("front", f.front), ("back", f.back)):
            if face is None or (face, side) in checked:
                continue
            checked.add((face, side))
            for excess in face_excess(face, paint, limit):
                where = f.card.location if side == "front" else f.component.location
                problems.append(Problem(where, f"card '{f.card.id}' of '{f.component.id}' ({side}): {excess.what} "
                                               f"needs {excess.ink:g}% total ink, over the shop's {limit:g}%"))
    return problems


def _pngs(laid, staging: Path, target: Path, title: str, workers) -> list[Path]:
    from spellpress.write.cache import Cache
    from spellpress.write.raster import Rasterizer, write_pngs

    with Rasterizer(Cache(None), workers) as raster:
        written = write_pngs(laid, staging / "png", title, raster)
    return [target / path.relative_to(staging) for path in written]
