"""Evocabulary's playout player: the heuristic at less cost, for the search player's playouts
(ISMCTSPlayer(playout="fast"), docs/simulate.md).

It values plays as the heuristic does but leaves out the modifies that take a letter out of a
spell (a spell only grows: a decision reads the hand's words once a spell, not once a letter of
it), and it keeps its main-phase decisions by what they read. The playouts of a search move are
played in the same worlds with the same luck, one a candidate move, so a seat often meets the same
position again: its hand (letters in order), its spells and teams, the achievements on top of the
piles, and the few facts of the table its values read (see `position`).
"""

from __future__ import annotations

import random

from spellpress.rules.evocabulary.actions import MainAction
from spellpress.rules.evocabulary.content import Content
from spellpress.rules.evocabulary.main_search import MainSearch
from spellpress.rules.evocabulary.players import EvoPlayer
from spellpress.rules.evocabulary.state import EvoState

DECISIONS_KEPT = 50_000  # main-phase decisions kept before the memo starts over


class PlayoutPlayer(EvoPlayer):
    """The skill-1 heuristic without swaps, its main decisions kept (see the module doc)."""

    def __init__(self) -> None:
        super().__init__(1.0)
        self.name = "playout"
        self._content: Content | None = None
        self._decisions: dict[tuple, MainAction] = {}

    def _main(self, st: EvoState, seat: int, rng: random.Random) -> MainAction:
        if st.content is not self._content:
            self._content, self._decisions = st.content, {}
            if not _points_by_letter(st.content):  # a card's points would be more than its letter's
                self._content = None
        if self._content is None:
            return self._search(st, seat, rng)
        at = position(st, seat)
        move = self._decisions.get(at)
        if move is None:
            if len(self._decisions) >= DECISIONS_KEPT:
                self._decisions.clear()
            move = self._decisions[at] = self._search(st, seat, rng)
        return move

    def _search(self, st: EvoState, seat: int, rng: random.Random) -> MainAction:
        search = MainSearch(self, st, seat, swaps=False)
        search.add_starts()
        search.add_modifies()
        return self._choose_main(st, seat, rng, search.candidates(), search.hand)


def position(st: EvoState, seat: int) -> tuple:
    """Everything the heuristic's main decision reads (at skill 1, no random numbers): the seat's hand
    letters in order (a discard's ties follow it), its spells' words and letters in the order it made
    them, each team's familiars (definition, side, locked letters), the achievement atop each pile,
    and of the table whether the wild pile and the market hold a card and the deck's size up to what
    a discard could draw (a full hand's worth more than the hand)."""
    content = st.content
    letter = content.letter
    hand = "".join([letter[i] for i in st.hands[seat]])
    spells = tuple((t, spell[0], "".join(sorted([letter[i] for i in spell[1]]))) for t, spell in st.spells[seat].items())
    teams = tuple(tuple((content.fam_def_of[f[0]], f[1], "".join([letter[i] for i in f[2]])) for f in fams)
                  for fams in st.teams[seat].values())
    tops = tuple(stack[0] if stack else "" for stack in st.piles.values())
    deck = min(st.deck_count, len(hand) + content.hand_size)
    return hand, spells, teams, tops, deck, bool(st.wild_pile), bool(st.market)


def _points_by_letter(content: Content) -> bool:
    """Does every card of a letter score the same (so letters stand for cards in `position`)?"""
    return all(content.points[i] == content.letter_points.get(char, content.points[i])
               for i, char in enumerate(content.letter))
