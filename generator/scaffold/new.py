"""Write a new game folder: game.yaml, one component of three cards, a template extending a shared one, a README.

The starter files are plain text below, filled in with the game's name and card size: what a
designer reads in them is exactly what Spellpress will read.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import stat
import tempfile
from importlib.resources import files as package_files
from pathlib import Path

from spellpress.errors import Location, Option, UserError
from spellpress.model.sizes import CARD_SIZES

GAME_YAML = """\
# {comment}: your game. Every key is documented in Spellpress's docs/yaml.md.
name: {quoted}
players: {{min: 2, max: 4}}
minutes: [15, 30]
description: A new game made with Spellpress.

print:
  paper: a4            # a4 or letter (or --paper on the command line)
  bleed: 3mm           # printed past the cut line
  backs: duplex-long   # duplex-long, duplex-short, fold or none

backs:
  deck:
    template: deck-back
    fields: {{title: {title}, icon: quill-ink, color: "#1f2d4d", ink: "#e9d8a6"}}

components:
  - cards.yaml
"""

RULES_YAML = """\

# The rules engine beside this file (rules.py): `spellpress simulate {folder}` plays it.
rules:
  engine: rules.py
  hand: 3              # cards dealt to each player (fewer when the deck is short)
  deck: cards          # the component dealt from
  points: points       # the card field a card scores
"""

CARDS_YAML = """\
# The main deck: one entry per card; `count` copies of each are printed.
name: Cards
kind: card
size: {size}
template: my-card      # templates/my-card.yaml
back: deck             # a back named in game.yaml
fields: {{title: str, body: str, points: int}}
cards:
  - id: first
    count: 3
    title: First card
    body: What this card does, in a sentence or two.
    points: 1
  - id: second
    count: 2
    title: Second card
    body: Every card is a few lines of YAML; change one and build again.
    points: 2
  - id: third
    count: 1
    title: Third card
    body: "Inline icons sit on the line: :star-swirl:"
    points: 3
"""

TEMPLATE_YAML = """\
# A card of this game: the shared text-card (title and body) plus the card's points in a corner.
extends: text-card
boxes:
  points:
    kind: text
    x: "{{{{ card_width - 14 }}}}"
    y: "{{{{ card_height - 12 }}}}"
    w: 8mm
    h: 6mm
    text: "{{{{ points }}}}"
    font: EBGaramond-Bold
    size: 12
    align: right
    valign: middle
    color: "#22213b"
"""

README = """\
# {name}

Made with Spellpress. Build the cards:

    spellpress check {folder}
    spellpress build {folder}      # output/{game_id}/{game_id}-a4.pdf

- `game.yaml`: the game, print settings, backs, and its components.
- `cards.yaml`: the cards (add a card by adding an entry; `count` copies are printed).
- `templates/my-card.yaml`: the card layout, extending the shared `text-card`.
"""

RULES_README = """\
- `rules.py`: a starter rules engine ("High Card", described in Spellpress's docs/rules.md);
  make it play your rules, then `spellpress simulate {folder}` and `spellpress report {folder}`.
"""

def game_name(folder: Path) -> str:
    words = re.split(r"[-_\s]+", folder.resolve().name)
    return " ".join(w.capitalize() for w in words if w) or "My Game"


BACK_TITLE_FONT = "Cinzel-Bold"  # the font of the shared deck-back's title
MAX_NAME_BYTES = 255  # a folder name on Linux, macOS and Windows file systems


def quoted(text: str) -> str:
    """A YAML scalar that reads back as `text` whatever it holds (quotes, colons, #, braces, backslashes)."""
    return json.dumps(text, ensure_ascii=False)


def undrawable(text: str, font: str = BACK_TITLE_FONT) -> str:
    """The characters of `text` the shipped `font` cannot draw."""
    from spellpress.layout import fonts
    from spellpress.paths import SHARED_FONTS

    return fonts.missing_characters(text, fonts.register(font, SHARED_FONTS / f"{font}.ttf"))


def game_yaml(name: str) -> str:
    """game.yaml for `name`; the card backs show the name when their font can draw it, else no title."""
    title = quoted(name) if not undrawable(name) else '""'
    return GAME_YAML.format(comment=" ".join(name.split()), quoted=quoted(name), title=title)


def refuse_existing(folder: Path) -> None:
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UserError.at(Location(folder),
                           "already exists and is not empty: spellpress new never overwrites; choose a new folder")


def starter_engine() -> str:
    """The starter rules engine, the complete example of docs/rules.md."""
    return package_files("spellpress.scaffold").joinpath("high_card.py").read_text(encoding="utf-8")


def new_game(folder: Path, size: str = "poker", rules: bool = False) -> list[Path]:
    """Write a starter game into `folder` (absent or empty), with a starter engine if `rules`; the files written."""
    if len(folder.resolve().name.encode()) > MAX_NAME_BYTES:
        raise UserError.at(Location(folder), f"the folder name is {len(folder.resolve().name.encode()):,} bytes; a folder "
                                             f"name may have at most {MAX_NAME_BYTES} (the game's id is its folder's name)")
    refuse_existing(folder)
    if size not in CARD_SIZES:
        raise UserError.at(Option("--size"), f"unknown card size '{size}' (expected one of: {', '.join(CARD_SIZES)})")
    name = game_name(folder)
    files = {
        "game.yaml": game_yaml(name),
        "cards.yaml": CARDS_YAML.format(size=size),
        "templates/my-card.yaml": TEMPLATE_YAML.format(),
        "README.md": README.format(name=name, folder=folder, game_id=folder.resolve().name),
    }
    if rules:
        files["game.yaml"] += RULES_YAML.format(folder=folder)
        files["README.md"] += RULES_README.format(folder=folder)
        files["rules.py"] = starter_engine()
    return _write_all(folder, files)


def copy_plan(source: Path) -> tuple[dict[str, Path], list[str]]:
    """What copying the game folder `source` takes: {relative path: file to read}, and what it skips, why.

    Only regular files are copied. A link is copied as the file it names when that file is inside
    `source`; a link leaving `source` (/etc/passwd, ../secret), a broken one, a link to a folder (which
    could loop) and anything not a plain file (a pipe, a device) are skipped: a downloaded game must
    not make a copy of it carry the copier's own files."""
    root = source.resolve()
    files: dict[str, Path] = {}
    skipped: list[str] = []
    for folder, folders, names in os.walk(root, followlinks=False):
        here = Path(folder)
        for name in sorted(folders):
            if (here / name).is_symlink():
                skipped.append(f"{(here / name).relative_to(root).as_posix()} -> {os.readlink(here / name)} (a link to a folder)")
        folders[:] = sorted(n for n in folders if n != "__pycache__" and not (here / n).is_symlink())
        for name in sorted(names):
            path = here / name
            relative = path.relative_to(root).as_posix()
            if name.endswith(".pyc"):
                continue
            if path.is_symlink():
                target = path.resolve()
                if not target.is_relative_to(root):
                    skipped.append(f"{relative} -> {os.readlink(path)} (leaves {source})")
                    continue
                if not target.is_file():
                    skipped.append(f"{relative} -> {os.readlink(path)} (not a file)")
                    continue
                files[relative] = target
            elif stat.S_ISREG(path.lstat().st_mode):
                files[relative] = path
            else:
                skipped.append(f"{relative} (not a plain file)")
    return files, skipped


def copy_game(source: Path, folder: Path) -> tuple[list[Path], list[str]]:
    """Copy a game folder (a shipped one, or any) as a starting point: the files written, what was skipped."""
    refuse_existing(folder)
    files, skipped = copy_plan(source)
    _write_all(folder, {relative: lambda target, path=path: shutil.copyfile(path, target) for relative, path in files.items()})
    return [folder / relative for relative in files], skipped


def _write_all(folder: Path, files: dict) -> list[Path]:
    """Write every file (its text, or a function writing it to a path) into a staging folder of this run's
    own, then move that in whole: all of the game or none of it. Two runs at once: one wins, the other is
    told the folder already exists."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name[:100]}.", suffix=".new"))
    try:
        for relative, content in files.items():
            path = staging / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            if callable(content):
                content(path)
            else:
                path.write_text(content, encoding="utf-8")
        try:
            if folder.is_dir() and not folder.is_symlink():
                folder.rmdir()  # an empty folder, as refuse_existing found it
            staging.rename(folder)
        except OSError as exc:
            if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOTDIR):
                raise
            raise UserError.at(Location(folder), "already exists and is not empty (another `spellpress new` made it "
                                                 "meanwhile?): spellpress new never overwrites; choose a new folder") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return [folder / relative for relative in files]
