"""game.yaml `rules:` and the components the evocabulary engine reads."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, NonNegativeInt, PositiveInt

from generator.rules.evocabulary import ACTIONS
from generator.rules.settings import EngineSettings, Needs

Action = Literal[ACTIONS]
# a per-seat setup table: players -> one number a seat (turn order), or one number for every seat;
# an --option may give "0,3,6" or false
SeatTable = dict[int, list[NonNegativeInt]] | list[NonNegativeInt] | NonNegativeInt | str | None


class EvoSettings(EngineSettings):
    hand_size: PositiveInt = 7
    min_spell: PositiveInt = 3
    market_size: PositiveInt = 3
    achievement_max_wilds: NonNegativeInt = 1
    spell_max_wilds: int = Field(2, ge=0, le=2)
    leader_side: Literal["A", "B"] = "A"
    catch_up: bool = True
    catch_up_points: SeatTable = None
    catch_up_letters: SeatTable = None
    catch_up_wilds: SeatTable = None

    def needs(self) -> list[Needs]:
        letter = {"letter": str, "points": int}
        side = {"actions": list[Action], "side": str | None}
        return [
            Needs("letters", letter), Needs("wilds", letter),
            Needs("familiars", {"actions": list[Action]}, back_fields={"actions": list[Action]}),
            Needs("leaders", {**side, "length": PositiveInt, "or_more": bool, "limit": int}, back_fields=side),
            Needs("achievements", {"pile": str, "letters": int, "syllables": int, "or_more": bool, "points": int,
                                   "multiplier": int, "players": int}),
        ]
