"""What one seat may see of a game, in a structure a page can draw (docs/rules.md, "What a seat sees").

An engine's `State.observation(seat)` returns an `Observation`: zones of cards (a hand, a pile,
a row on the table), each card named by the component and card id it was printed from, so the
page shows the game's own rendered face; cards the seat cannot see are only counted (drawn as
backs of `back`, a component id). Scores, whose turn it is and short public facts ("round 2 of
6") complete it. Nothing hidden from the seat may appear in it: not a card, not an order that
depends on one. `tests/rules/test_observation.py` re-deals what the seat cannot see and checks
that the observation does not change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, order=True)
class CardRef:
    """A printed card: the component id and the card id in its YAML."""

    component: str
    card: str

    def to_json(self) -> dict[str, str]:
        return {"component": self.component, "card": self.card}


@dataclass(frozen=True)
class Zone:
    """A place cards are: face-up cards in order (the last is the top of a pile) and face-down ones counted."""

    name: str  # stable id within the game: "hand:0", "discard", "deck", "row:1"
    label: str  # what the page writes by it
    kind: str = "pile"  # "hand" (fanned), "pile" (stacked: the top shows) or "row" (side by side)
    owner: int | None = None  # the seat it belongs to; None: the table's
    cards: tuple[CardRef, ...] = ()
    hidden: int = 0  # face-down cards: only their number is seen
    back: str | None = None  # the component whose back the hidden cards show
    note: str = ""  # a short public fact about the zone ("covered 3 of 5")

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "kind": self.kind, "owner": self.owner,
                "cards": [card.to_json() for card in self.cards], "hidden": self.hidden, "back": self.back,
                "note": self.note}


@dataclass(frozen=True)
class Observation:
    seat: int
    to_move: int | None  # the seat to act; None while chance acts or when the game is over
    phase: str
    scores: tuple[float, ...]
    zones: tuple[Zone, ...] = ()
    facts: tuple[str, ...] = field(default=())  # public facts the zones do not show

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "to_move": self.to_move, "phase": self.phase, "scores": list(self.scores),
                "zones": [zone.to_json() for zone in self.zones], "facts": list(self.facts)}


def hand_zone(seat: int, viewer: int, cards: list[CardRef] | tuple[CardRef, ...], back: str | None,
              label: str | None = None) -> Zone:
    """A seat's hand: its own cards face up to it; to anyone else only their number."""
    name = label or f"seat {seat + 1}'s hand"
    if seat == viewer:
        return Zone(f"hand:{seat}", label or "your hand", "hand", seat, tuple(cards), 0, back)
    return Zone(f"hand:{seat}", name, "hand", seat, (), len(cards), back)


def to_move(seat: int) -> int | None:
    return seat if seat >= 0 else None
