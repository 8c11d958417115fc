"""Rules engines, each behind the protocol in `generator.rules.protocol`.

A game names its engine in game.yaml `rules.engine`; `generator.rules.plugins` finds it (a
rules.py in the game folder, an installed entry point, or a module). The shipped engines are
entry points like any other. No engine holds card data: it reads the loaded `Game`.
"""

from __future__ import annotations


def engine_for(name: str):
    """The engine installed or importable as `name` (see `generator.rules.plugins.load_engine`)."""
    from generator.rules.plugins import load_engine

    return load_engine(name)
