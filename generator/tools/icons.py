"""Extract game-icons.net icons into templates/icons/ and keep their credits.

Usage: python -m spellpress.tools.icons [--dest FOLDER] ICONS_JSON AUTHOR/NAME [AUTHOR/NAME ...]

FOLDER defaults to templates/icons (shared by every game); a game keeps its own
icons in cards/<game>/icons and names them under `icons:` in its game.yaml.

ICONS_JSON is icons.json from the npm package @iconify-json/game-icons
(`npm pack @iconify-json/game-icons`). AUTHOR is the icon's folder in the
game-icons repository (lorc, delapouite, ...), which the credits name.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from spellpress.paths import SHARED_ICONS

HEADER = """# Icon credits

Icons from game-icons.net, licensed under CC BY 3.0
(https://creativecommons.org/licenses/by/3.0/). Each icon's author:

| icon | author | source |
| --- | --- | --- |
"""
AUTHORS = {
    "lorc": "Lorc", "delapouite": "Delapouite", "skoll": "Skoll", "sbed": "Sbed",
    "carl-olsen": "Carl Olsen", "cathelineau": "Cathelineau", "willdabeast": "Willdabeast",
    "caro-asercion": "Caro Asercion", "faithtoken": "Faithtoken", "viscious-speed": "Viscious Speed",
    "various-artists": "Various artists", "heavenly-dog": "HeavenlyDog", "andymeneely": "Andy Meneely",
    "quoting": "Quoting", "felbrigg": "Felbrigg", "lucasms": "Lucas", "darkzaitzev": "DarkZaitzev",
    "pierre-leducq": "Pierre Leducq", "zajkonur": "Zajkonur", "guard13007": "Guard13007",
}


def svg(body: str, width: int, height: int) -> str:
    body = body.replace('fill="currentColor"', 'fill="#000000"')
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}">{body}</svg>\n'


def main(argv: list[str]) -> int:
    dest = SHARED_ICONS
    if argv and argv[0] == "--dest":
        dest, argv = Path(argv[1]), argv[2:]
    dest.mkdir(parents=True, exist_ok=True)
    credits = dest / "CREDITS.md"
    icons_json, wanted = Path(argv[0]), argv[1:]
    data = json.loads(icons_json.read_text())
    width, height = data.get("width", 512), data.get("height", 512)
    rows = {}
    if credits.exists():
        for line in credits.read_text().splitlines():
            if line.startswith("| ") and not line.startswith("| icon") and not line.startswith("| ---"):
                rows[line.split("|")[1].strip()] = line
    for item in wanted:
        author, name = item.split("/")
        icon = data["icons"][name]
        (dest / f"{name}.svg").write_text(svg(icon["body"], icon.get("width", width), icon.get("height", height)))
        shown = AUTHORS.get(author, author)
        rows[name] = f"| {name} | {shown} | https://game-icons.net/1x1/{author}/{name}.html |"
    credits.write_text(HEADER + "\n".join(rows[k] for k in sorted(rows)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
