"""`check` on a game's `rules:`: the keys against a shipped engine's settings, and the engine's name.

A shipped engine is Spellpress's own code (an entry point into `spellpress.rules`), so `check` may
load its settings model; a game folder's `rules.py` and another package's engine are code from
elsewhere, run only by check-engine and the commands that play (docs/rules.md).
"""

from __future__ import annotations

from spellpress.model.game import Game
from spellpress.suggest import did_you_mean

SHIPPED = "spellpress.rules."


def check_rules_keys(game: Game) -> str | None:
    """A UserError for each mistaken `rules:` key of a game with a shipped engine; for an engine name
    that no installed engine has, a warning (the game still prints) naming the nearest one."""
    from spellpress.rules.plugins import _engine_location, engine_name, installed_engines

    name = engine_name(game)
    if name is None or name.endswith(".py"):
        return None
    installed = installed_engines()
    entry = installed.get(name)
    if entry is None:
        where = _engine_location(game)
        known = ", ".join(sorted(installed)) or "none"
        return (f"{where}: no rules engine '{name}' is installed{did_you_mean(name, installed)}: the game prints, but "
                f"simulate and check-engine will refuse it (installed: {known}; or a rules.py in the game folder)")
    if not entry.value.startswith(SHIPPED):
        return None
    from spellpress.rules.settings import settings_for

    rules = entry.load()
    if rules.settings is not None:
        settings_for(game, rules.settings, name)
    return None

