"""HTML from Jinja2 templates, autoescaped: a value put into a page is text, never markup."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

SHARED = Path(__file__).resolve().parent / "templates"


class Pages:
    """An app's templates (its own folder first, then the kit's shared ones, such as document.html)."""

    def __init__(self, folder: Path):
        self.environment = Environment(
            loader=ChoiceLoader([FileSystemLoader(folder), FileSystemLoader(SHARED)]),
            autoescape=True,
            undefined=StrictUndefined,  # a name a template uses and the app forgot is a bug, not an empty string
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.environment.filters["g"] = lambda number: f"{number:g}"  # 63.0 -> 63, as CSS sizes are written

    def render(self, template: str, /, **context: Any) -> Markup:
        """The page or part of one: markup, so that a page putting it in another does not escape it again."""
        return Markup(self.environment.get_template(template).render(**context))
