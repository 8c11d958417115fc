"""Copy library icons into a folder as SVG files, with their credits (for editing an icon by hand).

Usage: python -m spellpress.tools.icons [--dest FOLDER] NAME [NAME ...]

FOLDER defaults to templates/icons (shared by every game); a game keeps its own icons in
cards/<game>/icons and names them under `icons:` in its game.yaml. A library icon needs no copy
to be used (`icon: NAME`): copy one only to change its drawing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from spellpress import icon_library
from spellpress.paths import SHARED_ICONS

HEADER = """# Icon credits

Icons from game-icons.net, licensed under CC BY 3.0
(https://creativecommons.org/licenses/by/3.0/). Each icon's author:

| icon | author | source |
| --- | --- | --- |
"""


def main(argv: list[str]) -> int:
    dest = SHARED_ICONS
    if argv and argv[0] == "--dest":
        dest, argv = Path(argv[1]), argv[2:]
    unknown = [name for name in argv if not icon_library.has(name)]
    if unknown or not argv:
        print(f"not library icons: {', '.join(unknown) or '(none named)'}; `spellpress icons WORD` searches them",
              file=sys.stderr)
        return 2
    dest.mkdir(parents=True, exist_ok=True)
    credits = dest / "CREDITS.md"
    rows = {}
    if credits.exists():
        for line in credits.read_text().splitlines():
            if line.startswith("| ") and not line.startswith("| icon") and not line.startswith("| ---"):
                rows[line.split("|")[1].strip()] = line
    for name in argv:
        (dest / f"{name}.svg").write_text(icon_library.svg_text(name))
        rows[name] = f"| {name} | {icon_library.author(name)} | {icon_library.source_url(name)} |"
    credits.write_text(HEADER + "\n".join(rows[k] for k in sorted(rows)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
