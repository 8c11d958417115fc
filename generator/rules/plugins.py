"""Find a game's rules engine: game.yaml `rules.engine` names one of

- a Python file in the game folder (`rules.py`), which must stay inside the folder;
- an entry point in the group `spellpress.engines` (every shipped engine is one, declared in
  pyproject.toml, and so is any installed package's engine);
- an importable module (`package.module`, or an object in one: `package.module:NAME`), but only
  when a program asks for it (`load_engine(name)`, `RunSpec.engine`), never from game.yaml: a game
  downloaded from elsewhere must not make Spellpress import whatever module it names.

The file or module exposes RULES, a `spellpress.rules.protocol.Rules` instance (an entry point
may name the instance itself). A game with no `rules.engine` has no engine: it prints, but does
not simulate. Loading an engine runs its Python, so only the commands that play the rules do it
(simulate, report, sweep, check-engine); check, build, letters and serve never call this module.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import traceback
from collections.abc import Mapping
from importlib import import_module
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

from spellpress.errors import Location, UserError
from spellpress.model.game import Game
from spellpress.rules.protocol import Rules
from spellpress.suggest import did_you_mean

GROUP = "spellpress.engines"
HOW_TO_GET_ONE = ("set rules.engine in game.yaml to an installed engine ({known}) or to a rules.py in the "
                  "game folder; docs/rules.md shows how to write one")


def installed_engines() -> dict[str, Any]:
    """Entry point name -> entry point, for every engine installed (the shipped ones included)."""
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def engine_name(game: Game) -> str | None:
    name = game.spec.rules.get("engine")
    return str(name) if name is not None else None


def _engine_location(game: Game) -> Location:
    from spellpress.load.yamlsrc import read_yaml

    return read_yaml(game.root / "game.yaml").locate(("rules", "engine"))


def rules_for(game: Game) -> Rules:
    """The game's rules engine, or a UserError at `rules.engine` saying what is wrong."""
    name = engine_name(game)
    if name is None:
        known = ", ".join(sorted(installed_engines())) or "none installed"
        raise UserError.at(game.location, f"{game.name} has no rules engine: " + HOW_TO_GET_ONE.format(known=known))
    return load_engine(name, game.root, lambda: _engine_location(game), modules=False)


def load_engine(name: str, root: Path | None = None, where=None, modules: bool = True) -> Rules:
    """The engine `name` names (see the module docstring); `root` is the game folder for `.py` files.

    `modules=False` (a name read from game.yaml) refuses anything but a `.py` file in the folder or an
    installed engine, before any import."""
    locate = where or (lambda: Location(Path("rules.engine")))
    if name.endswith(".py"):
        if root is None:
            raise UserError.at(locate(), f"engine file '{name}' needs a game folder")
        from spellpress.paths import inside

        return _rules_of(_module_from_file(inside(root, name, locate(), "rules engine")), name, locate)
    installed = installed_engines()
    if name in installed:
        try:
            loaded = installed[name].load()
        except Exception as exc:  # an installed package that fails to import is that package's fault
            raise UserError.at(locate(), f"engine '{name}' is installed but does not load: {exc}") from None
        return loaded if isinstance(loaded, Rules) else _rules_of(loaded, name, locate)
    module_name, _, attribute = name.partition(":")
    if not modules:
        known = ", ".join(sorted(installed)) or "none installed"
        raise UserError.at(locate(), f"no rules engine '{name}'{did_you_mean(name, installed)}: it is neither an "
                           "installed engine nor a .py file in "
                           "the game folder, and Spellpress does not import other Python modules a game names; "
                           + HOW_TO_GET_ONE.format(known=known))
    if not module_name.replace(".", "").replace("_", "").isalnum():
        known = ", ".join(sorted(installed)) or "none installed"
        raise UserError.at(locate(), f"no rules engine '{name}': " + HOW_TO_GET_ONE.format(known=known))
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            known = ", ".join(sorted(installed)) or "none installed"
            raise UserError.at(locate(), f"no rules engine '{name}' (no module '{exc.name}'): "
                               + HOW_TO_GET_ONE.format(known=known)) from None
        raise
    loaded = getattr(module, attribute, None) if attribute else module
    return loaded if isinstance(loaded, Rules) else _rules_of(loaded, name, locate)


def _rules_of(module: Any, name: str, locate) -> Rules:
    rules = getattr(module, "RULES", None)
    if not isinstance(rules, Rules):
        raise UserError.at(locate(), f"engine '{name}' has no RULES (a spellpress.rules.protocol.Rules instance)")
    return rules


def _module_from_file(path: Path) -> ModuleType:
    """Import a game folder's engine file once per process, under a name unique to its path."""
    name = "spellpress_engine_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        del sys.modules[name]
        raise UserError.at(Location(path, exc.lineno or 0, exc.offset or 0), f"syntax error: {exc.msg}") from None
    except Exception as exc:
        del sys.modules[name]
        raise UserError.at(_last_frame_in(path, exc), f"{type(exc).__name__} while loading the engine: {exc}") from None
    except SystemExit as exc:  # not a way to end Spellpress quietly with exit 0
        del sys.modules[name]
        raise UserError.at(_last_frame_in(path, exc), f"the engine called sys.exit({exc.code!r}) while loading") from None
    return module


def _last_frame_in(path: Path, exc: BaseException) -> Location:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename) == path]
    return Location(path, frames[-1].lineno or 0, 1) if frames else Location(path)


def checked_settings(game: Game, rules: Rules, options: Mapping[str, Any] | None = None):
    """The engine's settings model for this game (None for an engine that declares none)."""
    from spellpress.rules.settings import settings_for

    if rules.settings is None:
        return None
    known = [*rules.settings.model_fields, *rules.run_options]
    unknown = [name for name in dict(options or {}) if name not in known]
    if unknown:
        from spellpress.errors import Option, Problems

        problems = Problems()
        for name in unknown:
            problems.add(Option("--option"), f"'{name}' is not an option of the {rules.id} engine"
                         f"{did_you_mean(name, known)}; options: {', '.join(sorted(known))} "
                         f"(its rules: keys and run options, docs/rules.md)")
        problems.raise_if_any()
    return settings_for(game, rules.settings, engine_name(game) or rules.id, options)


def check_engine(game: Game) -> None:
    """For `spellpress check-engine`: a game naming an engine must fit it (nothing to do without one)."""
    if engine_name(game) is None:
        return
    checked_settings(game, rules_for(game))
