"""Schema of a card template: a named list of boxes drawn in order.

Coordinates are measured from the top-left corner of the trim, in mm (or any
unit); "50%" is a share of the card's width (x, w) or height (y, h). Values may
contain Jinja2 expressions over the card's fields; they are resolved per card,
then validated here.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from spellpress.model.types import Mm, NonNegativeMm, NonNegativePt, Pt, Strict, text_like

Color = Annotated[str, text_like(r"^(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8}|none)$",
                                   "a colour as #rrggbb or #rrggbbaa (six or eight hex digits), or none")]
InkColor = Annotated[str, text_like(r"^(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8})$",  # text and icons: drawn, so never none
                                      "a colour as #rrggbb or #rrggbbaa (six or eight hex digits)")]


class BoxBase(Strict):
    when: bool = True  # false: the box is left out (and its other values are not even evaluated)
    z: float = 0  # drawing order: higher draws later, over lower; equal z keeps the template's order
    x: Mm = 0.0
    y: Mm = 0.0
    w: NonNegativeMm | None = None
    h: NonNegativeMm | None = None
    safe: bool | None = None  # None: the kind's default (text, icon, image must stay in the safe zone)
    # design-check findings this box makes on purpose (the reason goes in the game's README)
    allow: tuple[Literal["collision", "contrast", "small-type", "turned-numeral", "shrunk", "border", "sliver"], ...] = ()


class FillBox(BoxBase):
    """Paints the whole face, bleed included."""

    kind: Literal["fill"]
    color: Color


class ShapeBox(BoxBase):
    kind: Literal["shape"]
    shape: Literal["rect", "ellipse", "line", "grid"] = "rect"
    rows: int = Field(default=1, ge=1, le=200)  # grid only: a table of rows x cols cells
    cols: int = Field(default=1, ge=1, le=200)
    radius: NonNegativeMm = 0.0
    fill: Color = "none"
    stroke: Color = "none"
    stroke_width: NonNegativePt = 0.5
    dash: tuple[Annotated[float, Field(ge=0, le=1000, allow_inf_nan=False)], ...] = ()  # on, off, ... in points
    bleed: bool = False  # grow to the bleed edge on every side that touches the trim


    @field_validator("dash")
    @classmethod
    def _dash_draws(cls, value: tuple[float, ...]) -> tuple[float, ...]:
        if value and not any(value):
            raise ValueError("a dash pattern needs at least one length above 0 (all zeros draws nothing forever)")
        return value

    @model_validator(mode="after")
    def _line_is_stroked(self) -> ShapeBox:
        if self.shape == "line" and self.fill != "none":
            raise ValueError("a line has no fill: give it a stroke colour instead (fill: is for rect, ellipse and grid)")
        return self


class TextBox(BoxBase):
    kind: Literal["text"]
    text: str
    font: str = "EBGaramond-Regular"
    size: Pt = Field(default=10.0, gt=0, le=400)
    min_size: Pt | None = Field(default=None, gt=0)
    leading: float = Field(default=1.15, gt=0.5, le=3)
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    color: InkColor = "#000000"
    rotate: Literal[0, 90, 180, 270] = 0
    overflow: bool = False  # true: glyphs may draw past the box (a tail, a swash); else the text shrinks to keep its ink inside
    paragraph: float = Field(default=0.5, ge=0, le=3)  # space a blank line makes between paragraphs, times the size
    smart_quotes: bool = True  # straight ' and " print as typographic apostrophes and quotes


class IconBox(BoxBase):
    kind: Literal["icon"]
    icon: str
    color: InkColor = "#000000"
    rotate: Literal[0, 90, 180, 270] = 0


class ImageBox(BoxBase):
    kind: Literal["image"]
    src: str
    fit: Literal["contain", "cover", "stretch"] = "contain"


Box = Annotated[FillBox | ShapeBox | TextBox | IconBox | ImageBox, Field(discriminator="kind")]


BOX_KINDS: dict[str, type[BoxBase]] = {"fill": FillBox, "shape": ShapeBox, "text": TextBox, "icon": IconBox, "image": ImageBox}
"""The `kind:` of a box in a template, and the model that checks it."""


class TemplateExample(Strict):
    """The card `spellpress templates` draws the template with: not used by builds."""

    size: str | dict[str, str] = "poker"  # a size name or {width, height}, as a component's `size:`
    fields: dict[str, Any] = {}


class TemplateSpec(Strict):
    extends: str | None = None
    description: str = ""
    example: TemplateExample | None = None
    boxes: dict[str, Box | None] = {}

    @field_validator("boxes")
    @classmethod
    def _names(cls, value: dict) -> dict:
        for name in value:
            if not isinstance(name, str) or not name:
                raise ValueError("box names must be non-empty strings")
        return value
