"""The print pipeline end to end: load, layout, impose, render and write one game."""

from __future__ import annotations

import hashlib
import json
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from spellpress.errors import Problem, UserError
from spellpress.exporters import Sheets, chosen, chosen_pdfs
from spellpress.icon_library import icon_credits
from spellpress.impose.grid import FitError
from spellpress.impose.sheets import Page, SheetSettings, capacity_note, plan_pages, print_settings, settings_for, sheet_grid
from spellpress.layout.deck import CardFaces, items, layout_game
from spellpress.load.game import load_game
from spellpress.model.game import Game
from spellpress.model.modes import BackMode, ColorMode, MarkMode, Paper, checked
from spellpress.render.keys import referenced_files
from spellpress.write import stamp
from spellpress.write.atomic import remove_file, write_text
from spellpress.write.cache import Cache
from spellpress.write.counts import RasterCounts
from spellpress.write.destination import game_output_folder
from spellpress.write.metadata import document_info, source_date_epoch


@dataclass(frozen=True)
class BuildOptions:
    paper: Paper | None = None  # None: the game's own setting
    backs: BackMode | None = None
    back_offset: tuple[float, float] | None = None
    bleed: float | None = None
    png: bool = False
    tts: bool = False
    tts_max_px: int = 4096  # longest side of a TTS image
    tts_format: str = "png"  # png or jpg
    tts_url: str | None = None  # where the TTS images are hosted (default: file:/// paths)
    tabletopia: bool = False  # one picture per card side for Tabletopia (--digital tabletopia)
    exports: tuple[str, ...] = ()  # the exports asked for by name (exporters/); png, tts, tabletopia, print_shop join them
    export_settings: tuple[tuple[str, tuple[tuple[str, object], ...]], ...] = ()  # (export, its settings) from its options
    print_shop: bool = False
    out: Path = Path("output")
    cache: bool = True  # False: draw everything again, read and write no cache (--no-cache)
    workers: int | None = None  # processes for the raster exports (default: one per core)
    marks: MarkMode | None = None  # default: the game's print.marks
    draft: bool = False  # low-ink proof: outlines and text only, greyscale
    color: ColorMode = "rgb"  # rgb, or cmyk through `profile` (PDF/X-1a sheets)
    profile: Path | None = None  # a CMYK ICC profile (default: the shipped FOGRA39L)

    def __post_init__(self) -> None:
        for mode, value, what in ((Paper, self.paper, "paper"), (BackMode, self.backs, "back mode"),
                                  (MarkMode, self.marks, "marks"), (ColorMode, self.color, "colour mode")):
            if value is not None:
                checked(mode, value, what)
        # the flags of the first exports, as names, and the TTS settings from their own fields
        flags = tuple(name for name, on in (("png", self.png), ("tts", self.tts), ("tabletopia", self.tabletopia),
                                            ("print-shop", self.print_shop)) if on)
        object.__setattr__(self, "exports", tuple(dict.fromkeys((*self.exports, *flags))))
        if "tts" in self.exports and "tts" not in dict(self.export_settings):
            tts = (("image_format", self.tts_format), ("max_px", self.tts_max_px), ("url", self.tts_url))
            object.__setattr__(self, "export_settings", (*self.export_settings, ("tts", tts)))


@dataclass
class BuildResult:
    game_id: str
    game: Game | None  # None when up to date: the game was not even loaded
    files: list[Path]
    cards: int
    pages: int
    up_to_date: bool = False  # nothing changed since the last build: nothing written
    sheets: list[str] = field(default_factory=list)  # cards a sheet for each card size, and what other options give
    drawn: RasterCounts = field(default_factory=RasterCounts)  # what the raster exports drew (not read from the cache)


def sheet_settings(game: Game, options: BuildOptions) -> SheetSettings:
    """The game's print settings, with the options given on the command line on top."""
    return print_settings(game.spec.print, paper=options.paper, bleed=options.bleed, backs=options.backs,
                          back_offset=options.back_offset, marks=options.marks)


def plan(game: Game, options: BuildOptions) -> tuple[list[CardFaces], list[Page], SheetSettings]:
    settings = sheet_settings(game, options)
    laid = layout_game(game, settings.bleed)
    try:
        pages = plan_pages(items(laid), settings, title=game.name)
    except FitError as exc:
        raise UserError(_fit_problems(game, settings) or [Problem(game.location, f"print settings: {exc}")]) from None
    return laid, pages, settings


def _fit_problems(game: Game, settings: SheetSettings) -> list[Problem]:
    """Each component whose cards do not fit the sheet, blamed on its own file rather than on game.yaml."""
    problems = []
    for component in game.components:
        try:
            sheet_grid(component.size, settings, fold=settings.backs == "fold" and component.back is not None)
        except FitError as exc:
            problems.append(Problem(component.size_location or component.location, f"component '{component.id}': {exc}"))
    return problems


def check(folder: Path, options: BuildOptions = BuildOptions()) -> Game:
    """Everything a build does short of writing files."""
    game = load_game(folder)
    plan(game, options)
    return game


def build(folder: Path, options: BuildOptions = BuildOptions()) -> BuildResult:
    source_date_epoch()  # a bad SOURCE_DATE_EPOCH is refused before anything is read or removed
    if options.cache:
        last = stamp.up_to_date(options.out, folder, options)
        if last is not None:
            return BuildResult(last.game_id, None, last.files, last.cards, last.pages, True)
    game = load_game(folder)
    cache = Cache.for_game(options.out, game.id, options.cache)
    templates = sorted(str(t.location.path) for t in game.templates.values())
    inputs = stamp.inputs_digest(folder, templates, options) if options.cache else ""
    laid, pages, settings = plan(game, options)
    paper = options.paper or game.spec.print.paper
    out = game_output_folder(options.out, game.id, game.root)
    if options.cache:
        stamp.forget(options.out, folder)
    # the manifest goes first and comes back last, listing every file with its hash: a killed
    # build leaves no manifest rather than one that describes other files
    manifest_path = out / "manifest.json"
    earlier = earlier_files(manifest_path)
    remove_file(manifest_path)
    sheets = Sheets(game, laid, pages, settings, paper, document_info(game), options, cache, out)
    with ExitStack() as stack:
        exports = None
        rasters = chosen(options)
        if rasters:
            from spellpress.write.exports import RasterExports

            exports = stack.enter_context(RasterExports(game, laid, rasters, options, cache))
        written = {export.name: export.write(sheets, dict(values)) for export, values in chosen_pdfs(options)}
        files = [path for paths in written.values() for path in paths]
        if exports is not None:
            files.extend(exports.write(out))
    credits = icon_credits(referenced_files(op for f in laid for face in (f.front,
                                                                          f.back) if face is not None for op in face.ops))
    if credits is not None:  # CC BY 3.0: the library icons this game prints, with their authors
        write_text(out / "icon-credits.md", credits)
        files.append(out / "icon-credits.md")
    cache.sweep()
    described = manifest(game, laid, pages, settings, written["sheets"][0].name, paper)
    described["files"] = {**still_there(out, earlier, files), **file_hashes(out, files)}
    write_text(manifest_path, json.dumps(described, indent=1))
    files.append(manifest_path)
    cards = sum(f.card.count for f in laid)
    if options.cache:
        stamp.record(options.out, folder, inputs, templates, game.id, cards, len(pages), files)
    return BuildResult(game.id, game, files, cards, len(pages), sheets=sheet_notes(game, settings),
                       drawn=exports.raster.counts if exports else RasterCounts())


def sheet_notes(game: Game, settings: SheetSettings) -> list[str]:
    """One line for each card size of the game: cards a sheet, and what --marks none or --bleed 0 would give."""
    sizes = dict.fromkeys((tuple(c.size), c.kind, settings.backs == "fold" and c.back is not None) for c in game.components)
    notes = (capacity_note((size[0], size[1]), settings_for([kind], settings), fold) for size, kind, fold in sizes)
    return list(dict.fromkeys(notes))


def file_hashes(out: Path, files: list[Path]) -> dict[str, str]:
    """Each written file, relative to the game's output folder, with its SHA-256."""
    hashes = {}
    for path in files:
        with open(path, "rb") as stream:  # streamed: a TTS sheet need not be in memory to be hashed
            hashes[path.relative_to(out).as_posix()] = hashlib.file_digest(stream, "sha256").hexdigest()
    return hashes


def earlier_files(manifest_path: Path) -> dict[str, str]:
    """The files the last manifest listed, with their hashes ({} when there is none to read)."""
    try:
        listed = json.loads(manifest_path.read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return {str(k): str(v) for k, v in listed.items()} if isinstance(listed, dict) else {}


def still_there(out: Path, earlier: dict[str, str], written: list[Path]) -> dict[str, str]:
    """Earlier builds' files that this one did not write and that are still as they were written (another
    paper's PDF, an export not asked for this time): the manifest describes the whole folder."""
    rewritten = {path.relative_to(out).as_posix() for path in written}
    kept = {}
    for name, digest in sorted(earlier.items()):
        path = out / name
        if name in rewritten or name == "manifest.json" or not path.is_file() or out.resolve() not in path.resolve().parents:
            continue
        with open(path, "rb") as stream:
            if hashlib.file_digest(stream, "sha256").hexdigest() == digest:
                kept[name] = digest
    return kept


def manifest(game: Game, laid: list[CardFaces], pages: list[Page], settings: SheetSettings, pdf: str, paper: str) -> dict:
    """The build in numbers. paper_mm is the first page's real size (a fold-over sheet may turn landscape) and
    page_mm each page's, for a game whose card sizes fold best on sheets of both orientations."""
    where: dict[tuple[str, str, int], list[dict]] = {}
    for number, page in enumerate(pages, start=1):
        for placed in page.placed:
            key = (placed.item.component, placed.item.card, placed.item.copy)
            where.setdefault(key, []).append(
                {"side": placed.side, "page": number, "row": placed.slot.row, "column": placed.slot.col,
                 "x_mm": round(placed.slot.x, 3), "y_mm": round(placed.slot.y, 3)}
            )
    components = []
    for component in game.components:
        cards = []
        for faces in (f for f in laid if f.component.id == component.id):
            card = faces.card
            copies = [{"copy": n, "placements": where.get((component.id, card.id, n), [])} for n in range(1, card.count + 1)]
            cards.append({"id": card.id, "count": card.count, "fields": _plain(card.fields), "copies": copies})
        components.append({"id": component.id, "name": component.name, "kind": component.kind,
                           "size_mm": list(component.size), "copies": component.copies, "cards": cards})
    return {
        "game": game.id, "name": game.name, "pdf": pdf, "paper": paper,
        "paper_mm": list(pages[0].paper if pages else settings.paper), "page_mm": [list(page.paper) for page in pages],
        "bleed_mm": settings.bleed, "backs": settings.backs,
        "back_offset_mm": list(settings.back_offset), "cut": settings.cut, "pages": len(pages),
        "page_kinds": [page.kind for page in pages], "components": components,
    }


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value
