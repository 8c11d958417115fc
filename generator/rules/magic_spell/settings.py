"""game.yaml `rules:` and the components the magic-spell engine reads."""

from __future__ import annotations

from typing import Literal

from pydantic import NonNegativeInt, PositiveInt

from spellpress.rules.magic_spell.content import VICTIM_EFFECTS, CastEffect, LastingEffect
from spellpress.rules.settings import EngineSettings, Needs


class MagicSpellSettings(EngineSettings):
    start_ingredients: NonNegativeInt = 5
    start_spells: NonNegativeInt = 3
    start_spirit: NonNegativeInt = 5
    homework_limit: PositiveInt = 4
    cabinet_limit: PositiveInt = 6
    goal: PositiveInt = 9
    research_cost: NonNegativeInt = 5
    rest_gain: NonNegativeInt = 2
    recover_below: NonNegativeInt = 5
    extra_weave_cost: NonNegativeInt = 1
    move_weave_cost: NonNegativeInt = 1
    stone_credit: NonNegativeInt = 1
    stones_per_spell: NonNegativeInt = 1
    # run options (what-if variants, not printed rules)
    trading: bool = True
    stones: bool = False
    open_research: bool = False

    def needs(self) -> list[Needs]:
        return [
            Needs("ingredients", {"letter": str, "stone": bool | None}),
            Needs("spells", {"word": str, "credits": int, "cost": NonNegativeInt | None,
                             "who": Literal["target", "others"] | None,
                             "effects": dict[CastEffect, int] | None,
                             "always": dict[LastingEffect, int] | None}),
        ]

    def problems(self, game) -> list:
        found = []
        for card in game.component("spells").cards:
            if card.count != 1:
                found.append((card.location, f"spell '{card.id}': every spell is a single card"))
            effects = dict(card.get("effects") or {})
            if any(k in VICTIM_EFFECTS for k in effects) and card.get("who") not in ("target", "others"):
                found.append((card.location, f"spell '{card.id}': effects on other students need who: target or others"))
        return found
