"""Word Rummy's heuristic player: the word finder splits its hand into the best words, and the
same split decides which card to take and which to keep.

- Draw: take the discard pile's top card when the hand's best split with it, less the card
  it would then discard, beats the split now by `skill_margin` points; else draw from the deck.
- Discard: the card whose loss leaves the best split; go out whenever it can. Without a wild or a way
  out, the hand's own best split bounds what each discard leaves, and only the cards that bound does
  not settle are searched (_discard_bounded).
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
        # the hand now is the taken hand less the top card: valued from the search just made, or, when that split
        # leaves the top card out (and no wild changes the words of a hand one card short), from its score alone
        if top in taken.unplayed and state.content.wild not in taken_hand:
            now = taken.score + state.settings.unplayed_penalty * state.content.points[top]
        else:
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
        content = state.content
        if any(action[2] for action in actions):
            return self._go_out(state, hand, actions)
        if content.letters_score and content.wild not in hand:
            return self._discard_bounded(state, hand, actions)
        return self._discard_searched(state, hand, actions)

    def _go_out(self, state: RummyState, hand: tuple, actions: list):
        """_discard_searched's choice when an action goes out, with no search: going out comes first, and a
        hand of words scores every card's points (then the bonus for using them all, then the points of the
        card discarded, then a letter before the wild)."""
        points, wild, total = state.content.points, state.content.wild, state.content.hand_points(hand)
        best, best_key = None, None
        for action in actions:
            if action[2]:
                kind = action[1]
                key = (total - points[kind], points[kind], kind != wild)
                if best_key is None or key > best_key:
                    best, best_key = action, key
        return best

    def _discard_searched(self, state: RummyState, hand: tuple, actions: list):
        """The card whose loss leaves the best split (going out first, then the split's score and the bonus
        for using every card, then the card's points, then a letter before the wild), every card searched."""
        best, best_key = None, None
        for action in actions:
            _, kind, out = action
            score, whole = state.content.value_without(hand, kind)
            key = (out, score + (state.settings.all_cards_bonus if whole else 0),
                   state.content.points[kind], kind != state.content.wild)
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best

    def _discard_bounded(self, state: RummyState, hand: tuple, actions: list):
        """_discard's choice when no action goes out, from the hand's best split and as few searches as it
        takes. A split of the hand less a card X is a split of the hand that leaves X out (no wild: the same
        words), scored pen * points(X) higher: so the hand less X scores at most the hand's best score plus
        pen * points(X), exactly that when the best split leaves X out, and uses every card exactly when it
        scores all its cards (Content.letters_score). The other cards are valued by their search in the order
        of that bound, until the bound falls below the best key so far. Keys as _discard's, with the action's
        place last: among equal keys the first action wins, as there."""
        content, settings = state.content, state.settings
        points, wild, bonus = content.points, content.wild, settings.all_cards_bonus
        split = content.best(hand)
        total = content.hand_points(hand)
        best, best_key, pending = None, None, []
        for place, action in enumerate(actions):
            kind = action[1]
            bound = split.score + settings.unplayed_penalty * points[kind]
            rest = total - points[kind]
            tail = (points[kind], kind != wild, -place)
            if kind in split.unplayed:
                key = (bound + (bonus if bound == rest else 0), *tail)
                if best_key is None or key > best_key:
                    best, best_key = action, key
            else:
                pending.append(((rest + bonus if rest <= bound else bound, *tail), action))
        pending.sort(reverse=True)
        for upper, action in pending:
            if best_key is not None and upper < best_key:
                break
            score, whole = content.value_without(hand, action[1])
            key = (score + (bonus if whole else 0), *upper[1:])
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best
