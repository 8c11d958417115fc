"""Rules engines, one module per game, all behind the protocol in `generator.rules.protocol`.

A module registers itself in REGISTRY under its game's rules id (game.yaml `rules.engine`,
by default the game id). No module holds card data: it reads the loaded `Game`.
"""

from __future__ import annotations

from importlib import import_module

# rules id -> module path; modules are imported only when a game needs them
ENGINES = {
    "word-to-the-wise": "generator.rules.word_to_the_wise",
    "evocabulary": "generator.rules.evocabulary",
    "lost-words": "generator.rules.lost_words",
    "magic-spell": "generator.rules.magic_spell",
    "spelled": "generator.rules.spelled",
}


def engine_for(name: str):
    """The rules module for `name`; it exposes RULES, a `protocol.Rules` instance."""
    return import_module(ENGINES[name]).RULES
