"""The heuristic player: picks the word it can most likely place first and score best, and challenges
the words it doubts."""

from __future__ import annotations

from typing import Any

from spellpress.rules.protocol import IllegalAction, Player
from spellpress.rules.word_to_the_wise.actions import NO_CHALLENGE, PASS, Bluff, Challenge
from spellpress.rules.word_to_the_wise.content import Definitions
from spellpress.rules.word_to_the_wise.state import (
    CHALLENGE,
    CHOOSE,
    PHASE_NAMES,
    RECHOOSE,
    View,
    WiseState,
)


class WiseHeuristic(Player[WiseState]):
    """Goes for the word with the best expected score in the race.

    skill 1: knows every dictionary word and weighs each word length's value
    against the chance of being last (and of taking the +3 first-word bonus).
    Lower skill: knows a smaller vocabulary (35% + 65% * skill of the words),
    and with probability 1 - skill grabs the first word it finds (the shortest)
    instead. With no word it knows, it risks a two-card non-word with
    probability `bluff` (when challenges are on), else passes. It challenges a
    non-word with probability 0.5 + 0.5 * skill, and a real word it does not
    know with probability 0.1 * (1 - skill).
    """

    def __init__(self, skill: float = 1.0, bluff: float = 0.1):
        self.skill = min(1.0, max(0.0, float(skill)))
        self.coverage = 0.35 + 0.65 * self.skill
        self.bluff = bluff
        self.name = f"heuristic-{self.skill:g}"

    def act(self, state: WiseState, seat: int, rng) -> Any:
        view = state.view(seat)
        if view.phase in (CHOOSE, RECHOOSE):
            return self._choose(state.defs, view, rng)
        if view.phase == CHALLENGE:
            return self._challenge(state.defs, view, rng)
        raise IllegalAction(f"seat {seat} has nothing to decide in the {PHASE_NAMES[view.phase]} phase")

    def _choose(self, defs: Definitions, view: View, rng) -> Any:
        if view.phase == RECHOOSE:  # looking again after losing a word: the best one still free
            taken = view.taken
            options: dict[int, tuple[int, str]] = {}
            for value, letters, word in defs.all_words(view.hand_key, view.roll):
                if word not in taken and letters not in options and defs.known(word, self.coverage):
                    options[letters] = (value, word)
            found = defs.pick(options, view.players) if options else None
        else:
            found = defs.choices(view.hand_key, view.roll, self.coverage, view.players)
        if not found:
            if view.challenges and self.bluff and view.hand and rng.random() < self.bluff:
                cheapest = sorted(view.hand, key=lambda c: (defs.points[c], c))[:2]
                return Bluff("bluff", "".join(sorted(cheapest)))
            return PASS
        best, quickest = found
        if self.skill < 1.0 and rng.random() >= self.skill:
            return defs.word_action(quickest)
        return defs.word_action(best)

    def _challenge(self, defs: Definitions, view: View, rng) -> Any:
        flagged = []
        for seat, word in view.placed:
            if seat == view.seat:
                continue
            if word not in defs.words:
                if rng.random() < 0.5 + 0.5 * self.skill:
                    flagged.append(seat)
            elif self.skill < 1.0 and not defs.known(word, self.coverage) and rng.random() < 0.1 * (1.0 - self.skill):
                flagged.append(seat)
        return Challenge("challenge", tuple(sorted(flagged))) if flagged else NO_CHALLENGE
