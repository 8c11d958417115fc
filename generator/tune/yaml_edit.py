"""--apply's YAML edits: each value found where the loader found it and spliced into the file's own text.

The file is composed by the loader's own parser (spellpress.load.yamlsrc.LOADER), so a card is
the node whose line and column are the ones the loader gave the card: no second parser that
counts lines another way (libyaml ends a line at U+2028 and U+0085, ruamel.yaml does not), and
no counting of physical lines (two flow-style cards may share one). Only the value's characters
change; comments, order, style, quoting and line endings stay as they were. A value shared
through an anchor (&) or alias (*) is refused: writing it would change other cards too.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import yaml

from spellpress.errors import Location, UserError
from spellpress.load.yamlsrc import LOADER

LINE_BREAKS = "\r\n\x85\u2028\u2029"  # where libyaml ends a line
_PROPERTIES = re.compile(r"(?:(?:&[^\s,\[\]{}]+|![^\s]*)[ \t]+)*")  # a node's anchor and tag, before its value
_PLAIN = re.compile(r"[A-Za-z][\w.-]*(?: [\w.-]+)*")
YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n"}


@dataclass(frozen=True)
class Place:
    """Where an edit goes: the card the loader located at `where` (a card edit), or game.yaml's rules: map."""

    key: str  # the tune key, for messages
    path: tuple[str, ...]  # under the card's mapping (one field), or under rules:
    value: Any
    where: Location  # the card's location as the loader gave it; line 0 for a rules key
    card_id: str = ""  # the card's id as loaded, checked against the card found there


def edited_yaml(text: str, places: list[Place]) -> tuple[str, list[tuple[tuple, Any]]]:
    """The text with each value written in; and, for checking, each edit as (key path in the data, value)."""
    root = _compose(text, places[0].where)
    shared = _shared_nodes(root)
    splices: list[tuple[int, int, str]] = []
    changes: list[tuple[tuple, Any]] = []
    for place in places:
        if place.where.line:
            index, mapping = _card(root, place)
            data_path: tuple = ("cards", index, *place.path)
        else:
            mapping, data_path = _value(root, "rules"), ("rules", *place.path)
            for part in place.path[:-1]:
                mapping = _value(mapping, part)
        where = place.where if place.where.line else Location(place.where.path, 1, 1)
        if not isinstance(mapping, yaml.MappingNode):
            raise UserError.at(where, f"{place.key}: --apply cannot find where this value is written")
        if id(mapping) in shared or _anchored(text, mapping):
            raise _shared_error(place, mapping)
        node = _value(mapping, place.path[-1])
        if node is None:
            splices.append(_insertion(text, mapping, place.path[-1], _scalar(place.value, None)))
        elif not isinstance(node, yaml.ScalarNode) or node.style in ("|", ">"):
            raise UserError.at(_at(place, node), f"{place.key}: the file has a list, a map or a block of text there, "
                                                 "not one value; change it by hand")
        elif id(node) in shared or _anchored(text, node):
            raise _shared_error(place, node)
        else:
            start, end = node.start_mark.index, node.end_mark.index
            properties = _PROPERTIES.match(text, start, end)
            start = properties.end() if properties else start
            splices.append((start, end, _scalar(place.value, node.style)))
        changes.append((data_path, place.value))
    for start, end, new in sorted(splices, key=lambda s: s[0], reverse=True):
        text = text[:start] + new + text[end:]
    return text, changes


def _compose(text: str, where: Location):
    try:
        return yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError as exc:
        raise UserError.at(Location(where.path), f"--apply cannot read the file again ({exc}); has it changed?") from None


def _card(root, place: Place) -> tuple[int, Any]:
    """The item of cards: that starts where the loader said the card starts."""
    cards = _value(root, "cards")
    for index, item in enumerate(cards.value if isinstance(cards, yaml.SequenceNode) else []):
        if (item.start_mark.line + 1, item.start_mark.column + 1) == (place.where.line, place.where.column):
            written = _value(item, "id")
            if isinstance(written, yaml.ScalarNode) and written.value != place.card_id:
                break
            return index, item
    raise UserError.at(place.where, f"{place.key}: no card starts here any more; the file has changed since "
                                    "it was loaded: run the command again")


def _value(mapping, key: str):
    if not isinstance(mapping, yaml.MappingNode):
        return None
    for key_node, value_node in mapping.value:
        if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
            return value_node
    return None


def _shared_nodes(root) -> set[int]:
    """Nodes reached more than once: an anchored node that an alias names again."""
    seen: set[int] = set()
    shared: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            shared.add(id(node))
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            stack.extend(part for pair in node.value for part in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return shared


def _anchored(text: str, node) -> bool:
    properties = _PROPERTIES.match(text, node.start_mark.index, node.end_mark.index)
    return bool(properties and "&" in properties.group())


def _at(place: Place, node) -> Location:
    return Location(place.where.path, node.start_mark.line + 1, node.start_mark.column + 1)


def _shared_error(place: Place, node) -> UserError:
    return UserError.at(_at(place, node), f"{place.key}: this value is an anchor (&) or alias (*), shared with "
                                          "other values; --apply does not edit shared values: change it by hand")


def _scalar(value: Any, style: str | None) -> str:
    """A value as YAML writes it, in the quoting the old value had where that can hold it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    text = str(value)
    breaks = any(c in text for c in LINE_BREAKS) or not text.isprintable()
    if style == "'" and not breaks:
        return "'" + text.replace("'", "''") + "'"
    if style == '"' or breaks or not _PLAIN.fullmatch(text) or text.lower() in YAML_WORDS:
        return _double_quoted(text)
    return text


def _float(value: float) -> str:
    """A float as the loader reads it back (YAML 1.1: a dot in every number, a sign in every exponent)."""
    if math.isnan(value):
        return ".nan"
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    text = repr(value)
    mantissa, _, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    return mantissa + ("e" + (exponent if exponent[0] in "+-" else "+" + exponent) if exponent else "")


def _double_quoted(text: str) -> str:
    escaped = []
    for char in text:
        if char in '"\\':
            escaped.append("\\" + char)
        elif char == "\n":
            escaped.append("\\n")
        elif char == "\t":
            escaped.append("\\t")
        elif not char.isprintable() or char in LINE_BREAKS or char == "\ufeff":
            escaped.append(f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}")
        else:
            escaped.append(char)
    return '"' + "".join(escaped) + '"'


def _insertion(text: str, mapping, key: str, value: str) -> tuple[int, int, str]:
    """A new `key: value` in a mapping: `, key: value` after a flow mapping's last value; in a block mapping a line
    below its last value when that ends on its line (not a block of text or a nested block), else a line above
    its first key."""
    if mapping.flow_style:  # right after the last value, before any comment: `{..., value: 1, count: 2}`
        if mapping.value:
            end = mapping.value[-1][1].end_mark.index
            return end, end, f", {key}: {value}"
        brace = text.index("{", mapping.start_mark.index)
        return brace + 1, brace + 1, f"{key}: {value}"
    newline = "\r\n" if "\r\n" in text else "\n"
    first_key = mapping.value[0][0]
    indent = " " * first_key.start_mark.column
    last = mapping.value[-1][1]
    if last.style not in ("|", ">") if isinstance(last, yaml.ScalarNode) else last.flow_style:
        end = last.end_mark.index
        while end < len(text) and text[end] not in LINE_BREAKS:
            end += 1
        return end, end, f"{newline}{indent}{key}: {value}"
    start = first_key.start_mark.index
    return start, start, f"{key}: {value}{newline}{indent}"
