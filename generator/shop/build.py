"""Build a game exactly as a print shop asks: OUT/<game>/<shop>/, from its preset.

A preset is a contract: it names the sizes and kinds of component the shop prints. What it
does not print is written as a home-print PDF in home/ beside the shop's files, and the
build says so.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from dataclasses import dataclass, field
from pathlib import Path

from spellpress.errors import Problem, UserError
from spellpress.layout.deck import CardFaces, layout_game
from spellpress.layout.ops import FaceLayout
from spellpress.load.game import load_game
from spellpress.model.game import Game
from spellpress.render.paint import CmykPaint
from spellpress.shop.flatten import flattened
from spellpress.shop.ink_limit import face_excess
from spellpress.shop.pdfx import cmyk_faces_pdf
from spellpress.shop.presets import Shop, shop
from spellpress.shop.sizes import accepts, at_shop_sizes
from spellpress.write.atomic import atomic_folder
from spellpress.write.cache import CACHE_FOLDER
from spellpress.write.metadata import document_info

QUANTITIES = "quantities.csv"


@dataclass
class ShopBuild:
    game: Game
    shop: Shop
    files: list[Path]
    warnings: list[str]
    notes: list[str] = field(default_factory=list)  # what went to the home-print PDF instead, and why


def build_for_shop(folder: Path, name: str, out: Path, ink_limit: bool = True, workers: int | None = None) -> ShopBuild:
    preset = shop(name, folder)
    spec = preset.spec
    whole = load_game(folder)
    game = at_shop_sizes(whole, preset)
    rest = dataclasses.replace(whole, components=tuple(c for c in whole.components if not accepts(preset, c)))
    laid = layout_game(game, spec.bleed) if game.components else []
    if spec.color == "cmyk":  # PDF/X-1a has no transparency: flattened as the RGB face shows it
        laid = flattened_faces(laid, out / CACHE_FOLDER / game.id / "flattened")
    home = _home_pages(rest) if rest.components else None
    target = out / game.id / name
    warnings: list[str] = []
    paint = CmykPaint(preset.profile_path(), spec.black_text.rule()) if spec.color == "cmyk" else None
    if paint is not None and spec.ink_limit is not None:
        problems = ink_problems(laid, paint, spec.ink_limit)
        if problems and ink_limit:
            raise UserError(problems)
        warnings += [str(p) for p in problems]
    files: list[Path] = []
    notes: list[str] = []
    with atomic_folder(target) as staging:
        if laid and spec.format == "pdf-x1a":
            assert paint is not None, "a PDF/X-1a preset is CMYK (checked when the preset loads)"
            for filename, faces in pdf_files(laid, spec.files, spec.order):
                (staging / filename).write_bytes(cmyk_faces_pdf(faces, document_info(game, f"{game.name} · {filename}"), paint))
                files.append(target / filename)
        elif laid:
            files += _pngs(laid, staging, target, game.name, workers)
        if home is not None:
            filename, data = home
            (staging / "home").mkdir()
            (staging / "home" / filename).write_bytes(data)
            files.append(target / "home" / filename)
            names = ", ".join(c.name for c in rest.components)
            notes.append(f"{names}: not a {spec.title} product; written to home/{filename} to print at home")
    return ShopBuild(game, preset, files, warnings, notes)


def flattened_faces(laid: list[CardFaces], folder: Path) -> list[CardFaces]:
    flat = {}

    def one(face):
        if face is None:
            return None
        if face not in flat:
            flat[face] = flattened(face, folder)
        return flat[face]

    return [dataclasses.replace(f, front=one(f.front), back=one(f.back)) for f in laid]


def _home_pages(game: Game) -> tuple[str, bytes]:
    """The components a shop does not print, as the game's home-print sheets (its own paper and settings)."""
    from spellpress.impose.grid import FitError
    from spellpress.impose.sheets import plan_pages, print_settings
    from spellpress.layout.deck import items
    from spellpress.write.pdf import sheets_pdf

    settings = print_settings(game.spec.print)
    try:
        pages = plan_pages(items(layout_game(game, settings.bleed)), settings, title=game.name)
    except FitError as exc:
        raise UserError.at(game.location, f"print settings, for the parts the shop does not print: {exc}") from None
    return f"{game.id}-{game.spec.print.paper}.pdf", sheets_pdf(pages, document_info(game))


def blank_like(face: FaceLayout) -> FaceLayout:
    """A face of the same size that prints nothing: the back of a one-sided part."""
    return FaceLayout(face.width, face.height, face.bleed, ())


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
        # fronts and backs pair page for page (a blank back for a one-sided part); one page size a file
        sizes = list(dict.fromkeys(f.component.size for f in laid))
        files = []
        for size in sizes:
            copies = [f for f in laid if f.component.size == size for _ in range(f.card.count)]
            suffix = "" if len(sizes) == 1 else f"-{size[0]:g}x{size[1]:g}mm"
            files.append((f"fronts{suffix}.pdf", [f.front for f in copies]))
            files.append((f"backs{suffix}.pdf", [f.back if f.back is not None else blank_like(f.front) for f in copies]))
        return files
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


def png_names(laid: list[CardFaces]) -> list[tuple[CardFaces, str, str | None]]:
    """(card, front file, back file) for each distinct card: <deck>/<NNN>-<card>.png in deck order (uploaders
    sort by name), a deck's one shared back as <deck>/back.png, a card's own back as <NNN>-<card>-back.png."""
    named = []
    for deck in dict.fromkeys(f.component.id for f in laid):
        group = [f for f in laid if f.component.id == deck]
        shared = len({f.back for f in group}) == 1
        for number, f in enumerate(group, start=1):
            front = f"{deck}/{number:03d}-{f.card.id}.png"
            back = None if f.back is None else f"{deck}/back.png" if shared else f"{deck}/{number:03d}-{f.card.id}-back.png"
            named.append((f, front, back))
    return named


def quantities_csv(named: list[tuple[CardFaces, str, str | None]]) -> str:
    """file, name, count, back: one row per distinct card, what an uploader's quantity sheet asks."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["file", "name", "count", "back"])
    for f, front, back in named:
        writer.writerow([front, f.card.id, f.card.count, back or ""])
    return buffer.getvalue()


def _pngs(laid: list[CardFaces], staging: Path, target: Path, title: str, workers) -> list[Path]:
    from spellpress.write.cache import Cache
    from spellpress.write.raster import PNG_DPI, Rasterizer

    named = png_names(laid)
    with Rasterizer(Cache(None), workers) as raster:
        pngs = raster.pngs((face for f in laid for face in (f.front, f.back) if face is not None), PNG_DPI, title)
    written = []
    for f, front, back in named:
        for relative, face in ((front, f.front), (back, f.back)):
            if relative is None or face is None or (staging / relative).exists():
                continue
            (staging / relative).parent.mkdir(parents=True, exist_ok=True)
            (staging / relative).write_bytes(pngs[face])
            written.append(target / relative)
    (staging / QUANTITIES).write_text(quantities_csv(named), encoding="utf-8")
    return written + [target / QUANTITIES]
