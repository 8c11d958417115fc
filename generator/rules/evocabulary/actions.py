"""Evocabulary's actions: one small named tuple per kind, its verb first.

Each equals the plain tuple it stands for, ("start", word, src) == Start("start", word, src), and
prints as that tuple: a game record keeps actions as JSON lists (rules/action_json.py) and replays them
as plain tuples, which the state takes as well (`typed` names their fields), and the records of every
move read as they did before actions had types.

A team action's parameters depend on the slot it uses (see `Use`), so it is the one kind whose length
varies: a tuple subclass rather than a named tuple, equal to and printed as its plain tuple all the same.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from spellpress.rules.protocol import IllegalAction


def _as_plain_tuple(action: tuple) -> str:
    return repr(tuple(action))


class Start(NamedTuple):
    """("start", word, src): a new spell; src gives each letter's source (see words.make_src)."""

    verb: str
    word: str
    src: str


class Modify(NamedTuple):
    """("modify", team, word, src): the spell at `team` becomes `word` (perhaps at another team)."""

    verb: str
    team: int
    word: str
    src: str


class Discard(NamedTuple):
    """("discard", letters): throw these letters back (sorted, "?" a wild; "" discards nothing)."""

    verb: str
    letters: str


class End(NamedTuple):
    """("end",): end the team phase, leaving the team's unused actions."""

    verb: str


class Use(tuple[Any, ...]):
    """("use", slot, *params): the team action in this slot, with the parameters its name asks for:
    draw and wild none; burn and lock a letter; pickup a team; publish a team and an achievement id
    (or ""); hire a market index, a team, a side (0 special, 1 plain) and a lock letter (or "");
    teamwork the copied familiar's (team, position, action index), then the copied action's."""

    __slots__ = ()

    def __new__(cls, verb: str, slot: int, *params: Any) -> Use:
        return super().__new__(cls, (verb, slot, *params))

    def __getnewargs__(self) -> tuple[Any, ...]:  # pickle and copy call __new__ with these
        return tuple(self)

    @property
    def verb(self) -> str:
        return self[0]

    @property
    def slot(self) -> int:
        return self[1]

    @property
    def params(self) -> tuple[Any, ...]:
        return tuple(self[2:])


# chance outcomes
class Deal(NamedTuple):
    """("deal", letter): the letter card dealt from the deck."""

    verb: str
    letter: str


class Reveal(NamedTuple):
    """("reveal", familiar): a card of this familiar definition revealed to the market."""

    verb: str
    familiar: int


for _kind in (Start, Modify, Discard, End, Use, Deal, Reveal):
    _kind.__repr__ = _as_plain_tuple  # type: ignore[method-assign,assignment]  # printed as the plain tuple it equals

END = End("end")

MainAction = Start | Modify | Discard
MAIN_TYPES: dict[str, Any] = {"start": Start, "modify": Modify, "discard": Discard}
TEAM_TYPES: dict[str, Any] = {"use": Use, "end": End}
CHANCE_TYPES: dict[str, Any] = {"deal": Deal, "reveal": Reveal}


def typed(action: Any, types: dict[str, Any]) -> Any:
    """The action as its named tuple (a plain tuple from a game record, or the named tuple itself);
    IllegalAction for anything that is not one of these verbs with its fields."""
    if type(action) is types.get(getattr(action, "verb", "")):  # already its verb's named tuple
        return action
    if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
        raise IllegalAction(f"{action!r} is not an action here")
    kind = types.get(action[0])
    if kind is Use:
        if len(action) < 2 or not isinstance(action[1], int):
            raise IllegalAction(f"bad slot in {action!r}")
        return Use(*action)
    if kind is None or len(action) != len(kind._fields):
        raise IllegalAction(f"{action!r} is not an action here")
    return kind._make(action)
