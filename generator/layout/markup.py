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
# One pass, left to right: an escape, a colour span (its words hold no unescaped bracket, so no
# search runs past the next bracket and 100,000 of them parse in linear time), bold, italic.
_TOKEN = re.compile(r"\\([*\[\]\\])|\[((?:[^\[\]\\]|\\.)*)\]\((#[0-9a-fA-F]{6}(?:[0-9a-fA-F]{2})?)\)|(\*\*)|(\*)")


@dataclass(frozen=True)
class Span:
    text: str
    bold: bool = False
    italic: bool = False
    color: str | None = None  # '#rrggbb' or None for the box's colour


def _tokens(text: str) -> list[tuple[str, str]]:
    """(kind, value) in order: text, bold, italic, colour (its words follow, then an end)."""
    tokens: list[tuple[str, str]] = []
    position = 0
    for match in _TOKEN.finditer(text):
        if match.start() > position:
            tokens.append(("text", text[position:match.start()]))
        escaped, words, colour, bold, italic = match.groups()
        if escaped is not None:
            tokens.append(("text", escaped))
        elif colour is not None:
            tokens += [("colour", colour), *_tokens(words), ("end", "")]
        elif bold:
            tokens.append(("bold", "**"))
        else:
            tokens.append(("italic", "*"))
        position = match.end()
    if position < len(text):
        tokens.append(("text", text[position:]))
    return tokens


def parse(text: str) -> list[Span]:
    """The text as styled spans, in order (line breaks stay inside the spans' text)."""
    if not MARKUP_CHARS.intersection(text):
        return [Span(text)] if text else []
    tokens = _tokens(text)
    for kind in ("bold", "italic"):  # an unpaired last marker is plain text
        places = [i for i, (k, _) in enumerate(tokens) if k == kind]
        if len(places) % 2:
            tokens[places[-1]] = ("text", tokens[places[-1]][1])
    runs: list[tuple[tuple, list[str]]] = []  # (style, pieces), joined once: no quadratic string building
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
            if runs and runs[-1][0] == style:
                runs[-1][1].append(value)
            else:
                runs.append((style, [value]))
    return [Span("".join(pieces), *style) for style, pieces in runs]


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


_OPENS_AFTER = frozenset("([{*/\u2014\u2013-\u00ab")  # a quote after these (or a space, or nothing) opens


def typographic(text: str) -> str:
    """Straight quotes as typographic ones: ' as an apostrophe (don't, players') or a single quote, " as
    double quotes, each opening or closing by what stands before and after it."""
    if "'" not in text and '"' not in text:
        return text
    out = []
    for index, char in enumerate(text):
        if char not in "'\"":
            out.append(char)
            continue
        before = text[index - 1] if index else ""
        after = text[index + 1] if index + 1 < len(text) else ""
        opening = (not before or before.isspace() or before in _OPENS_AFTER) and bool(after) and not after.isspace()
        if char == '"':
            out.append("\u201c" if opening else "\u201d")
        else:
            out.append("\u2018" if opening else "\u2019")
    return "".join(out)
