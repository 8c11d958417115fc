"""Which components a print shop prints, and at what size: its preset names the built-in sizes it
prints at its own trim (poker 63 x 88 mm at 2.5 x 3.5 in). Light on imports: `check`'s design
check lays faces out at these sizes too."""

from __future__ import annotations

import dataclasses

from spellpress.model.game import Component, Game
from spellpress.model.sizes import CARD_SIZES
from spellpress.shop.presets import Shop


def size_name(size) -> str | None:
    """The built-in size name of a component's size (poker for 63 x 88 mm), or None."""
    return {dims: name for name, dims in CARD_SIZES.items()}.get(tuple(size))


def accepts(preset: Shop, component: Component) -> bool:
    spec = preset.spec
    return component.kind in spec.kinds and (not spec.sizes or size_name(component.size) in spec.sizes)


def at_shop_sizes(game: Game, preset: Shop) -> Game:
    """The components the shop prints, those of a built-in size it names (poker 63 x 88 mm) at the
    shop's size (2.5 x 3.5 in), with the shop's bleed and safe zone."""
    components = []
    for component in game.components:
        if not accepts(preset, component):
            continue
        name = size_name(component.size)
        if name in preset.spec.sizes:
            size = preset.spec.sizes[name]
            component = dataclasses.replace(component, size=(size.width, size.height))
        components.append(component)
    print_settings = game.spec.print.model_copy(update={"bleed": preset.spec.bleed, "safe": preset.spec.safe})
    return dataclasses.replace(game, spec=game.spec.model_copy(update={"print": print_settings}),
                               components=tuple(components))
