"""Lay out one face: a template's boxes, resolved for one card, as drawing operations."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, assert_never

from pydantic import TypeAdapter, ValidationError

from spellpress.errors import Location, Problems, UserError
from spellpress.geometry import Box
from spellpress.icon_library import IconNames
from spellpress.images import raster_size
from spellpress.layout import fonts, markup
from spellpress.layout.ink_bounds import ops_ink
from spellpress.layout.ops import Ellipse, FaceLayout, Fill, Grid, Group, Icon, Image, Line, Rect, Shape, parse_color, parse_ink
from spellpress.layout.text import TextFitError, fit_text, unknown_icons
from spellpress.model.expressions import ExpressionError, has_expression, resolve_value
from spellpress.model.game import Game, RawBox, Template
from spellpress.model.template import BOX_KINDS, FillBox, IconBox, ImageBox, ShapeBox, TextBox
from spellpress.model.types import describe
from spellpress.paths import inside
from spellpress.suggest import did_you_mean

TEXT_KEYS = {"text", "icon", "src", "font"}
_BOOL = TypeAdapter(bool)  # `when:` read as the box models read it
MUST_BE_SAFE = {"text", "icon", "image"}


class FaceContext:
    """What every face of one game needs: its sizes, fonts, icons, safe zone."""

    def __init__(self, game: Game, bleed: float):
        self.game = game
        self.bleed = bleed
        self.safe = game.spec.print.safe
        self.fonts = _FontsOnFirstUse(game.fonts)
        self.icons = IconNames({name: str(path) for name, path in game.icons.items()})
        self._cache: dict[Any, tuple] = {}


class _FontsOnFirstUse:
    """Font name -> registered name; a font file is parsed only when a box first uses it."""

    def __init__(self, paths: Mapping[str, Any]):
        self.paths = paths
        self.registered: dict[str, str] = {}

    def get(self, name: str, default: Any = None) -> Any:
        if name not in self.registered and name in self.paths:
            self.registered[name] = fonts.register(name, self.paths[name])
        return self.registered.get(name, default)

    def __iter__(self):
        return iter(self.paths)


def layout_face(
    ctx: FaceContext,
    template: Template,
    fields: Mapping[str, Any],
    size: tuple[float, float],
    who: str,
    where: Location,
) -> FaceLayout:
    """The face's drawing operations; a UserError naming the card and box if it cannot be drawn."""
    width, height = size
    ops = [op for _, box_ops in layout_boxes(ctx, template, fields, size, who, where) for op in box_ops]
    return FaceLayout(width, height, ctx.bleed, tuple(ops))


def layout_boxes(ctx: FaceContext, template: Template, fields: Mapping[str, Any], size: tuple[float, float],
                 who: str, where: Location) -> list[tuple[RawBox, tuple]]:
    """Each box of the face with the operations it draws, in drawing order (the design check
    judges boxes against each other); a UserError naming the card and box if one cannot be drawn."""
    width, height = size
    context = {**fields, "card_width": width, "card_height": height, "safe_zone": ctx.safe, "game": ctx.game.name}
    drawn: list[tuple[RawBox, tuple]] = []
    problems = Problems()  # every box's problem at once, not the first one only
    for box in template.boxes:
        try:
            drawn.append((box, _layout_box(ctx, box, context, width, height)))
        except (ExpressionError, TextFitError, ValueError) as exc:
            if _template_at_fault(box, exc):  # told where it is written, then the card it was found on
                problems.add(box.location, f"template '{template.name}', box '{box.name}': {exc}", who, where)
            else:
                problems.add(where, f"template '{template.name}', box '{box.name}' ({box.location}): {exc}", who)
        except UserError as exc:
            problems.add(where, f"template '{template.name}', box '{box.name}': {exc.problems[0]}", who)
    problems.raise_if_any()
    return drawn


class BoxError(ValueError):
    """A box cannot be drawn because of the values of `keys`."""

    def __init__(self, message: str, keys: set[str]):
        super().__init__(message)
        self.keys = keys


def _template_at_fault(box: RawBox, exc: Exception) -> bool:
    """True when the values the mistake lies in are the template's own (no {{ }} or {% %}: the same on every
    card), so the mistake is the template's, not the card's."""
    if isinstance(exc, ExpressionError):
        return False
    keys = exc.keys if isinstance(exc, BoxError) else box.values.keys()
    return not any(has_expression(box.values.get(key)) for key in keys)


def resolved_values(box: RawBox, context: Mapping[str, Any], width: float, height: float) -> dict[str, Any]:
    values = {key: resolve_value(value, context, text=key in TEXT_KEYS) for key, value in box.values.items()}
    for key, reference in (("x", width), ("w", width), ("y", height), ("h", height)):
        value = values.get(key)
        if isinstance(value, str) and value.strip().endswith("%"):
            values[key] = float(value.strip()[:-1]) / 100.0 * reference
    return values


def _layout_box(ctx: FaceContext, box: RawBox, context: Mapping[str, Any], width: float, height: float) -> tuple:
    if "when" in box.values and not _shown(resolve_value(box.values["when"], context, text=False)):
        return ()  # nothing else of a hidden box is evaluated: its text may use fields the card lacks
    values = resolved_values(box, context, width, height)
    key = (box.name, tuple(sorted((k, repr(v)) for k, v in values.items())), width, height)
    if key in ctx._cache:
        return ctx._cache[key]
    model = BOX_KINDS[values["kind"]]
    try:
        spec = model.model_validate(values)
    except ValidationError as exc:
        raise BoxError("; ".join(describe(error) for error in exc.errors()),
                       {str(error["loc"][0]) for error in exc.errors() if error["loc"]} or set(values)) from None
    ops = _ops(ctx, spec, width, height) if spec.when else ()
    ctx._cache[key] = ops
    return ops


def _shown(when: Any) -> bool:
    try:
        return _BOOL.validate_python(when)
    except ValidationError:
        raise ValueError(f"when: expected true or false, got {when!r}") from None


def _rect(spec, width: float, height: float) -> tuple[float, float, float, float]:
    w = spec.w if spec.w is not None else width - spec.x
    h = spec.h if spec.h is not None else height - spec.y
    is_line = getattr(spec, "shape", None) == "line"
    if (w < 0 or h < 0 or (w == 0 and h == 0)) if is_line else (w <= 0 or h <= 0):
        raise ValueError(f"box has no area ({w:.1f} x {h:.1f} mm)")
    return spec.x, height - spec.y - h, w, h  # y flipped: the PDF's origin is bottom-left


def _check_safe(ctx: FaceContext, spec, rect, ops: tuple, width: float, height: float) -> None:
    """What the box prints (not its rectangle) keeps `ctx.safe` mm inside the trim: a box may reach into
    the safe band as long as nothing it draws does."""
    must = spec.safe if spec.safe is not None else spec.kind in MUST_BE_SAFE
    if not must:
        return
    s = ctx.safe - 1e-6
    x, y, w, h = rect
    if x >= s and y >= s and x + w <= width - s and y + h <= height - s and not getattr(spec, "overflow", False):
        return  # its ink stays in the box (the overflow check holds text to it), so inside the zone
    ink = ops_ink(ops)
    if ink is None:
        return
    left, bottom, right, top = ink
    closest = min(left, bottom, width - right, height - top)
    if closest < s:
        side = min((left, "left"), (width - right, "right"), (height - top, "top"), (bottom, "bottom"))[1]
        raise ValueError(
            f"what the box prints leaves the safe zone ({ctx.safe:g} mm inside the trim): its ink comes within "
            f"{max(closest, 0):.2f} mm of the trim at its {side} (box {x:.1f}, {height - y - h:.1f}, {w:.1f} x {h:.1f} mm); "
            "move it in, make it smaller, or set safe: false"
        )


def _ops(ctx: FaceContext, spec, width: float, height: float) -> tuple:
    if isinstance(spec, FillBox):
        b = ctx.bleed
        color = parse_color(spec.color)
        return (Fill(-b, -b, width + 2 * b, height + 2 * b, color),) if color else ()
    rect = _rect(spec, width, height)
    ops = _drawn(ctx, spec, rect, width, height)
    _check_safe(ctx, spec, rect, ops, width, height)
    return ops


def _drawn(ctx: FaceContext, spec, rect, width: float, height: float) -> tuple:
    if isinstance(spec, ShapeBox):
        x, y, w, h = rect
        if spec.bleed:
            x, y, w, h = _grow_to_bleed(rect, width, height, ctx.bleed)
        return (_shape(spec, x, y, w, h),)
    if isinstance(spec, TextBox):
        return _text(ctx, spec, rect)
    if isinstance(spec, IconBox):
        if not spec.icon:
            return ()
        if spec.icon not in ctx.icons:
            raise BoxError(f"unknown icon '{spec.icon}'{_icon_hint(spec.icon, ctx.icons)}", {"icon"})
        x, y, w, h = rect
        side = min(w, h)
        icon = Icon(ctx.icons[spec.icon], x + (w - side) / 2, y + (h - side) / 2, side, side, parse_ink(spec.color))
        return _rotated((icon,), rect, spec.rotate)
    if isinstance(spec, ImageBox):
        return _image(ctx, spec, rect)
    raise AssertionError(spec)


def _shape(spec: ShapeBox, x: float, y: float, w: float, h: float) -> Shape:
    fill, stroke = parse_color(spec.fill), parse_color(spec.stroke)
    match spec.shape:
        case "rect":
            return Rect(x, y, w, h, fill, stroke, spec.stroke_width, spec.dash, spec.radius)
        case "ellipse":
            return Ellipse(x, y, w, h, fill, stroke, spec.stroke_width, spec.dash)
        case "line":
            return Line(x, y, w, h, stroke, spec.stroke_width, spec.dash)
        case "grid":
            return Grid(x, y, w, h, fill, stroke, spec.stroke_width, spec.dash, spec.rows, spec.cols)
        case _:
            assert_never(spec.shape)


def _icon_hint(name: str, icons: IconNames) -> str:
    from spellpress import icon_library

    suggestion = did_you_mean(name, [*icons, *icon_library.names()])
    return (f"{suggestion}: not among the game's icons ({', '.join(sorted(icons))}) nor the "
            f"game-icons.net library (`spellpress icons WORD` searches it)")


def _grow_to_bleed(rect, width: float, height: float, bleed: float):
    x, y, w, h = rect
    eps = 1e-6
    left = bleed if x <= eps else 0.0
    bottom = bleed if y <= eps else 0.0
    right = bleed if x + w >= width - eps else 0.0
    top = bleed if y + h >= height - eps else 0.0
    return x - left, y - bottom, w + left + right, h + bottom + top


def _text(ctx: FaceContext, spec: TextBox, rect) -> tuple:
    if not spec.text.strip():
        return ()
    font = _font(ctx, spec.font)
    missing = unknown_icons(spec.text, ctx.icons)
    if missing:
        raise ValueError(f"unknown inline icon ':{missing[0]}:'{_icon_hint(missing[0], ctx.icons)}")
    text = spec.text
    if spec.smart_quotes:  # kept straight in a font that has no curly quotes (a game's own font may lack them)
        curly = markup.typographic(spec.text)
        text = spec.text if fonts.missing_characters("".join(set(curly) - set(spec.text)), font) else curly
    faces: dict[tuple[bool, bool], str] = {(False, False): font}
    for span in markup.parse(text):
        style = (span.bold, span.italic)
        if style not in faces:
            faces[style] = _font(ctx, markup.styled_font(spec.font, *style), f"the {_style_name(*style)} of '{spec.font}'")
        _check_coverage(span.text, faces[style], markup.styled_font(spec.font, *style))
    x, y, w, h = rect
    turned = spec.rotate in (90, 270)
    inner = (x + (w - h) / 2, y + (h - w) / 2, h, w) if turned else rect
    min_size = spec.min_size if spec.min_size is not None else spec.size * 0.5
    ops, _ = fit_text(
        text, box=Box(*inner), font=font, size=spec.size, min_size=min(min_size, spec.size),
        leading=spec.leading, align=spec.align, valign=spec.valign, color=parse_ink(spec.color), icons=ctx.icons,
        ink_may_overflow=spec.overflow, style_font=lambda bold, italic: faces[(bold, italic)], color_of=parse_color,
        paragraph=spec.paragraph,
    )
    return _rotated(ops, rect, spec.rotate)


def _font(ctx: FaceContext, name: str, what: str = "") -> str:
    font = ctx.fonts.get(name)
    if font is None:
        wanted = f"{what}: a font named '{name}'" if what else f"unknown font '{name}'"
        raise ValueError(f"{wanted}{did_you_mean(name, ctx.fonts)} (known: {', '.join(sorted(ctx.fonts))}; "
                         f"add it under fonts: in game.yaml)")
    return font


def _style_name(bold: bool, italic: bool) -> str:
    return "bold italic" if bold and italic else "bold" if bold else "italic"


def _check_coverage(text: str, font: str, name: str) -> None:
    unprintable = fonts.missing_characters(text, font)
    if unprintable:
        shown = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in unprintable[:8]) + (" ..." if len(unprintable) > 8 else "")
        raise ValueError(f"font '{name}' cannot draw {shown}: choose a font that has them (fonts: in game.yaml)")


def _rotated(ops: tuple, rect, angle: int) -> tuple:
    if not angle or not ops:
        return ops
    x, y, w, h = rect
    return (Group(x + w / 2, y + h / 2, angle, ops),)


def _image(ctx: FaceContext, spec: ImageBox, rect) -> tuple:
    try:
        path = inside(ctx.game.root, spec.src, ctx.game.location, "image")
    except UserError as exc:  # said again for the card and box that asked for it
        raise BoxError(exc.problems[0].message, {"src"}) from None
    try:
        pw, ph = raster_size(path, spec.src)
    except ValueError as exc:
        raise BoxError(str(exc), {"src"}) from None
    x, y, w, h = rect
    if spec.fit == "stretch":
        return (Image(str(path), x, y, w, h),)
    scale = (min if spec.fit == "contain" else max)(w / pw, h / ph)
    iw, ih = pw * scale, ph * scale
    clip = rect if spec.fit == "cover" else None
    return (Image(str(path), x + (w - iw) / 2, y + (h - ih) / 2, iw, ih, clip),)
