"""Spelled's actions: one named tuple per kind, its verb first.

Each equals the plain tuple of its fields, ("fragment", 12) == Fragment("fragment", 12), so an action
read back from JSON (generator/rules/action_json.py: a list, then a plain tuple) or written by hand is
the same action; `typed` gives the named form of either. A card is its uid in the catalog; a side is
an index into the mode's sides.
"""

from __future__ import annotations

from typing import NamedTuple


class Drop(NamedTuple):
    """Discard a card from hand: the first player's setup discard, or a forced discard."""

    verb: str
    card: int


class Fragment(NamedTuple):
    """Play one card from hand for its top box."""

    verb: str
    card: int


class Spell(NamedTuple):
    """Play 3+ cards from hand (sorted uids) whose letters make a word: every box of each."""

    verb: str
    cards: tuple[int, ...]


class ScrapPlayed(NamedTuple):
    """Scrap a card played this turn for its scrap box."""

    verb: str
    card: int


class Buy(NamedTuple):
    """Acquire a market-row or reserve card with energy."""

    verb: str
    card: int


class TakeFree(NamedTuple):
    """Acquire a card free with an `acquire` ability (cost up to its value)."""

    verb: str
    card: int


class Scrap(NamedTuple):
    """Scrap a card from hand, the side's discard pile or the market row with a scrap ability."""

    verb: str
    card: int


class Force(NamedTuple):
    """A seat of that opposing side must discard a card before its next turn."""

    verb: str
    side: int


class Destroy(NamedTuple):
    """Destroy an opponent's shield or totem in play."""

    verb: str
    card: int


class Attack(NamedTuple):
    """Send pending attack `attack` to a card in play (target >= 0) or to side -1 - target."""

    verb: str
    attack: int
    target: int


class End(NamedTuple):
    """End the main (or discard) phase, keeping the cards left in hand (keep) or discarding them."""

    verb: str
    keep: bool


class Toss(NamedTuple):
    """End the main phase by discarding this card from hand (in the discard phase: any card)."""

    verb: str
    card: int


Action = Drop | Fragment | Spell | ScrapPlayed | Buy | TakeFree | Scrap | Force | Destroy | Attack | End | Toss

KINDS: dict[str, type[Action]] = {"drop": Drop, "fragment": Fragment, "spell": Spell, "scrapself": ScrapPlayed, "buy": Buy,
                          "free": TakeFree, "scrap": Scrap, "force": Force, "destroy": Destroy, "attack": Attack,
                          "end": End, "toss": Toss}

END_TURN = End("end", False)
END_KEEPING = End("end", True)


def typed(action) -> Action | None:
    """The named form of an action (a plain tuple from JSON or by hand), or None when it is no action."""
    if type(action) in _NAMED:
        return action
    if not isinstance(action, tuple) or not action:
        return None
    kind = KINDS.get(action[0]) if isinstance(action[0], str) else None
    if kind is None or len(action) != len(kind._fields):
        return None
    return kind._make(action)


_NAMED = frozenset(KINDS.values())
