"""Find templates (the game's own first, then the shared ones) and merge `extends` chains."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spellpress.errors import Location, Problems, UserError
from spellpress.load.yamlsrc import Document, read_yaml
from spellpress.model.expressions import ExpressionError, compiled, has_expression
from spellpress.model.game import RawBox, Template, freeze
from spellpress.model.template import BOX_KINDS, TemplateSpec
from spellpress.paths import SHARED_TEMPLATES
from spellpress.suggest import did_you_mean

TEMPLATE_KEYS = set(TemplateSpec.model_fields)


def template_file(game_root: Path, name: str) -> Path | None:
    """The game's own template of that name, else the shared one; None if neither exists."""
    for folder in (game_root / "templates", SHARED_TEMPLATES):
        candidate = folder / f"{name}.yaml"
        if candidate.is_file():
            return candidate
    return None


def escapes(path: Path, game_root: Path) -> bool:
    """True when a template file, followed through symlinks, lies outside the folder it came from."""
    allowed = SHARED_TEMPLATES.resolve() if path.parent == SHARED_TEMPLATES else game_root.resolve()
    resolved = path.resolve()
    return resolved != allowed and allowed not in resolved.parents


class TemplateLoader:
    """Loads each template once per game, reporting every problem it finds."""

    def __init__(self, game_root: Path, problems: Problems):
        self.game_root = game_root
        self.problems = problems
        self.loaded: dict[str, Template | None] = {}

    def get(self, name: str, wanted_at: Location) -> Template | None:
        if name not in self.loaded:
            self.loaded[name] = None  # marks the name as in progress: catches extends cycles
            self.loaded[name] = self._load(name, wanted_at, chain=(name,))
        return self.loaded[name]

    def _document(self, name: str, wanted_at: Location) -> Document | None:
        """The template's YAML, found and read from inside the game (or the shared templates), its keys
        checked; None once a problem says why not."""
        if not isinstance(name, str) or "/" in name or "\\" in name or name.startswith("."):
            self.problems.add(wanted_at, f"template name {name!r} must be a plain name (no folders)")
            return None
        path = template_file(self.game_root, name)
        if path is None:
            known = {found.stem for folder in (self.game_root / "templates", SHARED_TEMPLATES) for found in folder.glob("*.yaml")}
            self.problems.add(wanted_at, f"template '{name}' not found{did_you_mean(name, sorted(known))} in "
                                         f"{self.game_root / 'templates'} or the shared templates")
            return None
        if escapes(path, self.game_root):
            self.problems.add(wanted_at, f"template '{name}' ({path}) is a link that leaves the game folder")
            return None
        try:
            doc = read_yaml(path)
        except UserError as exc:
            self.problems.extend(exc)
            return None
        if not isinstance(doc.data, dict):
            self.problems.add(doc.locate(), "a template must be a mapping with 'boxes'")
            return None
        for key in doc.data:
            if key not in TEMPLATE_KEYS:
                self.problems.add(doc.locate((key,), at_key=True),
                                  f"unknown key '{key}'{did_you_mean(key, TEMPLATE_KEYS)} (expected: "
                                  f"{', '.join(sorted(TEMPLATE_KEYS))})")
        return doc

    def _load(self, name: str, wanted_at: Location, chain: tuple[str, ...]) -> Template | None:
        doc = self._document(name, wanted_at)
        if doc is None:
            return None
        boxes: dict[str, RawBox] = {}
        parent_name = doc.data.get("extends")
        if parent_name is not None:
            where = doc.locate(("extends",))
            if parent_name in chain:
                self.problems.add(where, f"templates extend each other in a loop: {' -> '.join((*chain, parent_name))}")
                return None
            parent = self._load(parent_name, where, (*chain, parent_name))
            if parent is None:
                return None
            boxes = {box.name: box for box in parent.boxes}
        raw_boxes = doc.data.get("boxes", {})
        if not isinstance(raw_boxes, dict):
            self.problems.add(doc.locate(("boxes",)), "boxes must be a mapping of box name to box")
            return None
        for box_name, values in raw_boxes.items():
            key = ("boxes", box_name)
            if values is None:
                boxes.pop(box_name, None)  # a child removes an inherited box
                continue
            if not isinstance(values, dict):
                self.problems.add(doc.locate(key), f"box '{box_name}' must be a mapping")
                continue
            merged = {**boxes[box_name].values, **values} if box_name in boxes else dict(values)
            if self._check_box(box_name, merged, doc, key):
                # re-inserting keeps the parent's drawing order for overridden boxes
                boxes[box_name] = RawBox(box_name, freeze(merged), doc.locate(key))
        # drawn by z, then in the order written (inherited boxes first): sorted() is stable
        return Template(name, tuple(sorted(boxes.values(), key=lambda box: box.values.get("z", 0))), doc.locate())

    def _check_box(self, name: str, values: dict[str, Any], doc: Document, key: tuple) -> bool:
        kind = values.get("kind")
        model = BOX_KINDS.get(kind) if isinstance(kind, str) else None
        if model is None:
            self.problems.add(doc.locate((*key, "kind")),
                              f"box '{name}': kind must be one of {', '.join(BOX_KINDS)}, got "
                              f"{kind!r}{did_you_mean(kind, BOX_KINDS)}")
            return False
        ok = True
        z = values.get("z", 0)
        if isinstance(z, bool) or not isinstance(z, (int, float)):
            self.problems.add(doc.locate((*key, "z")), f"box '{name}': z must be a number (higher draws over lower), got {z!r}")
            ok = False
        for field, value in values.items():
            if field not in model.model_fields:
                self.problems.add(doc.locate((*key, field), at_key=True),
                                  f"box '{name}': unknown key '{field}'{did_you_mean(field, model.model_fields)} for a {kind} "
                                  f"box (expected: {', '.join(sorted(model.model_fields))})")
                ok = False
            elif has_expression(value):
                try:
                    compiled(value)
                except ExpressionError as exc:
                    self.problems.add(doc.locate((*key, field)), f"box '{name}': {exc}")
                    ok = False
        return ok
