"""Word Rummy: a rules engine for letter-card games configured in YAML (no Python per game).

Players hold a hand of letter cards, draw and discard, and score the words they form from their
hand by the cards' points. Every choice is a `rules:` key with a default (settings.py,
docs/rules.md): hand sizes by round, drawing from the discard pile, going out, bonuses,
penalties, digraph and wild cards, the end of the game.

    settings.py  the rules: keys and the deck the engine reads
    content.py   the deck, its points, and the best split of a hand into words
    state.py     rounds, turns, legal moves, scoring, invariants
    players.py   the heuristic player
"""

from __future__ import annotations

from typing import Any

from spellpress.model.game import Game
from spellpress.rules.protocol import Player, Rules
from spellpress.rules.settings import settings_for
from spellpress.rules.word_rummy.content import content_for
from spellpress.rules.word_rummy.players import RummyHeuristic
from spellpress.rules.word_rummy.settings import WordRummySettings
from spellpress.rules.word_rummy.state import RummyState


class WordRummyRules(Rules):
    id = "word-rummy"
    length_unit = "turns"
    words_typed = True  # to go out, a person types the words of their hand
    turn_cap = 5000
    seconds_per_turn = 20.0  # draw, look for words, discard: quick turns; scoring a round about a minute all told
    settings = WordRummySettings

    def new_state(self, game: Game, players: int, options: dict[str, Any] | None = None) -> RummyState:
        settings = settings_for(game, WordRummySettings, self.id, options)
        return RummyState(content_for(game, settings), players)

    def heuristic_player(self, skill: float = 1.0) -> Player:
        return RummyHeuristic(skill)


RULES = WordRummyRules()
