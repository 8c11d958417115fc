"""Safe YAML reading that remembers where every value came from.

The node tree is composed with PyYAML's SafeLoader and converted by hand so
that duplicate keys are refused, alias expansion is bounded (no "billion
laughs"), and each value's path maps to its line and column for error messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from spellpress.errors import Location, UserError
from spellpress.model.limits import MAX_YAML_DEPTH

# libyaml's parser when PyYAML was built with it (7x faster, same nodes and marks)
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# A definition file is small; far more nodes than this means an alias bomb.
MAX_NODES = 200_000

Key = tuple[str | int | float, ...]  # a YAML mapping key may be a number


@dataclass(frozen=True)
class Document:
    path: Path
    data: Any
    marks: dict[Key, tuple[int, int]]
    key_marks: dict[Key, tuple[int, int]]

    def locate(self, key: Key = (), *, at_key: bool = False) -> Location:
        """Location of the value at `key` (or of its key), else of its nearest located parent."""
        key = tuple(key)
        if at_key and key in self.key_marks:
            line, column = self.key_marks[key]
            return Location(self.path, line, column)
        while key and key not in self.marks:
            key = key[:-1]
        line, column = self.marks.get(key, (0, 0))
        return Location(self.path, line, column)


class _Converter:
    def __init__(self, path: Path, loader: yaml.SafeLoader):
        self.path = path
        self.loader = loader
        self.marks: dict[Key, tuple[int, int]] = {}
        self.key_marks: dict[Key, tuple[int, int]] = {}
        self.nodes = 0

    def error(self, node: yaml.Node, message: str) -> UserError:
        mark = node.start_mark
        return UserError.at(Location(self.path, mark.line + 1, mark.column + 1), message)

    def convert(self, node: yaml.Node, key: Key) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.error(node, f"document expands to more than {MAX_NODES} values (alias bomb?)")
        if len(key) > MAX_YAML_DEPTH:
            raise self.error(node, f"values nest more than {MAX_YAML_DEPTH} levels deep")
        self.marks.setdefault(key, (node.start_mark.line + 1, node.start_mark.column + 1))
        if isinstance(node, yaml.MappingNode):
            result: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise self.error(key_node, "merge keys (<<) are not supported; write the values out")
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self.error(key_node, "a mapping key must be a plain value")
                name = self.loader.construct_object(key_node)
                if not isinstance(name, (str, int, float, bool)) or name is None:
                    raise self.error(key_node, "a mapping key must be a plain value")
                if name in result:
                    raise self.error(key_node, f"duplicate key '{name}'")
                child = (*key, name)
                self.key_marks[child] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                result[name] = self.convert(value_node, child)
            return result
        if isinstance(node, yaml.SequenceNode):
            return [self.convert(item, (*key, index)) for index, item in enumerate(node.value)]
        try:
            return self.loader.construct_object(node)
        except yaml.constructor.ConstructorError as exc:
            raise self.error(node, str(exc.problem or exc)) from None


def parse_yaml(text: str, path: Path) -> Document:
    loader = LOADER(text)
    try:
        try:
            root = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
            message = (exc.problem or exc.context or "invalid YAML").strip()
            raise UserError.at(Location(path, line, column), f"YAML syntax error: {message}") from None
        except yaml.YAMLError as exc:
            raise UserError.at(Location(path), f"YAML error: {exc}") from None
        except RecursionError:
            raise UserError.at(Location(path), f"values nest far more than {MAX_YAML_DEPTH} levels deep") from None
        if root is None:
            return Document(path, None, {(): (1, 1)}, {})
        converter = _Converter(path, loader)
        data = converter.convert(root, ())
        return Document(path, data, converter.marks, converter.key_marks)
    finally:
        loader.dispose()


def read_yaml(path: Path) -> Document:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError.at(Location(path), "file not found") from None
    except UnicodeDecodeError as exc:
        raise UserError.at(Location(path), f"not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise UserError.at(Location(path), f"cannot read: {exc.strerror}") from None
    return parse_yaml(text, path)
