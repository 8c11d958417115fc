"""Evocabulary's `rules:` keys, the components it reads, and the action names its cards may carry."""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import Field, NonNegativeInt, PositiveInt

from spellpress.rules.settings import EngineSettings, Needs

# the effect vocabulary: the action names familiar and leader cards may carry
Action = Literal["draw", "wild", "burn", "publish", "lock", "hire", "teamwork", "pickup"]
ACTIONS: tuple[str, ...] = get_args(Action)
COPYABLE = frozenset({"draw", "wild", "burn", "publish", "hire", "pickup"})  # teamwork never copies lock/teamwork

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


def seat_table(value: Any, players: int, name: str) -> list[int]:
    """A per-seat setup number for this player count, from game.yaml `rules:` (a map
    players -> one number a seat, in turn order) or an --option ("0,1,1,2" or one number
    for every seat). None: 0 for every seat."""
    if value is None or value is False:
        return [0] * players
    if isinstance(value, dict):
        value = {int(k): v for k, v in value.items()}.get(players)
        if value is None:
            return [0] * players
    if isinstance(value, str):
        value = [int(v) for v in value.replace(" ", "").split(",") if v]
    if isinstance(value, (int, float)):
        value = [int(value)] * players
    table = [int(v) for v in value]
    if len(table) != players or min(table) < 0:
        raise ValueError(f"rules.{name}: {players} numbers of 0 or more, one a seat, got {table}")
    return table
