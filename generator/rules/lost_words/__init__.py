"""The Lost Words card game: cover every Nature card in front of you with its Spell.

    settings.py  the rules: keys (cards dealt, spares, hand, draws, actions, decks)
    content.py   the cards and the effect vocabulary, read once per game from the YAML
    actions.py   one named tuple per kind of action, equal to the plain tuple a game record keeps
    state.py     setup, draw, actions, replies, discards; legal moves and invariants
    players.py   the heuristic player
"""

from __future__ import annotations

from typing import Any

from spellpress.model.game import Game
from spellpress.rules.lost_words.actions import DECLINE, DRAW_DECK, DRAW_DISCARD, PASS, REPLACE
from spellpress.rules.lost_words.content import Defs, definitions
from spellpress.rules.lost_words.players import LostWordsPlayer
from spellpress.rules.lost_words.settings import LostWordsSettings
from spellpress.rules.lost_words.state import (
    ACTION,
    DISCARD,
    DRAW,
    NONE,
    REPLY,
    TO_HAND,
    LostWordsState,
)

__all__ = ["RULES", "LostWordsRules", "Defs", "definitions", "ACTION", "DECLINE", "DISCARD", "DRAW", "DRAW_DECK",
           "DRAW_DISCARD", "NONE", "PASS", "REPLACE", "REPLY", "TO_HAND"]
from spellpress.rules.protocol import Player, Rules


class LostWordsRules(Rules):
    id = "lost-words"
    length_unit = "turns"
    turn_cap = 600
    # 15 s a plain turn plus about 4 s a turn of Specials, asks, exchanges and extra discards on average
    # (see TIME_MODEL and the minutes_model figure, which also counts setup and reshuffles)
    seconds_per_turn = 19.0
    settings = LostWordsSettings

    def new_state(self, game: Game, players: int, options: dict[str, Any] | None = None) -> LostWordsState:
        state = LostWordsState(definitions(game, options), players)
        return state

    def heuristic_player(self, skill: float = 1.0) -> Player:
        return LostWordsPlayer(skill)


RULES = LostWordsRules()
