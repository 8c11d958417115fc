"""Every face of a game laid out box by box, each box with the ink its operations put on the face."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from spellpress.errors import UserError
from spellpress.layout.face import FaceContext, layout_boxes
from spellpress.layout.ink_bounds import Bounds, inked
from spellpress.layout.ops import Drawn
from spellpress.model.game import Component, Game, RawBox, Template


@dataclass(frozen=True)
class Part:
    """One drawing operation of a box and where it puts ink (mm, y up), turned by `angle` degrees."""

    op: Drawn
    ink: Bounds
    angle: int


@dataclass(frozen=True)
class Box:
    raw: RawBox
    parts: tuple[Part, ...]

    @property
    def name(self) -> str:
        return self.raw.name


@dataclass(frozen=True)
class Face:
    component: Component
    side: str  # "front" or "back"
    who: str  # the card (or shared back) it was drawn for, as problems name it
    card: str  # the card's id ("" for a shared back)
    template: Template
    size: tuple[float, float]
    boxes: tuple[Box, ...]  # in drawing order
    at: str = ""  # "" at the game's own size, else the print shops' size it was laid out at


def faces(game: Game, at: str = "") -> Iterator[Face]:
    """Each distinct face of the game (a shared back once), at the game's own sizes. A face that
    cannot be laid out raises the UserError a build would."""
    ctx = FaceContext(game, game.spec.print.bleed)
    for component in game.components:
        back = component.back
        if back is not None and not back.per_card:
            where = back.location or component.location
            yield _face(ctx, component, "back", f"back of '{component.id}'", "", back.template, back.fields, where, at)
        for card in component.cards:
            who = f"card '{card.id}' of '{component.id}'"
            yield _face(ctx, component, "front", who, card.id, component.template, card.fields, card.location, at)
            if back is not None and back.per_card:
                yield _face(ctx, component, "back", f"back of {who}", card.id, back.template, card.back_fields,
                            card.location, at)


def shop_faces(game: Game) -> Iterator[Face]:
    """The faces again at each size the print shops' presets lay a built-in size out at (poker 63 x 88
    mm at 2.5 x 3.5 in), once a size however many shops use it; a component no shop resizes is not
    laid out again. A face that will not lay out at a shop's size is left to `build --shop` to report."""
    from spellpress.shop.presets import shops
    from spellpress.shop.sizes import at_shop_sizes

    by_sizes: dict[tuple, list[str]] = {}
    resized: dict[tuple, Game] = {}
    for name, preset in shops(game.root).items():
        at_shop = at_shop_sizes(game, preset)
        own = {c.id: c.size for c in game.components}
        changed = tuple((c.id, c.size) for c in at_shop.components if c.size != own[c.id])
        if changed:
            by_sizes.setdefault(changed, []).append(name)
            resized.setdefault(changed, dataclasses.replace(at_shop, components=tuple(
                c for c in at_shop.components if c.size != own[c.id])))
    for changed, names in by_sizes.items():
        sizes = sorted({f"{w:g} x {h:g} mm" for _, (w, h) in changed})
        try:
            yield from list(faces(resized[changed], f"at {', '.join(sizes)}, the size of {', '.join(names)}"))
        except UserError:
            continue


def _face(ctx: FaceContext, component: Component, side: str, who: str, card: str, template_name: str,
          fields, where, at: str) -> Face:
    template = ctx.game.templates[template_name]
    boxes = tuple(Box(raw, tuple(Part(op, ink, angle) for op, ink, angle in inked(ops)))
                  for raw, ops in layout_boxes(ctx, template, fields, component.size, who, where))
    return Face(component, side, who, card, template, component.size, boxes, at)
