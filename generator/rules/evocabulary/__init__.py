"""Evocabulary: spells activate teams of familiars; publish spells for points.

Every number and every card comes from cards/evocabulary/ (letters, wilds,
familiars, leaders, achievements; game.yaml `rules:`). Familiar and leader
actions are lists of action names, interpreted by the small effect vocabulary
in state.py: draw, wild, burn, publish, lock, hire, teamwork, pickup.
Setup catch-up (rules catch_up, catch_up_points / _letters / _wilds: a number a seat per
player count; options override): later seats start with points (or extra cards).
Choices where the rulebook is silent are documented in cards/evocabulary/README.md.

    settings.py  the rules: keys, the components read, the action names
    content.py   the cards (letters, familiars, leaders, achievements), read once per game
    words.py     the game's words through generator/words; spells' letters by source
    state.py     setup, legal moves, the effect vocabulary, scoring, the end, invariants
    main_search.py  the heuristic's main-phase search
    players.py   the heuristic player
    playout.py   the search player's cheaper playout player
"""

from __future__ import annotations

from typing import Any

from spellpress.model.game import Game
from spellpress.rules.evocabulary.content import WILD, Content, content_for
from spellpress.rules.evocabulary.players import EvoPlayer
from spellpress.rules.evocabulary.playout import PlayoutPlayer
from spellpress.rules.evocabulary.settings import ACTIONS, EvoSettings, seat_table
from spellpress.rules.evocabulary.state import EvoState
from spellpress.rules.protocol import Player, Rules

__all__ = ["RULES", "EvoRules", "EvoState", "EvoPlayer", "Content", "ACTIONS", "WILD"]


class EvoRules(Rules):
    id = "evocabulary"
    length_unit = "turns"
    turn_cap = 600
    # A turn: find a word in a hand of 7 (about 20 s), place it and resolve the
    # team's 1-4 actions (about 10 s): 30 s a turn, all players' turns counted.
    seconds_per_turn = 30.0

    settings = EvoSettings

    def new_state(self, game: Game, players: int, options: dict[str, Any] | None = None) -> EvoState:
        options = options or {}
        rules = game.spec.rules
        side = str(options.get("leader_side", rules.get("leader_side", "A")))
        if not game.spec.players.min <= players <= game.spec.players.max:
            raise ValueError(f"Evocabulary is for {game.spec.players.min}-{game.spec.players.max} players")
        catch_up = options.get("catch_up", rules.get("catch_up", True))
        if isinstance(catch_up, str):
            catch_up = catch_up.strip().lower() not in ("false", "no", "off", "0")
        extra = {}
        for name in ("catch_up_letters", "catch_up_wilds", "catch_up_points"):
            value = options.get(name, rules.get(name)) if catch_up else None
            extra[name] = seat_table(value, players, name)
        return EvoState(content_for(game, side), players, extra["catch_up_letters"], extra["catch_up_wilds"],
                        extra["catch_up_points"])

    def heuristic_player(self, skill: float = 1.0) -> Player:
        return EvoPlayer(skill)

    def playout_player(self) -> Player:
        return PlayoutPlayer()


RULES = EvoRules()
