"""`spellpress shops`: the print-shop presets with their numbers and sources."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from spellpress.errors import Problems, UserError
from spellpress.paths import game_folders
from spellpress.shop.build import build_for_shop
from spellpress.shop.pdfx import output_condition
from spellpress.shop.presets import shops
from spellpress.units import MM_PER_INCH
from spellpress.wording import listed_files, plural


def register(commands) -> None:
    parser = commands.add_parser("shops", help="list the print-shop presets (for build --shop) with their numbers and sources",
                                 description="The shipped print-shop presets, and a game's own shops/*.yaml when GAME is given.")
    parser.add_argument("game", nargs="?", metavar="GAME|PATH", help="also list this game's own presets")


def _length(mm: float) -> str:
    return f"{mm / MM_PER_INCH:.3g} in ({mm:.3g} mm)"


KIND_NAMES = {"card": "cards", "tile": "tiles", "token": "tokens", "die": "dice nets", "sheet": "score sheets",
              "board": "boards"}


FIGURE_NAMES = {"sizes": "sizes", "kinds": "kinds", "bleed": "bleed", "safe": "safe zone", "dpi": "dpi",
                "color": "colour", "profile": "colour profile", "ink_limit": "ink limit",
                "black_text": "black type", "format": "file format",
                "files": "files", "order": "page order"}


def describe(preset) -> list[str]:
    """The preset in a buyer's terms: what the shop prints, what you get, the numbers, and which of its numbered
    sources gives each figure."""
    spec = preset.spec
    lines = [spec.about] if spec.about else []
    kinds = ", ".join(KIND_NAMES[kind] for kind in spec.kinds)
    if spec.sizes:
        sizes = "; ".join(f"{name} {_length(size.width)} x {_length(size.height)}" for name, size in spec.sizes.items())
        lines.append(f"prints: {kinds} of these sizes: {sizes}")
    else:
        lines.append(f"prints: {kinds}, any size")
    if spec.sizes or set(KIND_NAMES) - set(spec.kinds):
        lines.append("anything else a game has goes to a home-print PDF in home/, and the build says so")
    if spec.format == "png":
        poker = spec.sizes.get("poker")
        pixels = ""
        if poker is not None:
            across = round((poker.width + 2 * spec.bleed) / MM_PER_INCH * spec.dpi)
            down = round((poker.height + 2 * spec.bleed) / MM_PER_INCH * spec.dpi)
            pixels = f" (a poker card is {across} x {down} px)"
        lines.append(f"you get: a PNG of each distinct card face at {spec.dpi} dpi with bleed{pixels}, named "
                     "<deck>/<NNN>-<card>.png in deck order, each deck's shared back once as <deck>/back.png, "
                     "and quantities.csv (file, name, count, back) for the uploader")
    elif spec.files == "sides":
        lines.append("you get: fronts.pdf and backs.pdf, PDF/X-1a:2003, one card a page, page N of backs behind "
                     "page N of fronts (a blank back for one-sided parts); a game with several card sizes gets a pair "
                     "per size, named fronts-63x88mm.pdf and so on")
    else:
        first = "back then front" if spec.order == "back-front" else "front then back"
        lines.append(f"you get: one PDF/X-1a:2003 file per deck, one card side a page, each copy's {first}")
    lines.append(f"bleed {_length(spec.bleed)} on every side; text and icons at least {_length(spec.safe)} inside the trim")
    if spec.color == "cmyk":
        colour = f"colour: CMYK for {_condition(preset.profile_path())}, separated with {preset.profile_path().name}"
        if spec.ink_limit is not None:
            colour += f"; total ink at most {spec.ink_limit:g}% (more is an error naming the card)"
        lines.append(colour)
        black = spec.black_text
        if black.size > 0 or black.line > 0:
            lines.append(f"black type: dark text up to {black.size:g} pt, icons as tall, and lines up to {black.line:g} pt in "
                         f"black ink only, 100% K (dark: L* at most {black.lightness:g}; a colour of chroma {black.chroma:g} or "
                         "more is kept)")
    else:
        lines.append("colour: RGB, as designed")
    lines.append(f"where each figure comes from: {_citations(spec)}")
    for number, source in enumerate(spec.sources, 1):
        where = source.url or "not confirmed from the shop's own page"
        lines.append(f"  [{number}] {where}: {source.confirms}")
    return lines


def _citations(spec) -> str:
    """'bleed, safe zone [1]; ink limit [3]; kinds: no source given', figures grouped by the sources giving them."""
    groups: dict[str, list[str]] = {}
    unsourced = []
    for figure in (figure for figure in FIGURE_NAMES if _applies(spec, figure)):
        numbers = [str(n) for n, source in enumerate(spec.sources, 1) if figure in source.figures]
        if numbers:
            groups.setdefault(f"[{', '.join(numbers)}]", []).append(FIGURE_NAMES[figure])
        else:
            unsourced.append(FIGURE_NAMES[figure])
    parts = [f"{', '.join(names)} {key}" for key, names in groups.items()]
    return "; ".join(parts + ([f"{', '.join(unsourced)}: no source given"] if unsourced else []))


def _applies(spec, figure: str) -> bool:
    """Whether the figure means anything for this preset (a profile only for CMYK, page order only for per-deck PDFs)."""
    if figure == "profile":
        return spec.color == "cmyk"
    if figure == "ink_limit":
        return spec.ink_limit is not None
    if figure == "black_text":
        return spec.color == "cmyk"
    if figure == "sizes":
        return bool(spec.sizes)
    if figure == "order":
        return spec.format == "pdf-x1a" and spec.files == "per-deck"
    return True


def _condition(profile: Path) -> str:
    """The printing condition a profile separates for, as its PDF/X OutputIntent names it."""

    identifier, description = output_condition(profile)
    return description if description.upper().startswith(identifier) else f"{identifier} ({description})"


def run_shops(args) -> int:

    folder: Path | None = game_folders([args.game])[0] if args.game else None
    for name, preset in shops(folder).items():
        print(f"{name}: {preset.spec.title}")
        for line in describe(preset):
            print(f"  {line}")
        print()
    return 0


def build_shops(args) -> int:
    """build --shop NAME: each game as that shop asks, into OUT/<game>/<shop>/."""

    problems = Problems()
    for folder in game_folders(args.games):
        started = time.perf_counter()
        try:
            result = build_for_shop(folder, args.shop, args.out, ink_limit=args.ink_limit != "off")
        except UserError as exc:
            problems.extend(exc)
            continue
        for warning in result.warnings:
            print(f"warning: {warning}", file=sys.stderr)
        print(f"{result.game.id} for {result.shop.spec.title}: {plural(len(result.files), 'file')} in "
              f"{time.perf_counter() - started:.2f} s")
        for note in result.notes:
            print(f"  {note}")
        for line in listed_files(result.files):
            print(line)
    problems.raise_if_any()
    return 0
