"""Lay out every card of a game: front and back faces for each physical copy."""

from __future__ import annotations

from dataclasses import dataclass

from spellpress.errors import Problems, UserError
from spellpress.layout.face import FaceContext, layout_face
from spellpress.layout.ops import FaceLayout, Item
from spellpress.model.game import Card, Component, Game


@dataclass(frozen=True)
class CardFaces:
    component: Component
    card: Card
    front: FaceLayout
    back: FaceLayout | None


def layout_game(game: Game, bleed: float) -> list[CardFaces]:
    """Every card's faces; all layout problems of the game are reported together."""
    ctx = FaceContext(game, bleed)
    problems = Problems()
    laid: list[CardFaces] = []
    for component in game.components:
        shared_back = None
        if component.back is not None and not component.back.per_card:
            who = f"back of '{component.id}'"
            try:
                shared_back = layout_face(ctx, game.templates[component.back.template], component.back.fields,
                                          component.size, who, component.back.location or component.location)
            except UserError as exc:
                problems.extend(exc)
        for card in component.cards:
            who = f"card '{card.id}' of '{component.id}'"
            try:
                front = layout_face(ctx, game.templates[component.template], card.fields, component.size, who, card.location)
                back = shared_back
                if component.back is not None and component.back.per_card:
                    back = layout_face(ctx, game.templates[component.back.template], card.back_fields,
                                       component.size, f"back of {who}", card.location)
            except UserError as exc:
                problems.extend(exc)
                continue
            laid.append(CardFaces(component, card, front, back))
    problems.raise_if_any()
    return laid


def items(laid: list[CardFaces]) -> list[Item]:
    return [
        Item(faces.component.id, faces.card.id, copy, faces.front, faces.back, faces.component.size, faces.component.kind)
        for faces in laid
        for copy in range(1, faces.card.count + 1)
    ]
