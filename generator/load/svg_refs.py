"""Check a game's SVG icon before it is drawn: readable, of a sane size, and every file it references stays in the game.

svglib follows relative `xlink:href` references (to images and to other SVG files) wherever
they lead, so an icon could pull a file from outside the game folder into the PDF. Each
reference is checked here, with the line that makes it, before svglib ever sees the file.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
from io import BytesIO
from pathlib import Path

from lxml import etree  # svglib's own XML library

from spellpress.errors import Location, Problems
from spellpress.images import raster_size, read_svg
from spellpress.load.icon_verdicts import remember_passed
from spellpress.model.limits import (
    MAX_ICON_BYTES,
    MAX_ICON_COORDINATE,
    MAX_ICON_ELEMENTS,
    MAX_ICON_PATH_NUMBERS,
    MAX_ICON_USE_EXPANSIONS,
)

HREF_ATTRIBUTES = ("{http://www.w3.org/1999/xlink}href", "href")
_CSS_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.IGNORECASE | re.DOTALL)
_CSS_IMPORT = re.compile(r"@import", re.IGNORECASE)
_EMBEDDED_IMAGE = re.compile(r"^data:image/(jpe?g|png);base64,?")  # what svglib decodes (xlink_href_target)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def check_icon(svg: Path, root: Path, problems: Problems, seen: set[Path] | None = None) -> None:
    """Add a problem for an unreadable SVG or for each reference that leaves `root`.

    The files it references are checked too, as svglib will read them: another SVG the same
    way (once, whatever the cycles), a raster image as an image box's would be.
    """
    seen = set() if seen is None else seen
    if svg.resolve() in seen:
        return
    seen.add(svg.resolve())

    found_before = len(problems.items)
    top = _readable_root(svg, problems)
    if top is None:
        return
    for node in top.iter():
        _check_node(node, svg, root, problems, seen)
    # processing instructions before the root element are siblings, not descendants
    sibling = top.getprevious()
    while sibling is not None:
        if isinstance(sibling, etree._ProcessingInstruction) and sibling.target == "xml-stylesheet":
            problems.add(Location(svg, sibling.sourceline or 0, 1),
                         "icon: an external style sheet (<?xml-stylesheet?>) is not allowed")
        sibling = sibling.getprevious()
    if len(problems.items) == found_before:  # what build will draw, read as build reads it, once nothing it follows is in doubt
        try:
            read_svg(str(svg), svg.name)
        except ValueError as exc:
            problems.add(Location(svg, top.sourceline or 0, 1), str(exc))
        else:
            remember_passed(svg)


# attributes whose value is numbers: a word such as NaN there reaches the drawing as no number or as NaN
_NUMERIC_ATTRIBUTES = frozenset({"d", "points", "viewBox", "transform", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy",
                                 "r", "rx", "ry", "width", "height", "stroke-width", "font-size", "dx", "dy"})
_NOT_A_NUMBER = re.compile(r"(?<![a-zA-Z])[-+]?(nan|inf(inity)?)(?![a-zA-Z])", re.IGNORECASE)


def _readable_root(svg: Path, problems: Problems):
    """The SVG's root element, or None once a problem says why it cannot be read or is too large."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    size = svg.stat().st_size if svg.is_file() else 0
    if size > MAX_ICON_BYTES:
        problems.add(Location(svg), f"icon is {size:,} bytes; an icon may be at most {MAX_ICON_BYTES:,} bytes")
        return None
    try:
        tree = etree.parse(str(svg), parser)
    except etree.XMLSyntaxError as exc:
        line, column = (exc.position if exc.position else (0, 0))
        problems.add(Location(svg, line, column), f"icon is not a readable SVG: {exc.msg}")
        return None
    except OSError as exc:
        problems.add(Location(svg), f"icon cannot be read: {exc.strerror or exc}")
        return None
    top = tree.getroot()
    if not isinstance(top.tag, str) or etree.QName(top).localname != "svg":
        problems.add(Location(svg, top.sourceline or 0, 1),
                     f"icon is not an SVG: its root element is <{etree.QName(top).localname}>, expected <svg>")
        return None
    elements = sum(1 for _ in top.iter())
    if elements > MAX_ICON_ELEMENTS:
        problems.add(Location(svg), f"icon has {elements:,} elements; an icon may have at most {MAX_ICON_ELEMENTS:,}")
        return None
    if _too_many_path_numbers(svg, top, problems) or _unusable_numbers(svg, top, problems) \
            or _too_many_copies(svg, top, problems):
        return None
    return top


def _check_node(node, svg: Path, root: Path, problems: Problems, seen: set[Path]) -> None:
    """Each reference one element makes (href, style, url(...)) and a style sheet it asks for."""
    line = node.sourceline or 0
    if isinstance(node, etree._ProcessingInstruction):
        if node.target == "xml-stylesheet":
            problems.add(Location(svg, line, 1), "icon: an external style sheet (<?xml-stylesheet?>) is not allowed")
        return
    if not isinstance(node.tag, str):
        return
    for attribute in HREF_ATTRIBUTES:
        reference = node.get(attribute)
        if reference is not None:
            _check_reference(reference, svg, root, Location(svg, line, 1), problems, seen)
    styles = [node.get("style") or ""]
    if etree.QName(node).localname == "style":
        styles.append(node.text or "")
    for style in styles:
        if _CSS_IMPORT.search(style):
            problems.add(Location(svg, line, 1), "icon: CSS @import is not allowed")
        for match in _CSS_URL.finditer(style):
            _check_reference(match.group(2), svg, root, Location(svg, line, 1), problems, seen)
    for name, value in node.attrib.items():
        if name not in HREF_ATTRIBUTES and name != "style" and "url(" in value:
            for match in _CSS_URL.finditer(value):
                _check_reference(match.group(2), svg, root, Location(svg, line, 1), problems, seen)


def _unusable_numbers(svg: Path, top, problems: Problems) -> bool:
    """A coordinate, size or transform that is NaN, infinite or far beyond any drawing: build would stop
    with a traceback in the PDF writer (or divide by a zero scale)."""
    for node in top.iter():
        if not isinstance(node.tag, str):
            continue
        for name, value in node.attrib.items():
            if name not in _NUMERIC_ATTRIBUTES:
                continue
            word = _NOT_A_NUMBER.search(value)
            if word:
                problems.add(Location(svg, node.sourceline or 0, 1), f"icon: {name}: '{word.group()}' is not a number")
                return True
            for number in _NUMBER.findall(value):
                if not abs(float(number)) <= MAX_ICON_COORDINATE:
                    problems.add(Location(svg, node.sourceline or 0, 1), f"icon: {name}: the number {number} is beyond "
                                 f"{MAX_ICON_COORDINATE:,}, as no drawing needs (the shipped icons stay under 1,000)")
                    return True
    return False


_DRAWN_ONLY_WHEN_USED = frozenset({"defs", "symbol"})  # counted where a <use> copies them


def _too_many_copies(svg: Path, top, problems: Problems) -> bool:
    """Elements, <use> expansions and path numbers counted as svglib expands the icon: a <use> draws a copy of
    what it names, <use> elements inside that copy included, so a few nested ones make millions."""
    ids = {node.get("id"): node for node in top.iter() if isinstance(node.tag, str) and node.get("id")}
    counted: dict = {}
    open_now: set = set()

    def count(node) -> tuple[int, int, int]:  # (elements, expansions, path numbers), drawn once
        if node in counted:
            return counted[node]
        if node in open_now:  # a <use> that names its own ancestor: svglib skips it
            return (0, 0, 0)
        open_now.add(node)
        elements, uses, numbers = 1, 0, sum(len(_NUMBER.findall(node.get(a) or "")) for a in ("d", "points"))
        for child in node:
            if isinstance(child.tag, str) and etree_name(child) not in _DRAWN_ONLY_WHEN_USED:
                e, u, n = count(child)
                elements, uses, numbers = elements + e, uses + u, numbers + n
        reference = next((node.get(a) for a in HREF_ATTRIBUTES if node.get(a)), "")
        if etree_name(node) == "use" and reference.startswith("#") and reference[1:] in ids:
            e, u, n = count(ids[reference[1:]])
            elements, uses, numbers = elements + e, uses + 1 + u, numbers + n
        open_now.discard(node)
        counted[node] = (elements, uses, numbers)
        return counted[node]

    try:
        elements, uses, numbers = count(top)
    except RecursionError:
        problems.add(Location(svg, top.sourceline or 0, 1), "icon: its <use> elements nest too deeply; simplify the icon")
        return True
    over = [f"{uses:,} copies (<use> expansions; at most {MAX_ICON_USE_EXPANSIONS:,})" if uses > MAX_ICON_USE_EXPANSIONS else "",
            f"{elements:,} elements (at most {MAX_ICON_ELEMENTS:,})" if elements > MAX_ICON_ELEMENTS else "",
            f"{numbers:,} path numbers (at most {MAX_ICON_PATH_NUMBERS:,})" if numbers > MAX_ICON_PATH_NUMBERS else ""]
    if any(over):
        problems.add(Location(svg, top.sourceline or 0, 1), "icon: its <use> elements expand to "
                     + ", ".join(part for part in over if part) + "; simplify the icon")
        return True
    return False


def etree_name(node) -> str:
    return etree.QName(node).localname


def _too_many_path_numbers(svg: Path, top, problems: Problems) -> bool:
    """Every number of every path and polygon is a segment drawn on every card that shows the icon."""
    total = 0
    for node in top.iter():
        for attribute in ("d", "points"):
            total += len(_NUMBER.findall(node.get(attribute) or "")) if isinstance(node.tag, str) else 0
        if total > MAX_ICON_PATH_NUMBERS:
            problems.add(Location(svg, node.sourceline or 0, 1), f"icon's paths have more than {MAX_ICON_PATH_NUMBERS:,} "
                         "numbers (coordinates); simplify the icon")
            return True
    return False


def _check_reference(reference: str, svg: Path, root: Path, where: Location, problems: Problems, seen: set[Path]) -> None:
    reference = reference.strip()
    if not reference or reference.startswith("#"):
        return  # a part of this same file
    embedded = _EMBEDDED_IMAGE.match(reference)
    if embedded:  # svglib decodes and opens these: a bomb fits in a few bytes
        try:
            raster_size(BytesIO(base64.b64decode(reference[embedded.end():])), reference[:embedded.end()] + "...")
        except (ValueError, binascii.Error) as exc:
            problems.add(where, f"icon: {exc}")
        return
    if reference.lower().startswith("data:"):
        return  # other embedded data, which svglib does not read
    target = reference.split("#", 1)[0]
    if _SCHEME.match(target) or os.path.isabs(target) or target.startswith("\\"):
        problems.add(where,
                     f"icon references '{reference}': only files inside the game folder may be referenced, by a relative path")
        return
    base = root.resolve()
    resolved = (svg.parent / target).resolve()
    if resolved != base and base not in resolved.parents:
        problems.add(where, f"icon references '{reference}', which leaves the game folder")
    elif not resolved.exists():
        problems.add(where, f"icon references '{reference}', which does not exist")
    elif not resolved.is_file():  # svglib would read a pipe until it closes
        kind = "a folder" if resolved.is_dir() else "not a regular file (a pipe or a device?)"
        problems.add(where, f"icon references '{reference}', which is {kind}; expected a file")
    elif target.endswith(".svg"):  # how svglib tells an SVG from a raster image
        check_icon(svg.parent / target, root, problems, seen)
    else:
        try:
            raster_size(resolved, target)
        except ValueError as exc:
            problems.add(where, f"icon references '{reference}': {exc}")
