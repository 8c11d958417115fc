"""Word Rummy's heuristic player: the word finder splits its hand into the best words, and the
same split decides which card to take and which to keep.

- Draw: take the discard pile's top card when the hand's best split with it, less the card
  it would then discard, beats the split now by `skill_margin` points; else draw from the deck.
- Discard: the card whose loss leaves the best split; go out whenever it can.
A skill below 1 plays a random legal action with probability 1 - skill.
"""

from __future__ import annotations

import random

from spellpress.rules.protocol import Player
from spellpress.rules.word_rummy.state import DRAW, FROM_DECK, FROM_DISCARD, RummyState


class RummyHeuristic(Player[RummyState]):
    name = "word-rummy-heuristic"

    def __init__(self, skill: float = 1.0):
        self.skill = skill

    def act(self, state: RummyState, seat: int, rng: random.Random):
        actions = state.legal_actions()
        if len(actions) > 1 and self.skill < 1.0 and rng.random() > self.skill:
            return rng.choice(actions)
        if state.phase == DRAW:
            return self._draw(state, seat, actions)
        return self._discard(state, seat, actions)

    def _draw(self, state: RummyState, seat: int, actions: list):
        if FROM_DISCARD not in actions:
            return actions[0]
        if FROM_DECK not in actions:
            return FROM_DISCARD
        hand, top = state.hand(seat), state.discard[-1]
        taken_hand = tuple(sorted(hand + (top,)))
        taken = state.content.best(taken_hand)
        # the hand now is the taken hand less the top card: valued from the search just made
        now = state.content.value_without(taken_hand, top)[0]
        # keeping the top card costs the card discarded next: an unplayed one raises the split by
        # its penalty, a card from a word lowers it by about its points
        if taken.unplayed:
            after = taken.score + state.settings.unplayed_penalty * max(state.content.points[kind] for kind in taken.unplayed)
        else:
            after = taken.score - min(state.content.points[kind] for kind in hand)
        return FROM_DISCARD if after >= now + state.settings.skill_margin else FROM_DECK

    def _discard(self, state: RummyState, seat: int, actions: list):
        hand = state.hand(seat)
        best, best_key = None, None
        for action in actions:
            _, kind, out = action
            score, whole = state.content.value_without(hand, kind)
            key = (out, score + (state.settings.all_cards_bonus if whole else 0),
                   state.content.points[kind], kind != state.content.wild)
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best
