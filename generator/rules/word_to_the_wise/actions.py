"""A Word to the Wise's actions: one named tuple per kind, its verb first.

Each equals, and prints as, the plain tuple of its fields, ("word", "cat") == Word("word", "cat"), so
an action read back from a game record (rules/action_json.py: a list, then a plain tuple) or written
by hand is the same action, and run and benchmark records read as before; `typed` gives the named form
of either. A seat is its index; a bluff's cards are the consonant cards risked, sorted, as one string.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from spellpress.rules.protocol import IllegalAction


def _as_plain_tuple(action: tuple) -> str:
    return repr(tuple(action))


# chance outcomes
class Draw(NamedTuple):
    """("draw", letter): the card drawn from the deck, in the deal or a refill."""

    verb: str
    letter: str


class Die(NamedTuple):
    """("die", face): the face the next die shows (WILD included)."""

    verb: str
    face: str


class Time(NamedTuple):
    """("time", step): the quantile of the search time of the seat being timed."""

    verb: str
    step: int


class First(NamedTuple):
    """("first", seat): of the seats tied in the race, this one placed first."""

    verb: str
    seat: int


# a seat's moves
class Pass(NamedTuple):
    """("pass",): go for nothing this round."""

    verb: str


class Word(NamedTuple):
    """("word", word): go for this word of the hand's cards and the dice."""

    verb: str
    word: str


class Bluff(NamedTuple):
    """("bluff", cards): risk a non-word with these cards (sorted), when challenges are on."""

    verb: str
    cards: str


class Challenge(NamedTuple):
    """("challenge", seats): challenge the words these seats placed (sorted; empty: nobody)."""

    verb: str
    seats: tuple[int, ...]


Action = Draw | Die | Time | First | Pass | Word | Bluff | Challenge

KINDS: dict[str, Any] = {"draw": Draw, "die": Die, "time": Time, "first": First, "pass": Pass, "word": Word,
                         "bluff": Bluff, "challenge": Challenge}

for _kind in KINDS.values():
    _kind.__repr__ = _as_plain_tuple  # printed as the plain tuple it equals

PASS = Pass("pass")
NO_CHALLENGE = Challenge("challenge", ())


def typed(action: Any) -> Any:
    """The action as its named tuple (a plain tuple from a game record, or the named tuple itself);
    IllegalAction for anything that is not a known verb with its fields."""
    if type(action) is KINDS.get(getattr(action, "verb", "")):  # already its verb's named tuple
        return action
    if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
        raise IllegalAction(f"not an action: {action!r}")
    kind = KINDS.get(action[0])
    if kind is None or len(action) != len(kind._fields):
        raise IllegalAction(f"not an action: {action!r}")
    return kind._make(action)
