"""The Lost Words' actions: one named tuple per kind, its verb first.

Each equals, and prints as, the plain tuple of its fields: ("place", word) == Place("place", word),
so an action read back from JSON (generator/rules/action_json.py: a list, then a plain tuple) or written
by hand is the same action; `typed` gives the named form of either. A Special's "play" has one kind per
shape of its target, told apart by the field count: Play (no target), PlayWord (a word), PlayOn (a
victim's pair) and PlaySwap (a victim's pair for one of the player's own uncovered cards).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from spellpress.rules.protocol import IllegalAction


class Deal(NamedTuple):
    """Chance: the next card owed is one of this kind, by its type key ("spell:<word>", "special:<key>", ...)."""

    verb: str
    key: str


class Draw(NamedTuple):
    """Take the top card of the deck ("deck") or of the discard pile ("discard", a Spell only)."""

    verb: str
    pile: str


class Pass(NamedTuple):
    """End the action phase (in the draw phase: draw nothing, when nothing can be drawn)."""

    verb: str


class Place(NamedTuple):
    """Cover the player's uncovered Nature card `word` with a Spell of that word from hand."""

    verb: str
    word: str


class Exchange(NamedTuple):
    """Swap the player's uncovered Nature card `mine` with the spare Nature card `spare`."""

    verb: str
    mine: str
    spare: str


class Play(NamedTuple):
    """Play a Special that takes no target (draw, extra-actions)."""

    verb: str
    special: str


class PlayWord(NamedTuple):
    """Play a Special on a word: the Spell asked for (ask-everyone), the player's own pair to wall
    (protect) or uncovered card to cover (wild-spell)."""

    verb: str
    special: str
    word: str


class PlayOn(NamedTuple):
    """Play a Special on seat `victim`'s completed pair `word` (knock-off)."""

    verb: str
    special: str
    victim: int
    word: str


class PlaySwap(NamedTuple):
    """Take seat `victim`'s completed pair `word` for the player's own uncovered card `mine` (swap-pair)."""

    verb: str
    special: str
    victim: int
    word: str
    mine: str


class Replace(NamedTuple):
    """A knocked-off player puts the other copy of the Spell back on the Nature card."""

    verb: str


class Decline(NamedTuple):
    """A knocked-off player keeps the other copy in hand."""

    verb: str


class Discard(NamedTuple):
    """Discard a card of this kind from hand, down to the hand size."""

    verb: str
    key: str


Special = Play | PlayWord | PlayOn | PlaySwap
PLAYS = (Play, PlayWord, PlayOn, PlaySwap)  # the kinds of a Special's play, one per shape of target
Action = Deal | Draw | Pass | Place | Exchange | Special | Replace | Decline | Discard

KINDS: dict[tuple[str, int], Any] = {  # (verb, field count) -> its named tuple
    ("deal", 2): Deal, ("draw", 2): Draw, ("pass", 1): Pass, ("place", 2): Place, ("exchange", 3): Exchange,
    ("play", 2): Play, ("play", 3): PlayWord, ("play", 4): PlayOn, ("play", 5): PlaySwap,
    ("replace", 1): Replace, ("decline", 1): Decline, ("discard", 2): Discard,
}
_NAMED = frozenset(KINDS.values())


def _as_plain_tuple(action: tuple) -> str:
    return repr(tuple(action))


for _kind in _NAMED:
    _kind.__repr__ = _as_plain_tuple  # printed as the plain tuple it equals

PASS = Pass("pass")
DRAW_DECK = Draw("draw", "deck")
DRAW_DISCARD = Draw("draw", "discard")
REPLACE = Replace("replace")
DECLINE = Decline("decline")


def typed(action: Any) -> Action:
    """The named form of an action (a plain tuple from JSON or by hand, or the named tuple itself);
    IllegalAction for anything that is not a known verb with its fields."""
    if type(action) in _NAMED:
        return action
    if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
        raise IllegalAction(f"not an action: {action!r}")
    kind = KINDS.get((action[0], len(action)))
    if kind is None:
        raise IllegalAction(f"unknown action {action!r}")
    return kind._make(action)
