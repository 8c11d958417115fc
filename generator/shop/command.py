"""`spellpress shops`: the print-shop presets with their numbers and sources."""

from __future__ import annotations

from pathlib import Path

from spellpress.paths import game_folders
from spellpress.units import MM_PER_INCH


def register(commands) -> None:
    parser = commands.add_parser("shops", help="list the print-shop presets (for build --shop) with their numbers and sources",
                                 description="The shipped print-shop presets, and a game's own shops/*.yaml when GAME is given.")
    parser.add_argument("game", nargs="?", metavar="GAME|PATH", help="also list this game's own presets")
    parser.set_defaults(handler=run)


def _length(mm: float) -> str:
    return f"{mm:g} mm ({mm / MM_PER_INCH:.3f} in)"


def run(args) -> int:
    from spellpress.shop.presets import shops

    folder: Path | None = game_folders([args.game])[0] if args.game else None
    for name, preset in shops(folder).items():
        spec = preset.spec
        print(f"{name}: {spec.title}")
        for size_name, size in spec.sizes.items():
            print(f"  {size_name}: {_length(size.width)} x {_length(size.height)}")
        print(f"  bleed {_length(spec.bleed)}, safe zone {_length(spec.safe)}, {spec.dpi} dpi")
        colour = spec.color.upper()
        if spec.color == "cmyk":
            colour += f", profile {preset.profile_path().name}"
        if spec.ink_limit is not None:
            colour += f", total ink at most {spec.ink_limit:g}%"
        print(f"  colour {colour}; format {spec.format}, files {spec.files}, order {spec.order}")
        for source in spec.sources:
            print(f"  source: {source.url}")
            print(f"    {source.confirms}")
    return 0


def build_shops(args) -> int:
    """build --shop NAME: each game as that shop asks, into OUT/<game>/<shop>/."""
    import sys
    import time

    from spellpress.errors import Problems, UserError
    from spellpress.shop.build import build_for_shop

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
        print(f"{result.game.id} for {result.shop.spec.title}: {len(result.files)} files in "
              f"{time.perf_counter() - started:.2f} s")
        for path in result.files[:4]:
            print(f"  {path}")
        if len(result.files) > 4:
            print(f"  ... and {len(result.files) - 4} more files")
    problems.raise_if_any()
    return 0
