"""Spelled (Tom Allen, 2022): a deck-building word duel.

Every card and number comes from cards/spelled/; see its README for every reading of
the rulebook made here.

    settings.py  the rules: keys (health, hand, market row, bonus, modes) and the components read
    content.py   the cards, their ability boxes as data (the ABILITIES vocabulary)
    state.py     sides, decks, turns, legal moves, abilities, damage, the end; invariants
    players.py   the heuristic deck-builder
"""

from __future__ import annotations

from typing import Any

from spellpress.model.game import Game
from spellpress.rules.protocol import Player, Rules
from spellpress.rules.spelled.content import ABILITIES, AT_ONCE, KINDS, LASTING, TOKENS, CardDef, Catalog, catalog
from spellpress.rules.spelled.players import WEIGHTS, SpelledHeuristic, box_value
from spellpress.rules.spelled.settings import SpelledSettings
from spellpress.rules.spelled.state import SpelledState

__all__ = ["RULES", "SpelledRules", "ABILITIES", "AT_ONCE", "KINDS", "LASTING", "TOKENS", "CardDef", "Catalog",
           "catalog", "WEIGHTS", "SpelledHeuristic", "box_value", "SpelledSettings", "SpelledState"]


class SpelledRules(Rules):
    id = "spelled"
    turn_cap = 200
    seconds_per_turn = 45.0  # a word search and a few abilities per turn

    settings = SpelledSettings

    def new_state(self, game: Game, players: int, options: dict[str, Any] | None = None) -> SpelledState:
        options = options or {}
        return SpelledState(catalog(game), players, options.get("mode"))

    def heuristic_player(self, skill: float = 1.0) -> Player:
        return SpelledHeuristic(skill)


RULES = SpelledRules()
