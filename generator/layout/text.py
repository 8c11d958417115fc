"""Fit text into a box: wrap, shrink to fit, and set inline icons on the baseline.

`:name:` in text is an inline icon: as tall as the font's cap-height band
(ICON_EM of the size), square, with its bottom on the line's baseline. An icon
standing alone as a word never ends a line (it stays with the word after it), nor
starts one at the end of a paragraph (it stays with the word before it).

A line break starts a new line; a blank line starts a paragraph, `paragraph` times the
size below the last (not a whole empty line); a line that starts with `- ` or `• ` is a
bullet, its wrapped lines hanging behind the bullet; in a left-aligned box, so is a line
that starts with an icon standing alone (`:draw: **Draw** a letter`), the icon its bullet.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from spellpress.geometry import Box
from spellpress.layout import fonts, ink_bounds, markup
from spellpress.layout.ops import Icon, Rgba, Text
from spellpress.units import MM_PER_POINT

ICON_EM = 0.8
_TOKEN = re.compile(r":([a-z0-9][a-z0-9-]*):")
SHRINK_STEP_PT = 0.25
INK_TOLERANCE_MM = 0.2  # ink this far past a box is not seen in print (a hairline of an accent or serif)


class TextFitError(ValueError):
    pass


@dataclass(frozen=True)
class Piece:
    text: str = ""
    icon: str = ""  # icon name when this piece is an inline icon
    font: str | None = None  # a styled run's face (bold, italic); None: the box's font
    color: Rgba | None = None  # a colour span's colour; None: the box's colour
    blank_pt: float = 0.0  # an empty stretch this wide: between a list item's mark and its words

    def width_pt(self, font: str, size: float) -> float:
        if self.blank_pt:
            return self.blank_pt
        return size * ICON_EM if self.icon else fonts.width(self.text, self.font or font, size)


Word = tuple[Piece, ...]
StyleFont = Callable[[bool, bool], str]  # (bold, italic) -> the registered face for the box's font
BULLET = "\u2022"
_TRAILING = frozenset(",.;:!?)")
_AMOUNT = re.compile(r"^[+\-\u2212\u00d7x]?\d+\+?$")  # 5, +2, 3+, ×2: an amount of the icon after it


def _plain(word: Word) -> str:
    return "".join(piece.text for piece in word)


@dataclass(frozen=True)
class Paragraph:
    """The words between two line breaks; `gap`: a blank line came before it; `bullet`: the mark of a
    list item (a bullet or an icon), its lines hanging behind it."""

    words: tuple[Word, ...]
    gap: bool = False
    bullet: Word = ()


@dataclass(frozen=True)
class Line:
    words: tuple[Word, ...]
    gap: bool = False  # paragraph spacing above it
    bullet: Word = ()  # on the first line of a list item: its mark, drawn before its words
    indent_pt: float = 0.0  # where its words start: behind the bullet, for every line of a bullet


def paragraphs_of(text: str, icons: Mapping[str, str], style_font: StyleFont | None,
                  color_of: Callable[[str], Rgba | None], icon_bullets: bool = False) -> list[Paragraph]:
    """The text's paragraphs: blank lines become the next one's gap, a leading `- ` or `• ` a bullet
    (and with `icon_bullets`, a leading lone icon), and a lone icon is bound to the word it belongs to."""
    found: list[Paragraph] = []
    gap = False
    for words in styled_words(text, icons, style_font, color_of):
        if not words:
            gap = bool(found)  # a blank line; none above the first paragraph
            continue
        mark: Word = ()
        if len(words) > 1 and not words[0][0].icon and _plain(words[0]) in ("-", BULLET):
            mark = (Piece(BULLET, "", None, words[0][0].color),)
        elif len(words) > 1 and icon_bullets and _icon_word(words[0]) == "alone":
            mark = words[0]
        found.append(Paragraph(_bind_icons(words[1:] if mark else words), gap, mark))
        gap = False
    return found


def _icon_word(word: Word) -> str:
    """'alone': only icons; 'closing': icons, then punctuation (':energy:,'); '' for any other word."""
    if not word[0].icon:
        return ""
    end = next((index for index, piece in enumerate(word) if not piece.icon), len(word))
    if any(piece.icon for piece in word[end:]):
        return ""
    rest = "".join(piece.text for piece in word[end:])
    return "alone" if not rest else "closing" if set(rest) <= _TRAILING else ""


def _bind_icons(words: list[Word]) -> tuple[Word, ...]:
    """A lone icon joined to the word it belongs to: an amount before it ('pay 5 :spirit:'), else the
    word after it (':wild: WILD'), so that it never ends a line apart from its word; one at the
    paragraph's end, or one closing a phrase (':energy:,'), joined to the word before it."""
    bound: list[Word] = []
    carry: Word = ()
    for index, word in enumerate(words):
        kind = _icon_word(word)
        if carry:
            word = carry + (space_after(carry),) + word
            carry = ()
        if kind == "alone" and index + 1 < len(words) and not (bound and _AMOUNT.match(_plain(bound[-1]))):
            carry = word
        elif kind and bound:
            bound[-1] = bound[-1] + (space_after(bound[-1]),) + word
        else:
            bound.append(word)
    return tuple(bound)


def styled_words(text: str, icons: Mapping[str, str], style_font: StyleFont | None,
                 color_of: Callable[[str], Rgba | None]) -> list[list[Word]]:
    """Paragraphs (split at line breaks) of words (split at spaces), each word its styled pieces."""
    spans = markup.parse(text) if style_font is not None else [markup.Span(text)]
    paragraphs: list[list[Word]] = [[]]
    current: list[Piece] = []

    def end_word() -> None:
        if current:
            paragraphs[-1].append(tuple(current))
            current.clear()

    for span in spans:
        font = style_font(span.bold, span.italic) if (span.bold or span.italic) and style_font else None
        color = color_of(span.color) if span.color else None
        for index, line in enumerate(span.text.split("\n")):
            if index:
                end_word()
                paragraphs.append([])
            for part_index, part in enumerate(line.split(" ")):
                if part_index:
                    end_word()
                if part and font is None and color is None:
                    current.extend(split_pieces(part, icons))
                elif part:
                    current.extend(Piece(p.text, p.icon, font, color) for p in split_pieces(part, icons))
    end_word()
    return paragraphs


SPACE = Piece(" ")


def space_after(word: Word) -> Piece:
    """The space after a word, in the style of the word's last letters (so a styled run stays one run)."""
    last = word[-1]
    if last.icon or (last.font is None and last.color is None):
        return SPACE
    return Piece(" ", "", last.font, last.color)


def split_pieces(word: str, icons: Mapping[str, str]) -> Word:
    if ":" not in word:
        return (Piece(text=word),)
    pieces: list[Piece] = []
    position = 0
    for match in _TOKEN.finditer(word):
        name = match.group(1)
        if name not in icons:
            continue  # plain text that happens to look like :this:
        if match.start() > position:
            pieces.append(Piece(text=word[position : match.start()]))
        pieces.append(Piece(icon=name))
        position = match.end()
    if position < len(word):
        pieces.append(Piece(text=word[position:]))
    return tuple(pieces)


def unknown_icons(text: str, icons: Mapping[str, str]) -> list[str]:
    return [name for name in _TOKEN.findall(text) if name not in icons]


def bullet_indent_pt(mark: Word, font: str, size: float) -> float:
    """Where a list item's words start: behind its mark and a space, at least half an em."""
    return max(sum(piece.width_pt(font, size) for piece in mark) + fonts.width(" ", font, size), size * 0.5)


def wrap(paragraphs: list[Paragraph], font: str, size: float, max_width_pt: float) -> list[Line] | None:
    """Greedy line breaking; None when a single word is wider than the box."""
    lines: list[Line] = []
    for paragraph in paragraphs:
        indent = bullet_indent_pt(paragraph.bullet, font, size) if paragraph.bullet else 0.0
        width = max_width_pt - indent
        line: list[Word] = []
        line_width = 0.0
        first = True
        for word in paragraph.words:
            word_width = sum(piece.width_pt(font, size) for piece in word)
            if word_width > width + 1e-6:
                return None
            added = word_width if not line else line_width + space_after(line[-1]).width_pt(font, size) + word_width
            if line and added > width + 1e-6:
                lines.append(Line(tuple(line), paragraph.gap and first, paragraph.bullet if first else (), indent))
                first = False
                line, line_width = [word], word_width
            else:
                line, line_width = line + [word], added
        lines.append(Line(tuple(line), paragraph.gap and first, paragraph.bullet if first else (), indent))
    return lines


def block_height_pt(lines: list[Line], font: str, size: float, leading: float, paragraph: float = 0.0) -> float:
    ascent, descent = fonts.vertical_metrics(font)
    gaps = sum(line.gap for line in lines)
    return (len(lines) - 1) * size * leading + (ascent - descent) * size + gaps * paragraph * size


def fit_text(
    text: str,
    *,
    box: Box,
    font: str,
    size: float,
    min_size: float,
    leading: float,
    align: str,
    valign: str,
    color: Rgba,
    icons: Mapping[str, str],
    ink_may_overflow: bool = False,
    style_font: StyleFont | None = None,
    color_of: Callable[[str], Rgba | None] = lambda value: None,
    paragraph: float = 0.5,
) -> tuple[tuple, float]:
    """Operations drawing `text` inside `box` (x, y, w, h in mm, y up), and the size used.

    The text shrinks until its lines fit by advance widths and line height, and until its
    glyphs' ink stays inside the box too (unless `ink_may_overflow`). With `style_font`, the text's
    markup (generator/layout/markup.py) sets bold, italic and colour runs. A blank line puts
    `paragraph` times the size between paragraphs."""
    x, y, w, h = box
    paragraphs = paragraphs_of(text, icons, style_font, color_of, icon_bullets=align == "left")
    width_pt, height_pt = w / MM_PER_POINT, h / MM_PER_POINT
    sizes = [size]  # the sizes tried, largest first
    while sizes[-1] - SHRINK_STEP_PT >= min_size - 1e-9:
        sizes.append(round(sizes[-1] - SHRINK_STEP_PT, 4))
    first, lines = _first_fitting(sizes, lambda size: _fitted(wrap(paragraphs, font, size, width_pt), font, size, leading,
                                                              paragraph, height_pt))
    for current in sizes[first:]:
        if current != sizes[first] or lines is None:  # (None: no size fits; its lines say by how much)
            lines = wrap(paragraphs, font, current, width_pt)
        last = current == sizes[-1]
        if lines is not None and block_height_pt(lines, font, current, leading, paragraph) <= height_pt + 1e-6:
            ops = _place(lines, box, font=font, size=current, leading=leading, paragraph=paragraph, align=align,
                         valign=valign, color=color, icons=icons)
            if ink_may_overflow:
                return ops, current
            past, side = ink_bounds.overflow(ops, box)
            if past <= INK_TOLERANCE_MM:
                return ops, current
            if last:
                raise TextFitError(
                    f"the ink of {text[:40]!r} reaches {past:.1f} mm past the box's {side} edge even at "
                    f"{min_size:g} pt (glyphs draw beyond their advance and line height): make the box larger, "
                    f"lower min_size, or set overflow: true"
                )
        elif last:
            raise TextFitError(
                f"text does not fit in {w:.1f} x {h:.1f} mm even at {min_size:g} pt: {text[:40]!r}; "
                + shortfall(paragraphs, lines, font, current, leading, paragraph, w, h)
            )
    raise AssertionError("the last size returns or raises")


def _fitted(lines: list[Line] | None, font: str, size: float, leading: float, paragraph: float, height_pt: float):
    """The lines when they fit the box by advance widths and line height, else None."""
    return lines if lines is not None and block_height_pt(lines, font, size, leading, paragraph) <= height_pt + 1e-6 else None


def _first_fitting(sizes: list[float], fitting: Callable[[float], list | None]) -> tuple[int, list | None]:
    """The index of the largest size whose lines fit (`fitting`: the lines at a size, or None), and those lines;
    the last index when none fits. A smaller size never needs more lines (every width shrinks with it), so the
    sizes that fit follow those that do not: a bisection finds the first in a few wraps, not one wrap for each
    quarter point down to min_size (a 5,000-character text that fits at no size took 19)."""
    found = {0: fitting(sizes[0])}
    if len(sizes) == 1 or found[0] is not None:
        return 0, found[0]
    low, high = 1, len(sizes) - 1  # the answer is in low..high; the last size is tried (and reported) as the last
    while low < high:
        middle = (low + high) // 2
        found[middle] = fitting(sizes[middle])
        if found[middle] is not None:
            high = middle
        else:
            low = middle + 1
    return low, found.get(low)


def shortfall(paragraphs: list[Paragraph], lines: list[Line] | None, font: str, size: float, leading: float,
              paragraph: float, w: float, h: float) -> str:
    """By how much text misses its box at `size`: the widest word's excess, or the missing height."""
    if lines is None:
        widest = max((word for p in paragraphs for word in p.words), key=lambda word: sum(p.width_pt(font, size) for p in word))
        width = sum(p.width_pt(font, size) for p in widest) * MM_PER_POINT
        shown = "".join(getattr(p, "text", "") for p in widest) or "an icon"
        return f"the word {shown!r} alone is {width:.1f} mm wide, {width - w:.1f} mm more than the box"
    needed = block_height_pt(lines, font, size, leading, paragraph) * MM_PER_POINT
    return (f"its {len(lines)} lines need {needed:.1f} mm of height, {needed - h:.1f} mm more than the box "
            f"(about {100 * (1 - h / needed):.0f}% less text would fit)")


def _flush(ops: list, run: str, start: float, baseline: float, style: tuple[str, Rgba], size: float) -> None:
    """The run of text set so far in one font and colour, as one Text op (nothing for blanks)."""
    if run.strip():
        ops.append(Text(round(start, 4), round(baseline, 4), style[0], size, style[1], run))


def _place(lines: list[Line], box: Box, *, font: str, size: float, leading: float, paragraph: float, align: str,
           valign: str, color: Rgba, icons: Mapping[str, str]) -> tuple:
    x, y, w, h = box
    ascent, _ = fonts.vertical_metrics(font)
    block = block_height_pt(lines, font, size, leading, paragraph) * MM_PER_POINT
    top = y + h
    if valign == "middle":
        top = y + (h + block) / 2
    elif valign == "bottom":
        top = y + block
    ops: list = []
    gaps = 0
    for index, line in enumerate(lines):
        gaps += line.gap
        baseline = top - (ascent * size + index * size * leading + gaps * paragraph * size) * MM_PER_POINT
        pieces = [piece for word_index, word in enumerate(line.words)
                  for piece in (((space_after(line.words[word_index - 1]),) if word_index else ()) + word)]
        if line.indent_pt:  # a list item's line: its mark (on the first line only), then the hanging indent
            mark_width = sum(p.width_pt(font, size) for p in line.bullet)
            pieces = [*line.bullet, Piece(blank_pt=line.indent_pt - mark_width), *pieces]
        line_width = sum(p.width_pt(font, size) for p in pieces) * MM_PER_POINT
        cursor = x
        if align == "center":
            cursor = x + (w - line_width) / 2
        elif align == "right":
            cursor = x + w - line_width
        run, run_start, run_style = "", cursor, (font, color)

        for piece in pieces:
            piece_width = piece.width_pt(font, size) * MM_PER_POINT
            style = (piece.font or font, piece.color or color)
            if piece.icon or piece.blank_pt:
                _flush(ops, run, run_start, baseline, run_style, size)
                side = size * ICON_EM * MM_PER_POINT
                if piece.icon:
                    ops.append(Icon(icons[piece.icon], round(cursor, 4), round(baseline, 4), round(side, 4), round(side, 4),
                                    style[1]))
                run, run_start = "", cursor + piece_width
            elif style != run_style:
                _flush(ops, run, run_start, baseline, run_style, size)
                run, run_start, run_style = piece.text, cursor, style
            else:
                run += piece.text
            cursor += piece_width
        _flush(ops, run, run_start, baseline, run_style, size)
    return tuple(ops)
