"""Where a game's files go: OUT/<game>, never inside a game folder, where exports could replace a designer's files."""

from __future__ import annotations

from pathlib import Path

from spellpress.errors import Location, UserError


def game_output_folder(out: Path, game_id: str, game_root: Path) -> Path:
    """OUT/<game>, refused (exit 2) when it is or lies inside a game folder, or holds this game's folder."""
    folder = out / game_id
    resolved = folder.resolve()
    for candidate in (resolved, *resolved.parents):
        if (candidate / "game.yaml").is_file():
            raise UserError.at(
                Location(folder),
                f"output folder '{folder}' is inside the game folder '{candidate}': Spellpress writes only "
                "outside game folders, so choose another --out (the default is ./output)",
            )
    root = game_root.resolve()
    if resolved in root.parents:
        raise UserError.at(
            Location(folder),
            f"output folder '{folder}' holds the game folder '{game_root}': choose another --out",
        )
    return folder
