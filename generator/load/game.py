"""Read a game folder (game.yaml and its component files) into a `Game`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spellpress.errors import Location, Problems, UserError
from spellpress.load.icon_verdicts import passed_before
from spellpress.load.validate import validated
from spellpress.load.yamlsrc import Document, read_yaml
from spellpress.model.game import BackFace, Card, Component, Game, freeze
from spellpress.model.limits import (
    MAX_CARDS_PER_GAME,
    MAX_COPIES_PER_CARD,
    MAX_GAME_TEXT,
    MAX_WORD_FILE_BYTES,
    MAX_WORD_LETTERS,
    MAX_WORD_LIST_DENSITY,
)
from spellpress.model.schema import RESERVED_CARD_KEYS, SHIPPED_LISTS, ComponentSpec, GameSpec
from spellpress.model.sizes import CARD_SIZES
from spellpress.paths import SHARED_FONTS, SHARED_ICONS, inside
from spellpress.suggest import did_you_mean
from spellpress.wording import quoted

if TYPE_CHECKING:
    from spellpress.load.templates import TemplateLoader

_TYPES = {"str": (str,), "int": (int,), "float": (int, float), "bool": (bool,), "list": (list,), "map": (dict,)}


def _lenient_spec(data: Any) -> GameSpec | None:
    """GameSpec from game.yaml without its mistaken top-level keys, or None when that is not enough."""
    from pydantic import ValidationError

    if not isinstance(data, dict):
        return None
    try:
        GameSpec.model_validate(data)
    except ValidationError as exc:
        mistaken = {error["loc"][0] for error in exc.errors() if error["loc"]}
    else:
        return None  # valid after all: not this function's case
    try:
        return GameSpec.model_validate({key: value for key, value in data.items() if key not in mistaken})
    except ValidationError:
        return None


def font_problem(path: Path) -> str | None:
    """Why a font file cannot be used, or None: it must parse as TrueType with TrueType outlines."""
    from reportlab.pdfbase.ttfonts import TTFError, TTFontFile

    head = path.read_bytes()[:4]
    if head == b"OTTO":
        return "has OpenType CFF outlines; a TrueType .ttf (TrueType outlines) is needed"
    if head not in (b"\x00\x01\x00\x00", b"true"):
        return "is not a TrueType font file" + (" (it is empty)" if not head else "")
    try:
        parsed = TTFontFile(str(path), validate=0)
    except (TTFError, Exception) as exc:  # a damaged file fails in many ways inside the parser
        return f"cannot be read as TrueType: {exc}"
    size = path.stat().st_size
    for tag, table in parsed.table.items():
        if table["offset"] + table["length"] > size:
            return f"is cut short: its '{tag}' table ends past the end of the file"
    return _damaged_glyphs(parsed)


def _damaged_glyphs(parsed) -> str | None:
    """The glyph outlines are read only when a PDF embeds them: every glyph the font maps is read here, as
    the PDF writer would (in its subsets of 255), so that damaged outlines fail check, not build (struct.error)."""
    codes = sorted(parsed.charToGlyph)
    for start in range(0, len(codes), 255):
        try:
            parsed.makeSubset([0, *codes[start:start + 255]])
        except Exception as exc:  # a damaged glyph fails in many ways inside the parser
            return f"has damaged glyph data (for U+{codes[start]:04X} to U+{codes[min(start + 254, len(codes) - 1)]:04X}: {exc})"
    return None


def builtin_fonts() -> dict[str, Path]:
    return {path.stem: path for path in sorted(SHARED_FONTS.glob("*.ttf"))}


def builtin_icons() -> dict[str, Path]:
    return {path.stem: path for path in sorted(SHARED_ICONS.glob("*.svg"))}


def load_game(folder: Path, *, templates: bool = True) -> Game:
    """The validated game, or a UserError listing every problem found.

    templates=False leaves the card templates out (not read, not checked; `Game.templates` empty): a
    simulation plays the rules alone, and then does not import the template and expression code."""
    problems = Problems()
    doc = read_yaml(folder / "game.yaml")
    spec = validated(GameSpec, doc.data, doc, (), problems)
    if spec is None:
        # game.yaml has mistakes: read what it names anyway, with the keys that were right, so
        # the component files' own mistakes are listed too (they are all raised together below)
        spec = _lenient_spec(doc.data)
        if spec is None:
            problems.raise_if_any()
    assert spec is not None
    game_id = spec.id or folder.resolve().name

    fonts = _fonts(spec, folder, doc, problems)
    icons = _icons(spec, folder, doc, problems)

    spec = _with_word_file(spec, folder, doc, problems)

    loader = None
    if templates:
        from spellpress.load.templates import TemplateLoader

        loader = TemplateLoader(folder, problems)
    back_locations = {}
    for back_name, back in spec.backs.items():
        if loader is not None:
            loader.get(back.template, doc.locate(("backs", back_name, "template")))
        back_locations[back_name] = doc.locate(("backs", back_name, "fields") if back.fields else ("backs", back_name))

    components: list[Component] = []
    seen_ids: dict[str, Location] = {}
    for index, relative in enumerate(spec.components):
        where = doc.locate(("components", index))
        try:
            path = inside(folder, relative, where, "component file")
            component = _load_component(path, folder, spec, loader, problems, back_locations)
        except UserError as exc:
            problems.extend(exc)
            continue
        if component is None:
            continue
        if component.id in seen_ids:
            problems.add(component.location, f"component id '{component.id}' is already used at {seen_ids[component.id]}")
        seen_ids[component.id] = component.location
        components.append(component)

    total = sum(component.copies for component in components)
    if total > MAX_CARDS_PER_GAME:
        problems.add(doc.locate(("components",)), f"the game has {total:,} cards; a game may have at most {MAX_CARDS_PER_GAME:,}")
    characters = sum(_text_length(card.fields) for component in components for card in component.cards)
    if characters > MAX_GAME_TEXT:
        problems.add(doc.locate(("components",)), f"the game's cards hold {characters:,} characters of text; a game may hold "
                     f"at most {MAX_GAME_TEXT:,} (10,000 cards of 1,000), so that check and build lay it out in seconds")
    problems.raise_if_any()
    loaded = {} if loader is None else {name: template for name, template in loader.loaded.items() if template is not None}
    return Game(
        id=game_id,
        root=folder,
        spec=spec,
        components=tuple(components),
        templates=loaded,
        fonts=fonts,
        icons=icons,
        location=doc.locate(),
    )


def _fonts(spec: GameSpec, folder: Path, doc, problems: Problems) -> dict[str, Path]:
    """The shipped fonts and the game's own, each of its own checked to be a usable TrueType file."""
    fonts = builtin_fonts()
    for name, relative in spec.fonts.items():
        try:
            path = inside(folder, relative, doc.locate(("fonts", name)), "font")
        except UserError as exc:
            problems.extend(exc)
            continue
        if path.suffix.lower() != ".ttf":
            problems.add(doc.locate(("fonts", name)), f"font '{relative}' must be a TrueType .ttf file")
        else:
            unusable = font_problem(path)
            if unusable:
                problems.add(doc.locate(("fonts", name)), f"font '{relative}' {unusable}")
        fonts[name] = path
    return fonts


def _icons(spec: GameSpec, folder: Path, doc, problems: Problems) -> dict[str, Path]:
    """The shipped icons and the game's own, each of its own checked as an SVG inside the game folder."""
    icons = builtin_icons()
    for name, relative in spec.icons.items():
        try:
            icons[name] = inside(folder, relative, doc.locate(("icons", name)), "icon")
        except UserError as exc:
            problems.extend(exc)
            continue
        if not passed_before(icons[name]):  # else svg_refs (lxml) and svglib are not even imported
            from spellpress.load.svg_refs import check_icon

            check_icon(icons[name], folder, problems)
    return icons


def _text_length(value: Any) -> int:
    """Characters of text in a card's field values, lists and maps included."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, Mapping):
        return sum(_text_length(item) for item in value.values())
    if isinstance(value, (list, tuple)):
        return sum(_text_length(item) for item in value)
    return 0


def _with_word_file(spec: GameSpec, folder: Path, doc: Document, problems: Problems) -> GameSpec:
    """`words.lexicon` naming a shipped list (of a language whose letters the game's has) or a word file:
    a word file is checked word by word, and kept as its resolved path."""
    from spellpress.model.languages import BY_LIST, LANGUAGES  # no word list is read here
    language = LANGUAGES[spec.words.language]
    where = doc.locate(("words", "lexicon"))
    shipped = BY_LIST.get(spec.words.lexicon)
    if shipped is not None:
        if not set(shipped.alphabet) <= set(language.alphabet):
            problems.add(where, f"the {shipped.list_name} list has letters ({shipped.own_letters}) that words.language "
                                f"'{language.code}' does not; set words.language: {shipped.code}")
        return spec
    from spellpress.words.lexicon import describe, word_file_lines  # only for a game with its own list
    try:
        path = inside(folder, spec.words.lexicon, where, "word list")
        if path.stat().st_size > MAX_WORD_FILE_BYTES:
            problems.add(where, f"word list '{spec.words.lexicon}' is {path.stat().st_size:,} bytes; a word list may have "
                                f"at most {MAX_WORD_FILE_BYTES:,}, so that letters and simulate take seconds, not "
                                "minutes: keep the words players know (or use a shipped list: "
                                f"{', '.join(SHIPPED_LISTS.values())})")
            return spec
        lines = list(word_file_lines(path, language))
    except UserError as exc:
        problems.extend(exc)
        return spec
    except (OSError, UnicodeDecodeError) as exc:
        problems.add(where, f"word list '{spec.words.lexicon}' cannot be read as UTF-8 text ({exc})")
        return spec
    letters = describe(language)
    bad = [(number, word) for number, word in lines if not language.word.fullmatch(word) or len(word) > MAX_WORD_LETTERS]
    for number, word in bad[:5]:
        shown = quoted(word)
        if len(word) > MAX_WORD_LETTERS and language.word.fullmatch(word):
            problems.add(Location(path, number, 1), f"a word may have at most {MAX_WORD_LETTERS} letters, got {shown}")
        else:
            problems.add(Location(path, number, 1), f"expected one word of letters {letters} on the line, got {shown}")
    if len(bad) > 5:
        problems.add(Location(path), f"and {len(bad) - 5:,} more lines that are not words of letters {letters} "
                                     f"(at most {MAX_WORD_LETTERS})")
    if not lines:
        problems.add(where, f"word list '{spec.words.lexicon}' has no words")
    elif not bad:
        _check_density(spec.words.lexicon, [word for _, word in lines], language, where, problems)
    return spec.model_copy(update={"words": spec.words.model_copy(update={"lexicon": str(path)})})


def _check_density(name: str, words: list[str], language, where, problems: Problems) -> None:
    """A list denser in short words than the shipped ones (a dictionary's rarest words, random letters)
    makes every hand make more words, and `letters` and `simulate` take several times as long or
    minutes: refused here, before any hand is dealt."""
    from spellpress.words.density import ESTIMATE_HAND, letter_sets_made
    made = letter_sets_made(words, len(language.alphabet))
    if made > MAX_WORD_LIST_DENSITY:
        problems.add(where, f"word list '{name}' is too dense in short words: a hand of {ESTIMATE_HAND} letters would "
                            f"make about {made:.0f} of its letter sets (at most {MAX_WORD_LIST_DENSITY}; the shipped "
                            f"lists: 11 to 13; SCOWL's English to size 70: 16, to size 95: 33; random letters: 57 and "
                            f"more), and letters and simulate would take several times as long as with a shipped "
                            f"list, or minutes: keep the words players know (rare two- to four-letter words count most)")


def _load_component(path: Path, root: Path, game: GameSpec, templates: TemplateLoader | None, problems: Problems,
                    back_locations: Mapping[str, Location]) -> Component | None:
    doc = read_yaml(path)
    spec = validated(ComponentSpec, doc.data, doc, (), problems)
    if spec is None:
        return None
    component_id = spec.id or path.stem
    size = _size(spec, game, doc, problems)
    if templates is not None:
        templates.get(spec.template, doc.locate(("template",)))
    back: BackFace | None = None
    if spec.back_template:
        if templates is not None:
            templates.get(spec.back_template, doc.locate(("back_template",)))
        back = BackFace(spec.back_template, freeze({}), per_card=True)
    elif spec.back:
        named = game.backs.get(spec.back)
        if named is None:
            known = ", ".join(sorted(game.backs)) or "none defined in game.yaml"
            problems.add(doc.locate(("back",)),
                         f"unknown back '{spec.back}'{did_you_mean(spec.back, game.backs)} (backs: {known})")
        else:
            back = BackFace(named.template, freeze(named.fields), per_card=False, location=back_locations.get(spec.back))
    every_card = tuple(_cards(spec, component_id, _card_sources(spec, root, doc, problems), problems))
    cards = tuple(card for card in every_card if card.count > 0)
    if size is None:
        return None
    return Component(
        id=component_id,
        name=spec.name,
        kind=spec.kind,
        size=size,
        template=spec.template,
        back=back,
        letters=spec.letters,
        cards=cards,
        location=doc.locate(),
        size_location=doc.locate(("size",)),
        left_out=tuple(card.id for card in every_card if card.count == 0),
    )


def _size(spec: ComponentSpec, game: GameSpec, doc: Document, problems: Problems) -> tuple[float, float] | None:
    if not isinstance(spec.size, str):
        return (spec.size.width, spec.size.height)
    if spec.size in game.sizes:
        custom = game.sizes[spec.size]
        return (custom.width, custom.height)
    if spec.size in CARD_SIZES:
        return CARD_SIZES[spec.size]
    known = ", ".join([*CARD_SIZES, *game.sizes])
    problems.add(doc.locate(("size",)), f"unknown size '{spec.size}' (known: {known}; or give width and height)")
    return None


Locate = Callable[..., Location]  # (*names under the card, at_key=False) -> where the card (or its value) is written


def _card_sources(spec: ComponentSpec, root: Path, doc: Document, problems: Problems) -> Iterator[tuple[Any, Locate]]:
    """Each card's raw fields and how to locate them: the YAML list, or a spreadsheet's rows."""
    if spec.cards is not None:
        for index, raw in enumerate(spec.cards):
            yield raw, (lambda *names, at_key=False, index=index: doc.locate(("cards", index, *names), at_key=at_key))
        return
    from spellpress.load.spreadsheet_cards import spreadsheet_cards

    yield from spreadsheet_cards(spec, root, doc.locate(("cards_from",)), problems)


def _cards(spec: ComponentSpec, component_id: str, sources: Iterable[tuple[Any, Locate]], problems: Problems):
    schema = spec.fields
    seen: dict[str, int] = {}
    for index, (raw, locate) in enumerate(sources):
        where = locate()
        if not isinstance(raw, dict):
            problems.add(where, "a card must be a mapping of fields")
            continue
        count = raw.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            problems.add(locate("count"), f"count must be a whole number, 0 (left out for now) or more, got {quoted(count)}")
            continue
        if count > MAX_COPIES_PER_CARD:
            problems.add(locate("count"), f"count may be at most {MAX_COPIES_PER_CARD:,} copies of one card, got {count:,}")
            continue
        card_id = raw.get("id", f"{component_id}-{index + 1:03d}")
        if not isinstance(card_id, str):
            problems.add(locate("id"), "id must be text")
            continue
        if card_id in seen:
            problems.add(locate("id"), f"card id {quoted(card_id)} is already used by card {seen[card_id] + 1} of this file")
            continue
        seen[card_id] = index
        back_fields = raw.get("back", {})
        if not isinstance(back_fields, dict):
            problems.add(locate("back"), "back must be a mapping of the back side's fields")
            continue
        fields = {**spec.defaults, **{k: v for k, v in raw.items() if k not in RESERVED_CARD_KEYS}}
        if schema:
            _check_fields(fields, schema, locate, (), problems)
            _check_fields(back_fields, schema, locate, ("back",), problems, partial=True)
        yield Card(card_id, freeze(fields), count, freeze({**fields, **back_fields}), where)


def _check_fields(fields: dict[str, Any], schema: Mapping[str, str], locate: Locate, key: tuple, problems: Problems,
                  partial: bool = False) -> None:
    for name, value in fields.items():
        declared = schema.get(name)
        if declared is None:
            problems.add(locate(*key, name, at_key=True),
                         f"unknown field '{name}'{did_you_mean(name, schema)} (fields: {', '.join(schema)})")
            continue
        optional = declared.endswith("?")
        if value is None and optional:
            continue
        kinds = _TYPES[declared.rstrip("?")]
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            problems.add(locate(*key, name), f"field '{name}' must be {declared.rstrip('?')}, got {quoted(value)}")
    if not partial:
        for name, declared in schema.items():
            if not declared.endswith("?") and name not in fields:
                problems.add(locate(*key), f"missing field '{name}'")
