"""Commands beyond printing (letter analysis, simulation) register themselves here."""

from __future__ import annotations

from importlib import import_module

EXTRA = ["spellpress.scaffold.command", "spellpress.simulate.command", "spellpress.simulate.sweep", "spellpress.simulate.tune", "spellpress.analysis.command", "spellpress.serve.command", "spellpress.shop.command"]


def register_extra(commands) -> None:
    for name in EXTRA:
        try:
            module = import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not name.startswith(exc.name):
                raise
            continue  # that part of the project is not there yet
        module.register(commands)
