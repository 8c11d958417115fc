"""The printing commands: build, check, list and calibrate."""

from __future__ import annotations

import sys
import time
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

from spellpress.arguments import length, offset
from spellpress.errors import Option, Problem, Problems, UserError
from spellpress.model.modes import BackMode, CalibrationPaper, ColorMode, DuplexMode, MarkMode, Paper, choices
from spellpress.paths import game_folders
from spellpress.shop.command import build_shops
from spellpress.wording import listed_files, plural

# build's options that a print shop's preset decides (--shop): given with --shop, they would be ignored
SHOP_DECIDES = {"paper": "--paper", "backs": "--backs", "back_offset": "--back-offset", "bleed": "--bleed",
                "png": "--png", "tts": "--tts", "print_shop": "--print-shop", "color": "--color",
                "profile": "--profile", "marks": "--marks", "draft": "--draft", "digital": "--digital",
                "tts_url": "--tts-url", "digital_url": "--digital-url"}


def register(commands) -> None:
    build = commands.add_parser("build", help="build print-ready PDFs (and PNG/TTS exports) for games",
                                description="Build each game into OUT/<game>/: <game>-<paper>.pdf and manifest.json.")
    build.add_argument("games", nargs="*", metavar="GAME|PATH", help="game ids under cards/ or game folders (default: the game whose folder you are in, else every game)")
    build.add_argument("--paper", choices=choices(Paper), help="paper size (default: the game's print.paper)")
    build.add_argument("--backs", choices=choices(BackMode),
                       help="none; duplex-long (flip on long edge); duplex-short; fold (fronts above, backs below the fold)")
    build.add_argument("--back-offset", type=offset, metavar="X,Y",
                       help="shift the backs to correct a printer's misregistration; mm unless a unit is given (see 'calibrate')")
    build.add_argument("--bleed", type=length, metavar="LENGTH", help="bleed beyond the trim, e.g. 3mm or 0.125in (default 3mm)")
    digital_arguments(build)
    build.add_argument("--print-shop", action="store_true", help="also write a one-card-a-page PDF with TrimBox and BleedBox, back then front")
    build.add_argument("--out", type=Path, default=Path("output"), help="output folder (default: output; inside a game folder, the output folder beside it)")
    build.add_argument("--shop", metavar="NAME",
                       help="write exactly what a print shop asks for into OUT/<game>/<shop>/ (see 'spellpress shops')")
    build.add_argument("--ink-limit", choices=["on", "off"],
                       help="with --shop: over the shop's total ink limit is an error (on, the default) or a warning (off)")
    build.add_argument("--color", choices=choices(ColorMode),
                       help="sheets in RGB, or CMYK PDF/X-1a through --profile (default rgb)")
    build.add_argument("--profile", type=Path, metavar="FILE.icc",
                       help="CMYK output profile for --color cmyk (default: the shipped FOGRA39L, 300%% ink)")
    build.add_argument("--marks", choices=choices(MarkMode),
                       help="crop: 5 mm crop marks; lines: full cut lines across the sheet; cutter: Silhouette Type 1 "
                            "registration marks for print-and-cut; none (default: the game's print.marks)")
    build.add_argument("--draft", action="store_true",
                       help="low-ink proof sheets, <game>-<paper>-draft.pdf: no background fills, outlines and text only, greyscale")
    build.add_argument("--no-cache", dest="cache", action="store_false",
                       help="draw every face again and neither read nor write OUT/.cache (the same bytes, slower)")

    build.set_defaults(handler=build_command)

    check = commands.add_parser("check", help="validate games without writing anything; runs no game code "
                                              "(check-engine checks a game's rules engine)",
                                description="Validate each game's definitions (YAML, spreadsheets, templates, fonts, "
                                            "icons, images) and write nothing, then warn about the design of every face "
                                            "(docs/yaml.md, Design check). The rules: keys of a game played by a shipped "
                                            "engine are checked against its settings; a game's own Python (rules.py) or "
                                            "another package's engine is never imported: check-engine, simulate, report "
                                            "and sweep check those, and run the engine.")
    check.add_argument("games", nargs="*", metavar="GAME|PATH", help="game ids under cards/ or game folders (default: the game whose folder you are in, else every game)")
    check.add_argument("--strict", action="store_true",
                       help="design warnings (collisions, contrast, small or shrunk type, a turned 6 or 9, a border "
                            "near the trim, a sliver between shapes) are errors: exit 2")
    check.set_defaults(handler=check_command)

    listing = commands.add_parser("list", help="list the games under cards/")
    listing.set_defaults(handler=list_command)

    calibrate = commands.add_parser("calibrate", help="write a duplex calibration page to measure a printer's back offset")
    calibrate.add_argument("--paper", choices=choices(CalibrationPaper), default="a4")
    calibrate.add_argument("--backs", choices=choices(DuplexMode), default="duplex-long")
    calibrate.add_argument("--out", type=Path, default=Path("output"))
    calibrate.set_defaults(handler=calibrate_command)


def digital_arguments(build) -> None:
    """The raster exports' options, from their registry (write/exporters/): --png and --tts, --digital NAME,
    and each export's own."""
    from spellpress.write.exporters import registry

    exports = registry()
    for export in exports.values():
        if export.flag:
            build.add_argument(export.flag, action="store_true", dest=export.name, help=f"also write {export.summary}"
                               if not export.summary.startswith("also ") else export.summary)
    build.add_argument("--digital", action="append", choices=list(exports), default=[],
                       help="; ".join(f"{name}: {export.summary}" for name, export in exports.items())
                            + " (may be given more than once; docs/digital.md)")
    for export in exports.values():
        export.arguments(build)


def chosen_exports(args) -> tuple[tuple[str, ...], tuple]:
    """The exports the command line asks for, and each one's settings from its own options."""
    from spellpress.write.exporters import registry

    names, settings = [], []
    for name, export in registry().items():
        wanted = name in args.digital or (export.flag is not None and getattr(args, name, False))
        values = export.settings(args)  # checked even when not wanted: an option without its export is a mistake
        if wanted:
            names.append(name)
            settings.append((name, tuple(sorted(values.items()))))
    return tuple(names), tuple(settings)


def refuse_options_a_shop_decides(args) -> None:
    """`build --shop` writes what the shop's preset says: an option it would ignore is a mistake, not a wish."""
    given = [flag for name, flag in SHOP_DECIDES.items() if getattr(args, name) not in (None, False, [])]
    if not args.cache:
        given.append("--no-cache")
    if given:
        raise UserError([Problem(Option(flag), f"--shop {args.shop} takes this from the shop's preset and would "
                                               "ignore it; build without --shop for it") for flag in given])


def build_command(args) -> int:
    from spellpress.build import BuildOptions
    from spellpress.progress import track

    if args.shop:
        refuse_options_a_shop_decides(args)
        return build_shops(args)
    if args.ink_limit is not None:
        raise UserError.at(Option("--ink-limit"), "applies to --shop builds only (a shop's total ink limit)")
    if args.profile is not None and args.color != "cmyk":  # it would be silently ignored
        raise UserError.at(Option("--profile"), "a profile is for CMYK sheets: add --color cmyk, or leave --profile out")
    exports, settings = chosen_exports(args)
    options = BuildOptions(paper=args.paper, backs=args.backs, back_offset=args.back_offset, bleed=args.bleed,
                           print_shop=args.print_shop, out=args.out, cache=args.cache, draft=args.draft,
                           color=args.color or "rgb", profile=args.profile, marks=args.marks,
                           exports=exports, export_settings=settings)
    problems = Problems()
    folders = game_folders(args.games)
    workers: AbstractContextManager = nullcontext()
    if options.exports:  # one pool of workers draws for every game
        from spellpress.write.workers import shared_workers

        workers = shared_workers()
    with workers:
        for folder in track(folders, "building", len(folders)):
            build_one(folder, options, problems)
    problems.raise_if_any()
    return 0


def build_one(folder: Path, options, problems) -> None:
    """Build one game and say what it wrote; its definition errors join `problems`."""
    from spellpress.build import build

    started = time.perf_counter()
    try:
        result = build(folder, options)
    except UserError as exc:
        problems.extend(exc)
        return
    seconds = time.perf_counter() - started
    state = " (up to date: nothing changed)" if result.up_to_date else ""
    print(f"{result.game_id}: {plural(result.cards, 'card')} on {plural(result.pages, 'page')} in {seconds:.2f} s{state}")
    for note in result.sheets:
        print(f"  {note}")
    for component in result.game.components if result.game is not None else ():
        if component.left_out:
            print(f"  left out (count: 0) from {component.name}: {', '.join(component.left_out)}")
    for line in listed_files(result.files):
        print(line)


def check_command(args) -> int:
    from spellpress.build import check
    from spellpress.design.check import design_warnings
    from spellpress.rules.check_keys import check_rules_keys

    problems = Problems()
    for folder in game_folders(args.games):
        try:
            game = check(folder)  # the definitions only: a game's rules engine is Python, never run here
            warning = check_rules_keys(game)  # a shipped engine's settings model: Spellpress's code, not the game's
        except UserError as exc:
            problems.extend(exc)
            continue
        if warning:
            print(f"warning: {warning}", file=sys.stderr)
        cards = sum(c.copies for c in game.components)
        engine = game.spec.rules.get("engine")
        unchecked = f"; its rules engine '{engine}' is checked by check-engine" if engine is not None else ""
        warnings = design_warnings(game, problems if args.strict else None)
        print(f"{game.id}: ok ({plural(len(game.components), 'component')}, {plural(cards, 'card')}{unchecked}"
              f"{warnings})")
    problems.raise_if_any()
    return 0


def list_command(args) -> int:
    from spellpress.load.game import load_game
    from spellpress.paths import list_game_folders

    for folder in list_game_folders():
        try:
            game = load_game(folder)
        except UserError:
            print(f"{folder.name:20} (has errors: run 'spellpress check {folder.name}')")
            continue
        players = game.spec.players
        cards = sum(c.copies for c in game.components)
        print(f"{game.id:20} {game.name} ({players.min}-{players.max} players, {cards} pieces)")
    return 0


def calibrate_command(args) -> int:
    from spellpress.write.calibration import write_calibration

    path = write_calibration(args.paper, args.backs, args.out)
    print(f"calibration page: {path}")
    print("Print it duplex at actual size; hold it to the light; read the back offset on the scales;")
    print("then build with --back-offset X,Y (mm), or set print.back_offset in game.yaml.")
    return 0
