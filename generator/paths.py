"""Where things live: the project's shared folders, game folders, and safe paths."""

from __future__ import annotations

import os
from pathlib import Path

from spellpress import errors
from spellpress.errors import Location, UserError

SHIPPED_FOLDERS = ("fonts", "templates", "cards", "docs")


def shipped_root() -> Path:
    """The folder holding the shipped fonts/, templates/ and cards/.

    SPELLPRESS_HOME if set; else the repository checkout this package runs from (an editable
    install, the tests); else the copies an installed wheel carries as package data.
    """
    if "SPELLPRESS_HOME" in os.environ:
        return Path(os.environ["SPELLPRESS_HOME"])
    checkout = Path(__file__).resolve().parents[1]
    if all((checkout / name).is_dir() for name in SHIPPED_FOLDERS):
        return checkout
    from importlib.resources import files

    installed = files("spellpress") / "shipped"
    if not isinstance(installed, Path):  # e.g. run from a zip: nothing to read fonts from by path
        raise RuntimeError("Spellpress's shipped fonts, templates and games must be installed as files, not in a zip")
    return installed


PROJECT_ROOT = shipped_root()
errors.SHIPPED_ROOT = PROJECT_ROOT  # so messages show a shipped file as such
SHARED_TEMPLATES = PROJECT_ROOT / "templates"
SHARED_ICONS = SHARED_TEMPLATES / "icons"
SHARED_FONTS = PROJECT_ROOT / "fonts"
GAMES_FOLDER = PROJECT_ROOT / "cards"
DOCS_FOLDER = PROJECT_ROOT / "docs"


def inside(root: Path, relative: str, location: Location, what: str) -> Path:
    """Resolve a path written in a game's YAML; it must exist and stay inside the game folder."""
    if not isinstance(relative, str) or not relative.strip():
        raise UserError.at(location, f"expected a {what} path, got {relative!r}")
    if os.path.isabs(relative):
        raise UserError.at(location, f"{what} path '{relative}' must be relative to the game folder")
    base = root.resolve()
    target = (base / relative).resolve()
    if target != base and base not in target.parents:
        raise UserError.at(location, f"{what} path '{relative}' leaves the game folder")
    if not target.exists():
        raise UserError.at(location, f"{what} '{relative}' does not exist{_nearest_file(target, relative)}")
    if not target.is_file():
        kind = "a folder" if target.is_dir() else "not a regular file (a pipe or a device?)"
        raise UserError.at(location, f"{what} '{relative}' is {kind}; expected a file")
    return target


MAX_NAMES_COMPARED = 2_000


def _nearest_file(target: Path, relative: str) -> str:
    """' (did you mean 'Owl.png'? ...)' for a file beside the missing one whose name differs in case (which
    works on one computer and not another) or by a slip; '' when none is close."""
    from itertools import islice

    from spellpress.suggest import did_you_mean

    try:
        names = [entry.name for entry in islice(target.parent.iterdir(), MAX_NAMES_COMPARED)]
    except OSError:
        return ""
    folder = relative[: len(relative) - len(relative.replace("\\", "/").rsplit("/", 1)[-1])]
    same = [name for name in names if name.lower() == target.name.lower()]
    if same:
        return f" (did you mean '{folder}{same[0]}'? file names differ in case on some computers)"
    close = did_you_mean(target.name, names)
    return close.replace(" (did you mean '", f" (did you mean '{folder}") if close else ""


def find_game_folder(name_or_path: str) -> Path:
    """A game id (a folder under cards/) or a path to a folder holding game.yaml."""
    candidates = [Path(name_or_path), Path("cards") / name_or_path, GAMES_FOLDER / name_or_path]
    for candidate in candidates:
        if (candidate / "game.yaml").is_file():
            return candidate
    known = ", ".join(sorted(p.name for p in list_game_folders())) or "none"
    raise UserError.at(
        Location(Path(name_or_path)), f"no game here: expected a folder with game.yaml or a game id ({known})"
    )


def list_game_folders(root: Path | None = None) -> list[Path]:
    folder = root or (Path("cards") if Path("cards").is_dir() else GAMES_FOLDER)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if (p / "game.yaml").is_file())


DEFAULT_OUTPUT = Path("output")


def working_game_folder(where: Path | None = None) -> Path | None:
    """The game folder the command runs in (the working folder or one above it holding game.yaml), if any."""
    here = (where or Path.cwd()).resolve()
    return next((folder for folder in (here, *here.parents) if (folder / "game.yaml").is_file()), None)


def output_folder(out: Path) -> Path:
    """Where output goes: as given, except that the default `output` seen from inside a game folder
    means the output folder beside that game (a game folder never holds its own output)."""
    game = working_game_folder() if out == DEFAULT_OUTPUT else None
    return Path(os.path.relpath(game.parent / DEFAULT_OUTPUT)) if game is not None else out


def game_folders(names: list[str]) -> list[Path]:
    """The folders of the games a command names (ids or paths), every unknown one reported; none named:
    the game whose folder the command runs in, else all the games."""
    if names:
        problems = []
        folders = []
        for name in names:
            try:
                folders.append(find_game_folder(name))
            except UserError as exc:
                problems.extend(exc.problems)
        if problems:
            raise UserError(problems)
        return folders
    working = working_game_folder()
    if working is not None:
        return [working]
    folders = list_game_folders()
    if not folders:
        raise UserError.at(Location(Path("cards")), "no games found (a game is a folder with a game.yaml)")
    return folders
