"""The home-print sheets, <game>-<paper>.pdf: cards imposed on the paper with marks and backs as the
options and the game's print: say, in RGB, CMYK PDF/X-1a or a greyscale draft, and for --marks cutter a
cut file a sheet in cut/. Every build writes them; build.py plans the sheets."""

from __future__ import annotations

from pathlib import Path

from spellpress.errors import Location, Option, UserError
from spellpress.exporters import PdfExport, Sheets
from spellpress.model.modes import BackMode, MarkMode, Paper


def _arguments(build) -> None:
    """The sheets' options; the build reads them as BuildOptions' own fields, since they decide the layout every
    export draws (bleed) and the manifest describes (paper, backs)."""
    from spellpress.arguments import length, offset
    from spellpress.model.modes import ColorMode, choices

    build.add_argument("--paper", choices=choices(Paper), help="paper size (default: the game's print.paper)")
    build.add_argument("--backs", choices=choices(BackMode),
                       help="none; duplex-long (flip on long edge); duplex-short; fold (fronts above, backs below the fold)")
    build.add_argument("--back-offset", type=offset, metavar="X,Y",
                       help="shift the backs to correct a printer's misregistration; mm unless a unit is given (see 'calibrate')")
    build.add_argument("--bleed", type=length, metavar="LENGTH", help="bleed beyond the trim, e.g. 3mm or 0.125in (default 3mm)")
    build.add_argument("--color", choices=choices(ColorMode),
                       help="sheets in RGB, or CMYK PDF/X-1a through --profile (default rgb)")
    build.add_argument("--profile", type=Path, metavar="FILE.icc",
                       help="CMYK output profile for --color cmyk (default: the shipped FOGRA39L, 300%% ink)")
    build.add_argument("--marks", choices=choices(MarkMode),
                       help="crop: 5 mm crop marks; lines: full cut lines across the sheet; cutter: Silhouette Type 1 "
                            "registration marks for print-and-cut; none (default: the game's print.marks)")
    build.add_argument("--draft", action="store_true",
                       help="low-ink proof sheets, <game>-<paper>-draft.pdf: no background fills, outlines and text "
                            "only, greyscale")


def _settings(args) -> dict:
    if args.profile is not None and args.color != "cmyk":  # it would be silently ignored
        raise UserError.at(Option("--profile"), "a profile is for CMYK sheets: add --color cmyk, or leave --profile out")
    return {}


def sheets_path(sheets: Sheets) -> Path:
    """<game>-<paper>.pdf, -draft for a draft and -cmyk for CMYK (a draft for a CMYK press: -draft-cmyk)."""
    options = sheets.options
    suffix = "-draft" if options.draft else "-cmyk" if options.color == "cmyk" else ""
    if options.draft and options.color == "cmyk":
        suffix += "-cmyk"
    return sheets.out / f"{sheets.game.id}-{sheets.paper}{suffix}.pdf"


def _write(sheets: Sheets, settings) -> list[Path]:
    from spellpress.render.keys import sheets_key
    from spellpress.write.atomic import write_bytes
    from spellpress.write.cache import CACHE_FOLDER

    options, game = sheets.options, sheets.game
    paint = sheet_paint(options)
    key = sheets_key(sheets.pages,
                     repr(sheets.info) + ("" if paint.name == "rgb" else f"|{paint.name}|{getattr(paint, 'profile', '')}"))
    flat = options.out / CACHE_FOLDER / game.id / "flattened"
    path = sheets_path(sheets)
    write_bytes(path, sheets.cache.bytes("pdf", key, lambda: painted_sheets(sheets.pages, sheets.info, paint, flat)))
    files = [path]
    if sheets.settings.marks == "cutter":
        files += write_cut_files(sheets.pages, sheets.out / "cut", f"{game.id}-{sheets.paper}", sheets.settings.corner_radius)
    return files


def write_cut_files(pages, folder: Path, stem: str, radius: float) -> list[Path]:
    """cut/<game>-<paper>-sheet-NN.svg: the cards' outlines of each cutter sheet, for the cutting machine."""
    from spellpress.write.atomic import write_text
    from spellpress.write.cutfile import cut_svg

    written = []
    for number, page in enumerate((p for p in pages if p.kind != "backs"), start=1):
        if not page.decor.rects:
            continue  # a score sheet or board: printed whole, nothing for the machine to cut
        path = folder / f"{stem}-sheet-{number:02d}.svg"
        write_text(path, cut_svg(page, radius))
        written.append(path)
    return written


def sheet_paint(options):
    from spellpress.render.paint import CmykPaint, GreyPaint, RgbPaint

    if options.color == "cmyk":
        from spellpress.shop.presets import DEFAULT_CMYK_PROFILE

        try:
            cmyk = CmykPaint(options.profile or DEFAULT_CMYK_PROFILE)
        except ValueError as exc:
            raise UserError.at(Location(options.profile or DEFAULT_CMYK_PROFILE), str(exc)) from None
        return GreyPaint(cmyk.profile) if options.draft else cmyk  # a draft's greys are K only either way
    return GreyPaint() if options.draft else RgbPaint()


def painted_sheets(pages, title, paint, flat_folder: Path | None = None) -> bytes:
    """The sheets PDF in `paint`; CMYK pages are PDF/X-1a, their transparency flattened (images in `flat_folder`)."""
    from spellpress.render.draw import painting
    from spellpress.write.pdf import sheets_pdf

    if paint.name == "cmyk":
        from dataclasses import replace

        from spellpress.shop.flatten import flattened

        assert flat_folder is not None, "CMYK sheets flatten their transparency into a folder of images"
        pages = [replace(page, placed=[replace(p, face=flattened(p.face, flat_folder)) for p in page.placed]) for page in pages]
    with painting(paint):
        data = sheets_pdf(pages, title)
    if getattr(paint, "profile", None) is not None:  # CMYK, or a draft for a CMYK output condition
        from spellpress.shop.pdfx import pdf_x1a

        data = pdf_x1a(data, title, paint)
    return data


EXPORT = PdfExport(name="sheets", order=0, label="", summary="the home-print sheets, <game>-<paper>.pdf", write=_write,
                   arguments=_arguments, settings=_settings,
                   modes=(("paper", Paper), ("backs", BackMode), ("marks", MarkMode)))
