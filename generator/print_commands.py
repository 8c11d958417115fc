"""The printing commands: build, check, list and calibrate."""

from __future__ import annotations

import sys
import time
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

from spellpress.errors import Option, Problem, Problems, UserError
from spellpress.model.modes import CalibrationPaper, DuplexMode, choices
from spellpress.paths import game_folders
from spellpress.wording import listed_files, plural


def register(commands) -> None:
    build = commands.add_parser("build", help="build print-ready PDFs (and PNG/TTS exports) for games",
                                description="Build each game into OUT/<game>/: <game>-<paper>.pdf and manifest.json.")
    build.add_argument("games", nargs="*", metavar="GAME|PATH",
                       help="game ids under cards/ or game folders (default: the game whose folder you are in, else every game)")
    export_arguments(build)
    build.add_argument("--out", type=Path, default=Path("output"),
                       help="output folder (default: output; inside a game folder, the output folder beside it)")
    build.add_argument("--no-cache", dest="cache", action="store_false",
                       help="draw every face again and neither read nor write OUT/.cache (the same bytes, slower)")


    check = commands.add_parser("check", help="validate games without writing anything; runs no game code "
                                              "(check-engine checks a game's rules engine)",
                                description="Validate each game's definitions (YAML, spreadsheets, templates, fonts, "
                                            "icons, images) and write nothing, then warn about the design of every face "
                                            "(docs/yaml.md, Design check). The rules: keys of a game played by a shipped "
                                            "engine are checked against its settings; a game's own Python (rules.py) or "
                                            "another package's engine is never imported: check-engine, simulate, report "
                                            "and sweep check those, and run the engine.")
    check.add_argument("games", nargs="*", metavar="GAME|PATH",
                       help="game ids under cards/ or game folders (default: the game whose folder you are in, else every game)")
    check.add_argument("--strict", action="store_true",
                       help="design warnings (collisions, contrast, small or shrunk type, a turned 6 or 9, a border "
                            "near the trim, a sliver between shapes) are errors: exit 2")

    commands.add_parser("list", help="list the games under cards/")

    calibrate = commands.add_parser("calibrate", help="write a duplex calibration page to measure a printer's back offset")
    calibrate.add_argument("--paper", choices=choices(CalibrationPaper), default="a4")
    calibrate.add_argument("--backs", choices=choices(DuplexMode), default="duplex-long")
    calibrate.add_argument("--out", type=Path, default=Path("output"))


def export_arguments(build) -> None:
    """Each export's options, from the registry (exporters/) in its order: the sheets' (--paper, --backs,
    ...), --png and --tts, --digital NAME and each raster export's own, --print-shop, --shop. A shop export decides
    every other export's options: those given with it are refused (refuse_options_a_shop_decides)."""
    from spellpress.exporters import Export, PdfExport, raster_exports, registry

    decided: list[tuple[str, str, object]] = []  # (flag, destination, default) of each option a shop decides
    digital_added = False
    for export in registry().values():
        before = len(build._actions)
        if isinstance(export, Export):
            if not digital_added:
                digital_arguments(build, raster_exports())
                digital_added = True
        elif isinstance(export, PdfExport):
            if export.flag:
                build.add_argument(export.flag, action="store_true", dest=export.key, help=export.summary)
            export.arguments(build)
        else:
            export.arguments(build)
            continue
        decided += [(a.option_strings[0], a.dest, a.default) for a in build._actions[before:]]
    build.set_defaults(decided_by_shop=tuple(decided))


def digital_arguments(build, exports) -> None:
    """The raster exports' options: --png and --tts, --digital NAME, and each export's own."""
    for export in exports.values():
        if export.flag:
            build.add_argument(export.flag, action="store_true", dest=export.key, help=f"also write {export.summary}"
                               if not export.summary.startswith("also ") else export.summary)
    build.add_argument("--digital", action="append", choices=list(exports), default=[],
                       help="; ".join(f"{name}: {export.summary}" for name, export in exports.items())
                            + " (may be given more than once; docs/digital.md)")
    for export in exports.values():
        export.arguments(build)


def chosen_exports(args) -> tuple[tuple[str, ...], tuple]:
    """The exports the command line asks for (raster and PDF), and each one's settings from its own options."""
    from spellpress.exporters import Export, ShopExport, registry

    names, settings = [], []
    for name, export in registry().items():
        if isinstance(export, ShopExport):
            continue
        values = export.settings(args)  # checked even when not wanted: an option without its export is a mistake
        if isinstance(export, Export):
            wanted = name in args.digital or (export.flag is not None and getattr(args, export.key, False))
        else:  # a PDF: asked for by its flag, or written every time (the sheets: not named among the exports)
            wanted = export.flag is not None and getattr(args, export.key, False)
        if wanted:
            names.append(name)
            if values or isinstance(export, Export):
                settings.append((name, tuple(sorted(values.items()))))
    return tuple(names), tuple(settings)


def refuse_options_a_shop_decides(args, shop) -> None:
    """`build --shop` writes what the shop's preset says: an option it would ignore is a mistake, not a wish."""
    given = [flag for flag, dest, default in args.decided_by_shop if getattr(args, dest) != default]
    given += shop.refused(args)
    if given:
        raise UserError([Problem(Option(flag), f"--shop {args.shop} takes this from the shop's preset and would "
                                               "ignore it; build without --shop for it") for flag in given])


def run_build(args) -> int:
    from spellpress.build import BuildOptions
    from spellpress.exporters import raster_exports, shop_exports
    from spellpress.progress import track

    for shop in shop_exports().values():
        if shop.wanted(args):
            refuse_options_a_shop_decides(args, shop)
            return shop.build(args)
        shop.unused(args)
    exports, settings = chosen_exports(args)
    options = BuildOptions(paper=args.paper, backs=args.backs, back_offset=args.back_offset, bleed=args.bleed,
                           out=args.out, cache=args.cache, draft=args.draft,
                           color=args.color or "rgb", profile=args.profile, marks=args.marks,
                           exports=exports, export_settings=settings)
    problems = Problems()
    folders = game_folders(args.games)
    workers: AbstractContextManager = nullcontext()
    if set(options.exports) & set(raster_exports()):  # one pool of workers draws for every game
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


def run_check(args) -> int:
    from spellpress.build import check
    from spellpress.design.check import design_warnings

    problems = Problems()
    for folder in game_folders(args.games):
        try:
            game = check(folder)  # the definitions only: a game's rules engine is Python, never run here
            warning = _rules_keys(game)  # a shipped engine's settings model: Spellpress's code, not the game's
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


def _rules_keys(game) -> str | None:
    """check_rules_keys for a game that names an installed engine; rules code is loaded only then."""
    engine = game.spec.rules.get("engine")
    if engine is None or str(engine).endswith(".py"):
        return None
    from spellpress.rules.check_keys import check_rules_keys

    return check_rules_keys(game)


def run_list(args) -> int:
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


def run_calibrate(args) -> int:
    from spellpress.write.calibration import write_calibration

    path = write_calibration(args.paper, args.backs, args.out)
    print(f"calibration page: {path}")
    print("Print it duplex at actual size; hold it to the light; read the back offset on the scales;")
    print("then build with --back-offset X,Y (mm), or set print.back_offset in game.yaml.")
    return 0
