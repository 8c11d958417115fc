"""The files of an edition: the source folder's, with the letter deck, the dice and game.yaml rewritten,
a README with the profile table, and the strings a translator has to translate. Written whole or not at all."""

from __future__ import annotations

import io
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from ruamel.yaml import YAML

from spellpress.errors import Location, UserError
from spellpress.model.game import Game

HEADER = re.compile(r"\A(?:[ \t]*#[^\n]*\n|[ \t]*\n)*")
CARDS_KEY = re.compile(r"^cards:[ \t]*(#[^\n]*)?$", re.MULTILINE)
STRING_FIELDS_SKIPPED = ("letter", "faces", "id")


def _round_trip() -> YAML:
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096
    return yaml


def deck_text(source: str, where: Location, comment: list[str], cards: list[dict]) -> str:
    """The deck's YAML: the source's keys up to its top-level `cards:` (its opening comment replaced by
    `comment`), then one flow-style line a card."""
    found = CARDS_KEY.search(source)
    if not found:
        raise UserError.at(where, "edition rewrites a deck whose cards are a top-level `cards:` list in its YAML file")
    head = HEADER.sub("", source[:found.start()], count=1)
    lines = ["cards:"] + ["  - {" + ", ".join(f"{key}: {value}" for key, value in card.items()) + "}" for card in cards]
    return "".join(f"# {line}\n" if line else "#\n" for line in comment) + head + "\n".join(lines) + "\n"


def dice_text(source: str, faces: list[list[str]]) -> str:
    """The dice file with each die's faces replaced, in order, comments and layout kept."""
    yaml = _round_trip()
    data = yaml.load(source)
    for card, new in zip(data["cards"], faces, strict=False):
        old = card["faces"]
        for i, face in enumerate(new):
            old[i] = face
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def game_text(source: str, comment: list[str], name: str, game_id: str, language: str, description: str,
              vocabulary: int | None = None) -> str:
    yaml = _round_trip()
    data = yaml.load(HEADER.sub("", source, count=1))
    data["name"] = name
    if "id" in data:
        data["id"] = game_id
    data["description"] = description
    words = data.setdefault("words", {})
    words["language"] = language
    if "lexicon" in words:
        del words["lexicon"]
    if vocabulary is not None:
        words["vocabulary"] = vocabulary
    elif "vocabulary" in words:
        del words["vocabulary"]
    out = io.StringIO()
    yaml.dump(data, out)
    return "".join(f"# {line}\n" for line in comment) + out.getvalue()


def strings_to_translate(game: Game, letter_components: set[str]) -> list[dict]:
    """Every text a player reads that stays in the source's language: the game's name and description,
    the backs' and the other components' string fields, with the file and line they are written at."""
    rows = [{"file": "game.yaml", "field": "name", "text": game.spec.name}]
    if game.spec.description:
        rows.append({"file": "game.yaml", "field": "description", "text": game.spec.description})
    for back_id, back in game.spec.backs.items():
        for key, value in back.fields.items():
            if isinstance(value, str) and not value.startswith("#") and (" " in value.strip() or key == "title"):
                rows.append({"file": "game.yaml", "field": f"backs.{back_id}.{key}", "text": str(value)})
    for component in game.components:
        for card in component.cards:
            for key, value in card.fields.items():
                if key in STRING_FIELDS_SKIPPED or (component.id in letter_components and key != "title"):
                    continue
                for text in (value if isinstance(value, (list, tuple)) else [value]):
                    if isinstance(text, str) and re.search(r"[A-Za-z]{2}", text) and not text.startswith("#"):
                        path = card.location.path.resolve().relative_to(game.root.resolve()).as_posix()
                        rows.append({"file": f"{path}:{card.location.line}", "field": f"{card.id}.{key}", "text": text})
    return rows


def write_folder(out: Path, replaced: dict[str, str], copy: dict[str, Path],
                 finish: Callable[[Path], dict[str, str]] | None = None) -> list[Path]:
    """Write the edition into `out` (absent or empty): every file of `copy` (relative path -> source file)
    except those `replaced` gives the text of, staged beside it; then the files `finish(staged folder)`
    returns (a report made from the staged game); then moved in whole."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UserError.at(Location(out), "already exists and is not empty: edition never overwrites; choose a new folder")
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        for relative, path in copy.items():
            if relative not in replaced:
                (staging / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, staging / relative)
        for relative, text in replaced.items():
            (staging / relative).parent.mkdir(parents=True, exist_ok=True)
            (staging / relative).write_text(text, encoding="utf-8")
        for relative, text in (finish(staging) if finish else {}).items():
            (staging / relative).write_text(text, encoding="utf-8")
            replaced[relative] = text
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(staging, 0o777 & ~umask)  # mkdtemp makes it 0700
        if out.exists():
            out.rmdir()
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return [out / relative for relative in sorted({*copy, *replaced})]
