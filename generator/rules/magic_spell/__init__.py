"""Magic Spell (Jonathan Leistiko, 2005): weave ingredient tiles into magic words.

Every number and every card comes from `cards/magic-spell/`; see its README for the
choices made where the rulebook is silent.

    settings.py  the rules: keys and the components read (checked before any play)
    actions.py   the actions, one named tuple per kind (equal to plain tuples, as records hold them)
    content.py   the tiles and spells, effects as data in a small vocabulary
    state.py     the laboratory, turns, legal moves, effects, scoring, invariants
    players.py   the heuristic player (its memory is the skill knob)
    demand.py    the tile mix designed from the spells' letter demand
"""

from __future__ import annotations

from typing import Any

from spellpress.model.game import Game
from spellpress.rules.magic_spell.actions import (
    MIXED,
    NO_TARGET,
    Cast,
    Choice,
    Drop,
    LabDraw,
    SpellDraw,
    Take,
    TileChoice,
    TileDraw,
    Weave,
)
from spellpress.rules.magic_spell.content import CAST_EFFECTS, LASTING_EFFECTS, VICTIM_EFFECTS, Catalog, Spell, catalog
from spellpress.rules.magic_spell.demand import letter_demand, suggest_tile_mix
from spellpress.rules.magic_spell.players import ATTACK_WEIGHT, MEMORY_SPANS, STUCK_TURNS, MagicSpellPlayer
from spellpress.rules.magic_spell.settings import MagicSpellSettings
from spellpress.rules.magic_spell.state import MagicSpellState
from spellpress.rules.protocol import Player, Rules

__all__ = ["RULES", "MagicSpellRules", "CAST_EFFECTS", "LASTING_EFFECTS", "VICTIM_EFFECTS", "Catalog", "Spell",
           "catalog", "letter_demand", "suggest_tile_mix", "ATTACK_WEIGHT", "MEMORY_SPANS", "STUCK_TURNS",
           "MagicSpellPlayer", "MagicSpellSettings", "MIXED", "NO_TARGET", "MagicSpellState", "Cast", "Choice", "Drop",
           "LabDraw", "SpellDraw", "Take", "TileChoice", "TileDraw", "Weave"]


class MagicSpellRules(Rules):
    id = "magic-spell"
    length_unit = "turns"
    turn_cap = 1000
    seconds_per_turn = 25.0  # a look at a tile or a weave or two: quick turns
    run_options = {"memory": "what the heuristic remembers of face-up returns: none, partial (6) or perfect"}

    settings = MagicSpellSettings

    def new_state(self, game: Game, players: int, options: dict[str, Any] | None = None) -> MagicSpellState:
        if players not in self.players_allowed(game):
            raise ValueError(f"Magic Spell takes {self.players_allowed(game).start} to {self.players_allowed(game).stop - 1} "
                             f"players")
        return MagicSpellState(catalog(game), players, dict(options or {}))

    def heuristic_player(self, skill: float = 1.0) -> Player:
        """Skill is memory: 1 remembers every face-up return, 0 none, between a span of the latest ones."""
        if skill >= 1.0:
            return MagicSpellPlayer(None)
        return MagicSpellPlayer(int(round(skill * 12)))


RULES = MagicSpellRules()
