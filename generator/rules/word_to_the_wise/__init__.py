"""A Word to the Wise: rounds of a race to spell words from consonant cards and two vowel dice.

Everything about the cards (letters, points, counts) and the dice (faces) is read from the
game's YAML; the scoring numbers from game.yaml `rules:`. See cards/word-to-the-wise/README.md
for the choices made where the rulebook is silent, and for the race model in words.

    settings.py  the rules: keys and the run's parameters
    content.py   the cards, dice and word tables, read once per game
    state.py     the round: roll, choose, race, challenge, score, refill; invariants
    players.py   the heuristic player
"""

from __future__ import annotations

from typing import Any

from spellpress.model.game import Game
from spellpress.rules.protocol import Player, Rules
from spellpress.rules.word_to_the_wise.content import DIE_VOWELS, WILD, definitions
from spellpress.rules.word_to_the_wise.players import WiseHeuristic
from spellpress.rules.word_to_the_wise.settings import RACE_DEFAULTS, WiseSettings
from spellpress.rules.word_to_the_wise.state import CHALLENGE, CHOOSE, DEAL, PASS, RECHOOSE, ROLL, TIEBREAK, TIME, WiseState

__all__ = ["RULES", "WiseRules", "DIE_VOWELS", "WILD", "definitions", "CHALLENGE", "CHOOSE", "DEAL", "PASS",
           "RECHOOSE", "ROLL", "TIEBREAK", "TIME"]


class WiseRules(Rules):
    id = "word-to-the-wise"
    length_unit = "rounds"
    turn_cap = 200
    seconds_per_turn = 60.0  # a race of 5-20 s, then saying the words, scoring and refilling
    settings = WiseSettings
    words_typed = True
    run_options = {**{name: f"the race model's {name} (rules: race.{name})" for name in RACE_DEFAULTS},
                   "speeds": "a search-speed factor per seat, e.g. 1,1,0.8 (1 = the model's pace)"}

    def new_state(self, game: Game, players: int, options: dict[str, Any] | None = None) -> WiseState:
        return WiseState(definitions(game, options), players)

    def heuristic_player(self, skill: float = 1.0) -> Player:
        return WiseHeuristic(skill)


RULES = WiseRules()
