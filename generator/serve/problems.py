"""Which card of the page a definition error or a design warning is about, read from its subject."""

from __future__ import annotations

import re

from spellpress.layout.deck import CardFaces
from spellpress.serve.preview import Snapshot, State

# layout/deck.py names a face "card 'ID' of 'COMPONENT'", "back of card ..." or "back of 'COMPONENT'"
CARD_SUBJECT = re.compile(r"card '(?P<card>.+)' of '(?P<component>.+)'")
SHARED_BACK_SUBJECT = re.compile(r"back of '(?P<component>.+)'")


def subject_card(snapshot: Snapshot | None, subject: str) -> CardFaces | None:
    """The card shown on the page that a problem's subject names, if any."""
    match = CARD_SUBJECT.fullmatch(subject.removeprefix("back of "))
    if snapshot is None or match is None:
        return None
    return next((f for f in snapshot.laid if f.component.id == match["component"] and f.card.id == match["card"]), None)


def shared_back(snapshot: Snapshot | None, subject: str) -> str | None:
    """The component whose shared back a problem's subject names, if the page shows it."""
    back = SHARED_BACK_SUBJECT.fullmatch(subject)
    if back and snapshot and any(c.id == back["component"] for c in snapshot.game.components):
        return back["component"]
    return None


def card_problems(state: State) -> dict[tuple[str, str], list[str]]:
    """The messages found on each card, by (component id, card id); a shared back's under (component id, '')."""
    return by_card(state.problems)


def card_warnings(state: State) -> dict[tuple[str, str], list[str]]:
    """The design check's findings on each card, as card_problems."""
    return by_card(state.snapshot.warnings if state.snapshot else ())


def by_card(problems) -> dict[tuple[str, str], list[str]]:
    found: dict[tuple[str, str], list[str]] = {}
    for problem in problems:
        card = CARD_SUBJECT.fullmatch(problem.subject.removeprefix("back of "))
        back = SHARED_BACK_SUBJECT.fullmatch(problem.subject)
        if card:
            found.setdefault((card["component"], card["card"]), []).append(str(problem))
        elif back:
            found.setdefault((back["component"], ""), []).append(str(problem))
    return found
