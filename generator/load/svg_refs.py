"""Check a game's SVG icon before it is drawn: readable, of a sane size, and every file it references stays in the game.

svglib follows relative `xlink:href` references (to images and to other SVG files) wherever
they lead, so an icon could pull a file from outside the game folder into the PDF. Each
reference is checked here, with the line that makes it, before svglib ever sees the file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from generator.errors import Location, Problems
from generator.model.limits import MAX_ICON_BYTES, MAX_ICON_ELEMENTS

HREF_ATTRIBUTES = ("{http://www.w3.org/1999/xlink}href", "href")
_CSS_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.IGNORECASE | re.DOTALL)
_CSS_IMPORT = re.compile(r"@import", re.IGNORECASE)
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def check_icon(svg: Path, root: Path, problems: Problems) -> None:
    """Add a problem for an unreadable SVG or for each reference that leaves `root`."""
    from lxml import etree  # svglib's own XML library

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    size = svg.stat().st_size if svg.is_file() else 0
    if size > MAX_ICON_BYTES:
        problems.add(Location(svg), f"icon is {size:,} bytes; an icon may be at most {MAX_ICON_BYTES:,} bytes")
        return
    try:
        tree = etree.parse(str(svg), parser)
    except etree.XMLSyntaxError as exc:
        line, column = (exc.position if exc.position else (0, 0))
        problems.add(Location(svg, line, column), f"icon is not a readable SVG: {exc.msg}")
        return
    except OSError as exc:
        problems.add(Location(svg), f"icon cannot be read: {exc.strerror or exc}")
        return
    top = tree.getroot()
    if not isinstance(top.tag, str) or etree.QName(top).localname != "svg":
        problems.add(Location(svg, top.sourceline or 0, 1), f"icon is not an SVG: its root element is <{etree.QName(top).localname}>, expected <svg>")
        return
    elements = sum(1 for _ in top.iter())
    if elements > MAX_ICON_ELEMENTS:
        problems.add(Location(svg), f"icon has {elements:,} elements; an icon may have at most {MAX_ICON_ELEMENTS:,}")
        return
    for node in top.iter():
        line = node.sourceline or 0
        if isinstance(node, etree._ProcessingInstruction):
            if node.target == "xml-stylesheet":
                problems.add(Location(svg, line, 1), "icon: an external style sheet (<?xml-stylesheet?>) is not allowed")
            continue
        if not isinstance(node.tag, str):
            continue
        for attribute in HREF_ATTRIBUTES:
            reference = node.get(attribute)
            if reference is not None:
                _check_reference(reference, svg, root, Location(svg, line, 1), problems)
        styles = [node.get("style") or ""]
        if etree.QName(node).localname == "style":
            styles.append(node.text or "")
        for style in styles:
            if _CSS_IMPORT.search(style):
                problems.add(Location(svg, line, 1), "icon: CSS @import is not allowed")
            for match in _CSS_URL.finditer(style):
                _check_reference(match.group(2), svg, root, Location(svg, line, 1), problems)
        for name, value in node.attrib.items():
            if name not in HREF_ATTRIBUTES and name != "style" and "url(" in value:
                for match in _CSS_URL.finditer(value):
                    _check_reference(match.group(2), svg, root, Location(svg, line, 1), problems)
    # processing instructions before the root element are siblings, not descendants
    sibling = top.getprevious()
    while sibling is not None:
        if isinstance(sibling, etree._ProcessingInstruction) and sibling.target == "xml-stylesheet":
            problems.add(Location(svg, sibling.sourceline or 0, 1), "icon: an external style sheet (<?xml-stylesheet?>) is not allowed")
        sibling = sibling.getprevious()


def _check_reference(reference: str, svg: Path, root: Path, where: Location, problems: Problems) -> None:
    reference = reference.strip()
    if not reference or reference.startswith("#") or reference.lower().startswith("data:"):
        return  # a part of this same file, or data embedded in it
    target = reference.split("#", 1)[0]
    if _SCHEME.match(target) or os.path.isabs(target) or target.startswith("\\"):
        problems.add(where, f"icon references '{reference}': only files inside the game folder may be referenced, by a relative path")
        return
    base = root.resolve()
    resolved = (svg.parent / target).resolve()
    if resolved != base and base not in resolved.parents:
        problems.add(where, f"icon references '{reference}', which leaves the game folder")
