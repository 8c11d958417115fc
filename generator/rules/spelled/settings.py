"""game.yaml `rules:` and the components the spelled engine reads."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, NonNegativeInt, PositiveInt

from spellpress.errors import Location
from spellpress.rules.settings import EngineSettings, Needs
from spellpress.rules.spelled.content import Ability, Kind

Box = dict[Ability, PositiveInt]


class Mode(BaseModel):
    """One way to seat the players: who is on which side, the turn order, each side's health."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    players: PositiveInt
    sides: list[list[NonNegativeInt]]
    order: list[NonNegativeInt]
    health: list[PositiveInt]


class SpelledSettings(EngineSettings):
    health: PositiveInt = 25
    hand_size: PositiveInt = 5
    market_row: PositiveInt = 5
    setup_scrap_cost: NonNegativeInt = 5
    first_player_discards: NonNegativeInt = 2
    spell_min_letters: PositiveInt = 3
    spelled_bonus_letters: PositiveInt = 5
    spelled_bonus_damage: NonNegativeInt = 5
    sides: PositiveInt = 2
    modes: dict[str, Mode]
    default_mode: dict[int, str] = {}
    mode: str | None = None  # a run option: play this mode instead of the default one

    def needs(self) -> list[Needs]:
        card = {"letter": str, "cost": NonNegativeInt | None, "damage": NonNegativeInt | None,
                "type": Kind | None, "strength": NonNegativeInt | None, "fragment": Box | None,
                "spelled": list[Box] | None, "scrap": Box | None}
        return [Needs("starter", card), Needs("reserve", card), Needs("market", card)]

    def problems(self, game) -> list[tuple[tuple[str | int, ...] | Location, str]]:
        found: list[tuple[tuple[str | int, ...] | Location, str]] = []
        for name, mode in self.modes.items():
            if len(mode.sides) != self.sides or len(mode.health) != self.sides:
                found.append((("modes", name), f"mode '{name}' needs {self.sides} sides and {self.sides} health numbers"))
            seats = sorted(seat for side in mode.sides for seat in side)
            if seats != list(range(mode.players)) or sorted(set(mode.order)) != seats:
                found.append((("modes", name), f"mode '{name}': sides and order must seat players 0-{mode.players - 1}"))
        for players, name in self.default_mode.items():
            if name not in self.modes:
                found.append((("default_mode", players), f"default_mode names '{name}', which is not in modes"))
        for card in game.component("starter").cards:
            if card.count % self.sides:
                found.append((card.location, f"starter card '{card.id}': count {card.count} does not divide among "
                                             f"{self.sides} sides (rules: sides)"))
        return found
