"""`spellpress icons [WORDS]` and `spellpress templates`: what ships for a designer to use."""

from __future__ import annotations

from pathlib import Path

from spellpress import icon_library
from spellpress.catalog.contact_sheet import contact_sheet_pdf
from spellpress.catalog.template_sheet import shared_template_previews, template_sheet_pdf
from spellpress.errors import Option, UserError
from spellpress.paths import DOCS_FOLDER, SHARED_TEMPLATES
from spellpress.suggest import did_you_mean
from spellpress.write.atomic import write_bytes
from spellpress.write.pixels import encode_png, rasterize_pdf

MAX_SHEET_ICONS = 800  # ten pages of the contact sheet


def register(commands) -> None:
    icons = commands.add_parser(
        "icons", help="search the game-icons.net library (4,000+ icons) and write a contact sheet",
        description="List the library icons whose names hold every WORD (all of them without WORDS), and write a "
                    "contact sheet of them as OUT/icons/icons-WORDS.pdf and a PNG of its first page. Use a name as "
                    "`icon: NAME` in a template or `:NAME:` in text; the build writes the credits CC BY 3.0 asks for.")
    icons.add_argument("words", nargs="*", metavar="WORD", help="words the names must hold, such as fire or sword")
    icons.add_argument("--out", type=Path, default=Path("output"), help="output folder (default: output)")
    icons.add_argument("--no-sheet", action="store_true", help="only list the names; write no contact sheet")

    templates = commands.add_parser(
        "templates", help="list the shared templates a game can use or extend",
        description="The templates every game can name in `template:` or `extends:` (templates/ of the install), "
                    "each with its description, its parent and its boxes, and a contact sheet of them drawn as cards "
                    "filled with each template's `example:` fields: OUT/templates/templates.pdf and a PNG of its first "
                    "page. A game's own templates/ folder adds to them or overrides one of the same name.")
    templates.add_argument("--out", type=Path, default=Path("output"), help="output folder (default: output)")
    templates.add_argument("--no-sheet", action="store_true", help="only list the templates; write no contact sheet")

    docs = commands.add_parser(
        "docs", help="read the manual: the YAML keys, the commands, rules engines, print shops...",
        description="Print a page of the manual (the docs/ folder, shipped with Spellpress), or list the pages.")
    docs.add_argument("topic", nargs="?", metavar="TOPIC", help="a page, such as yaml, cli, tutorial (default: list the pages)")


def run_icons(args) -> int:

    found = icon_library.search(args.words)
    words = " ".join(args.words)
    if not found:
        print(f"no library icon's name holds {words!r}; try a shorter or another word")
        return 0
    for name in found[:60]:
        print(f"  {name:32} by {icon_library.author(name)}")
    if len(found) > 60:
        where = "" if args.no_sheet else " (all on the contact sheet)"
        print(f"  ... and {len(found) - 60:,} more{where}")
    with_words = f" with {words!r}" if words else ""
    print(f"{len(found):,} icon{'s' if len(found) != 1 else ''}{with_words} in the game-icons.net library (CC BY 3.0)")
    if args.no_sheet:
        return 0
    on_sheet = found[:MAX_SHEET_ICONS]
    stem = "icons-" + ("-".join(args.words).lower() if args.words else "all")
    stem = "".join(c if c.isalnum() or c in "-_" else "_" for c in stem)[:80]
    pdf = contact_sheet_pdf(on_sheet, f"Icons: {words or 'all'}")
    if len(found) > MAX_SHEET_ICONS:
        print(f"the contact sheet shows the first {MAX_SHEET_ICONS:,}: add a word to narrow the search")
    _write_sheet(args.out / "icons", stem, pdf)
    return 0


def run_templates(args) -> int:
    import yaml

    for path in sorted(SHARED_TEMPLATES.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        parent = f" (extends {data['extends']})" if data.get("extends") else ""
        print(f"{path.stem}{parent}: {data.get('description', '')}")
        fields = [line.split("Field", 1)[1].lstrip("s:").strip() for line in path.read_text(encoding="utf-8").splitlines()
                  if line.startswith("#") and "Field" in line]
        if fields:
            print(f"    fields: {fields[0]}")
        print(f"    boxes: {', '.join(data.get('boxes') or {})}")
    print(f"shared templates in {SHARED_TEMPLATES}; a game's templates/ may extend or override them (docs/yaml.md)")
    if args.no_sheet:
        return 0

    _write_sheet(args.out / "templates", "templates", template_sheet_pdf(shared_template_previews(SHARED_TEMPLATES),
                                                                          "Shared templates"))
    return 0


def _write_sheet(folder: Path, stem: str, pdf: bytes) -> None:
    """The contact sheet PDF and a PNG of its first page, and where they are."""

    write_bytes(folder / f"{stem}.pdf", pdf)
    write_bytes(folder / f"{stem}.png", encode_png(rasterize_pdf(pdf, 150)[0], 150))
    print(f"  {folder / (stem + '.pdf')}\n  {folder / (stem + '.png')} (its first page)")


def doc_pages() -> dict[str, Path]:

    return {path.stem: path for path in sorted(DOCS_FOLDER.glob("*.md"))}


def run_docs(args) -> int:

    pages = doc_pages()
    if args.topic is None:
        for name, path in pages.items():
            headings = (line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("#"))
            title = next((line.lstrip("# ").strip() for line in headings), "")
            print(f"  {name:12} {title}")
        print("spellpress docs TOPIC prints a page")
        return 0
    topic = args.topic.lower().removesuffix(".md")
    if topic not in pages:
        raise UserError.at(Option("TOPIC"), f"no page '{args.topic}'{did_you_mean(topic, pages)} (pages: {', '.join(pages)})")
    print(pages[topic].read_text(encoding="utf-8"), end="")
    return 0
