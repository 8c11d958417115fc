"""Rules engines, each behind the protocol in `spellpress.rules.protocol`.

A game names its engine in game.yaml `rules.engine`; `spellpress.rules.plugins` finds it (a
rules.py in the game folder, an installed entry point, or a module). The shipped engines are
entry points like any other. No engine holds card data: it reads the loaded `Game`.
"""

from __future__ import annotations

from spellpress.rules.observation import CardRef, Observation, Zone
from spellpress.rules.protocol import (
    CHANCE,
    TERMINAL,
    IllegalAction,
    InvariantError,
    Outcome,
    Player,
    RandomPlayer,
    Rules,
    State,
    redeal,
)

__all__ = ["CHANCE", "CardRef", "IllegalAction", "InvariantError", "Observation", "Outcome", "Player", "RandomPlayer", "Rules",
           "State", "TERMINAL", "Zone", "engine_for", "redeal"]


def engine_for(name: str):
    """The engine installed or importable as `name` (see `spellpress.rules.plugins.load_engine`)."""
    from spellpress.rules.plugins import load_engine

    return load_engine(name)
