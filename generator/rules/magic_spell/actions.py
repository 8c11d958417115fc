"""Magic Spell's actions: one small named tuple per kind.

Each is equal to the plain tuple it stands for, ("weave", tile, spell, letter) and so on, and prints
as that tuple: a game record keeps actions as JSON lists (rules/action_json.py) and replays them as
plain tuples, which the state takes as well (`typed` names their fields), and the runner's and the
benchmark's records of every move read as they did before actions had types.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from spellpress.rules.protocol import IllegalAction

MIXED = "mixed"  # the scrounge slot meaning "a tile nobody has seen since the mix"
NO_TARGET = -1  # a cast's target when the spell picks no one


def _as_plain_tuple(action: tuple) -> str:
    return repr(tuple(action))


class Weave(NamedTuple):
    """("weave", tile, spell, letter): a tile from the hand, the cabinet or another spell onto a
    homework spell, standing for a letter the spell still needs."""

    verb: str
    tile: int
    spell: int
    letter: str


class Cast(NamedTuple):
    """("cast", spell, target): a spellbook spell, on a target seat or NO_TARGET."""

    verb: str
    spell: int
    target: int


class Take(NamedTuple):
    """("scrounge" | "pick", slot): a laboratory tile, a remembered one or MIXED (an unseen one)."""

    verb: str
    slot: int | str


class TileChoice(NamedTuple):
    """("give" | "return_tile" | "discard", tile): a cabinet tile to give (a swap), to return (a
    transmute) or to discard (over the cabinet limit)."""

    verb: str
    tile: int


class Drop(NamedTuple):
    """("drop", spell): a homework spell to the bottom of the deck (over the homework limit)."""

    verb: str
    spell: int


class Choice(NamedTuple):
    """(verb,): research, rest, keep (the scrounged tile), return (it), stop (weaving or returning)."""

    verb: str


# chance outcomes
class LabDraw(NamedTuple):
    """("lab", letter): the unseen tile drawn from the laboratory is this letter."""

    verb: str
    letter: str


class SpellDraw(NamedTuple):
    """("spell", spell): the spell drawn from the deck."""

    verb: str
    spell: int


class TileDraw(NamedTuple):
    """("pick", tile): the tile a steal, swap, scatter, unweave or tamper takes at random."""

    verb: str
    tile: int


for _kind in (Weave, Cast, Take, TileChoice, Drop, Choice, LabDraw, SpellDraw, TileDraw):
    _kind.__repr__ = _as_plain_tuple  # type: ignore[method-assign,assignment]  # printed as the plain tuple it equals

RESEARCH, REST, KEEP, RETURN, STOP = (Choice(verb) for verb in ("research", "rest", "keep", "return", "stop"))

MOVE_TYPES: dict[str, Any] = {  # verb -> its named tuple
    "weave": Weave, "cast": Cast, "scrounge": Take, "pick": Take, "give": TileChoice, "return_tile": TileChoice,
    "discard": TileChoice, "drop": Drop, "research": Choice, "rest": Choice, "keep": Choice, "return": Choice,
    "stop": Choice,
}
DRAW_TYPES: dict[str, Any] = {"lab": LabDraw, "spell": SpellDraw, "pick": TileDraw}


def typed(action: Any, types: dict[str, Any] = MOVE_TYPES) -> Any:
    """The action as its named tuple (a plain tuple from a game record, or the named tuple itself);
    IllegalAction for anything that is not a known verb with its fields."""
    if type(action) is types.get(getattr(action, "verb", "")):  # already its verb's named tuple
        return action
    if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
        raise IllegalAction(action)
    kind = types.get(action[0])
    if kind is None or len(action) != len(kind._fields):
        raise IllegalAction(action)
    return kind._make(action)
