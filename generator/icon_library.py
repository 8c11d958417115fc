"""The game-icons.net library shipped in the package: every icon by name, without a file per icon.

`icon: fire-ray` (or `:fire-ray:` in text) names a library icon when neither the game's `icons:`
nor the shared templates/icons/ has that name. A library icon travels through layout and render
as the path "game-icons:NAME"; render/icons.py draws it from the SVG text kept here, and its cache
key is the library's version and the name (render/keys.py). Credits for the library icons a build
used are written beside its PDF (icon_credits).

Source, licence and authors: data/icons/README.md.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator, Mapping
from functools import lru_cache
from importlib.resources import files

PREFIX = "game-icons:"
VERSION = "game-icons 1.2.4"  # part of every library icon's cache key
AUTHOR_NAMES = {
    "heavenly-dog": "HeavenlyDog", "lucasms": "Lucas", "darkzaitzev": "DarkZaitzev",
    "generalace135": "GeneralAce135", "seregacthtuf": "SeregaCthtuf", "spencerdub": "SpencerDub",
    "priorblue": "PriorBlue", "irongamer": "Irongamer", "andymeneely": "Andy Meneely",
    "caro-asercion": "Caro Asercion", "aussiesim": "Aussiesim", "guard13007": "Guard13007",
}


@lru_cache(maxsize=1)
def _data() -> dict:
    raw = files("spellpress").joinpath("data", "icons", "game-icons.json.gz").read_bytes()
    return json.loads(gzip.decompress(raw))


def names() -> tuple[str, ...]:
    """Every library icon's name (aliases included), sorted."""
    data = _data()
    return tuple(sorted({*data["icons"], *data["aliases"]}))


def _canonical(name: str) -> str | None:
    data = _data()
    name = data["aliases"].get(name, name)
    return name if name in data["icons"] else None


def has(name: str) -> bool:
    return isinstance(name, str) and _canonical(name) is not None


def svg_text(name: str) -> str:
    """The icon as a standalone SVG document (black fill, recoloured when drawn)."""
    data = _data()
    body = data["icons"][_canonical(name) or name]
    width, height = data["width"], data["height"]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}">{body}</svg>\n')


def author(name: str) -> str:
    folder = _data()["authors"][_canonical(name) or name]
    return AUTHOR_NAMES.get(folder, folder.replace("-", " ").title())


def source_url(name: str) -> str:
    canonical = _canonical(name) or name
    return f"https://game-icons.net/1x1/{_data()['authors'][canonical]}/{canonical}.html"


def search(words: list[str]) -> list[str]:
    """Names holding every word (case-insensitive), whole hyphen-separated parts first."""
    wanted = [word.lower() for word in words if word.strip()]
    found = [name for name in names() if all(word in name for word in wanted)]
    return sorted(found, key=lambda name: (not all(word in name.split("-") for word in wanted), len(name), name))


def library_path(name: str) -> str:
    return PREFIX + (_canonical(name) or name)


def is_library_path(path: str) -> bool:
    return path.startswith(PREFIX)


def name_of(path: str) -> str:
    return path[len(PREFIX):]


class IconNames(Mapping[str, str]):
    """A game's icons by name (path as text), falling back to the library for any other name.

    Iterating gives the game's own and the shared icons only, so listing "known" icons or
    suggesting a spelling never walks the thousands of library names.
    """

    def __init__(self, own: Mapping[str, str]):
        self._own = dict(own)

    def __getitem__(self, name: str) -> str:
        if name in self._own:
            return self._own[name]
        if has(name):
            return library_path(name)
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        return name in self._own or (isinstance(name, str) and has(name))

    def __iter__(self) -> Iterator[str]:
        return iter(self._own)

    def __len__(self) -> int:
        return len(self._own)


def icon_credits(paths: set[str]) -> str | None:
    """CREDITS text for the library icons among these icon paths, or None when there are none."""
    used = sorted(name_of(path) for path in paths if is_library_path(path))
    if not used:
        return None
    rows = [f"| {name} | {author(name)} | {source_url(name)} |" for name in used]
    return ("# Icon credits\n\n"
            "Icons from game-icons.net, licensed under CC BY 3.0\n"
            "(https://creativecommons.org/licenses/by/3.0/). Icons made by the authors below.\n\n"
            "| icon | author | source |\n| --- | --- | --- |\n" + "\n".join(rows) + "\n")
