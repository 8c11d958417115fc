"""Rich text in a text box: a small Markdown subset.

    **bold**   *italic*   ***both***   [coloured words](#8b1e1e)   :icon:   a line break
    \\*  \\[  \\\\  a literal asterisk, bracket or backslash

A marker without a partner prints as it is (one `*` in "5 * 3" is a star), so text
written before markup existed reads the same. Styles may nest (a bold word inside a
colour span) and continue across line breaks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MARKUP_CHARS = frozenset("*[\\")  # text without any of these is plain
_COLOUR_SPAN = re.compile(r"\[((?:[^\]\\]|\\.)*)\]\((#[0-9a-fA-F]{6}(?:[0-9a-fA-F]{2})?)\)")
_TOKEN = re.compile(r"\\([*\[\]\\])|(\*\*)|(\*)|(\x00[^\x01]*\x01)|(\x02)")


@dataclass(frozen=True)
class Span:
    text: str
    bold: bool = False
    italic: bool = False
    color: str | None = None  # '#rrggbb' or None for the box's colour


def parse(text: str) -> list[Span]:
    """The text as styled spans, in order (line breaks stay inside the spans' text)."""
    if not MARKUP_CHARS.intersection(text):
        return [Span(text)] if text else []
    # colour spans become private markers around their content: \x00#colour\x01 ... \x02
    marked = _COLOUR_SPAN.sub(lambda m: f"\x00{m.group(2)}\x01{m.group(1)}\x02", text)
    tokens: list[tuple[str, str]] = []
    position = 0
    for match in _TOKEN.finditer(marked):
        if match.start() > position:
            tokens.append(("text", marked[position:match.start()]))
        escaped, bold, italic, colour, end = match.groups()
        if escaped is not None:
            tokens.append(("text", escaped))
        elif bold:
            tokens.append(("bold", "**"))
        elif italic:
            tokens.append(("italic", "*"))
        elif colour:
            tokens.append(("colour", colour[1:-1]))
        else:
            tokens.append(("end", ""))
        position = match.end()
    if position < len(marked):
        tokens.append(("text", marked[position:]))
    for kind in ("bold", "italic"):  # an unpaired last marker is plain text
        places = [i for i, (k, _) in enumerate(tokens) if k == kind]
        if len(places) % 2:
            tokens[places[-1]] = ("text", tokens[places[-1]][1])
    spans: list[Span] = []
    bold = italic = False
    colours: list[str] = []
    for kind, value in tokens:
        if kind == "bold":
            bold = not bold
        elif kind == "italic":
            italic = not italic
        elif kind == "colour":
            colours.append(value)
        elif kind == "end":
            colours.pop()
        elif value:
            style = (bold, italic, colours[-1] if colours else None)
            if spans and (spans[-1].bold, spans[-1].italic, spans[-1].color) == style:
                spans[-1] = Span(spans[-1].text + value, *style)
            else:
                spans.append(Span(value, *style))
    return spans


def plain(text: str) -> str:
    """The text without its markup (what the reader sees)."""
    return "".join(span.text for span in parse(text))


def styled_font(font: str, bold: bool, italic: bool) -> str:
    """The face of `font`'s family for a style, by name: EBGaramond-Regular -> EBGaramond-Bold,
    EBGaramond-Italic, EBGaramond-BoldItalic. A face that is already bold stays itself for bold."""
    if not bold and not italic:
        return font
    family, _, style = font.rpartition("-")
    if not family:
        family, style = font, "Regular"
    weight = "Bold" if bold else ("" if style in ("Regular", "Italic") else style.replace("Italic", ""))
    if bold and style in ("SemiBold", "Bold", "ExtraBold", "Black"):
        weight = style
    if italic:
        return f"{family}-{weight}Italic"
    return f"{family}-{weight}"
