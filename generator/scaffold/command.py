"""`spellpress new PATH [--from GAME] [--size SIZE]`."""

from __future__ import annotations

from pathlib import Path

from spellpress.model.sizes import CARD_SIZES
from spellpress.paths import game_folders
from spellpress.scaffold.new import copy_game, new_game


def register(commands) -> None:
    parser = commands.add_parser(
        "new", help="start a new game folder that checks and builds at once",
        description="Write PATH/ with game.yaml, one component of three cards (cards.yaml), a template that "
                    "extends the shared text-card, and a README; or, with --from, a copy of an existing game. "
                    "PATH must not exist or must be empty: nothing is ever overwritten.")
    parser.add_argument("path", type=Path, metavar="PATH", help="the new game's folder; its name is the game's id")
    parser.add_argument("--from", dest="source", metavar="GAME|PATH",
                        help="copy this game (a shipped game id such as word-to-the-wise, or a game folder) as the start; "
                             "links leaving it, links to folders and special files are skipped, and said")
    sizes = ", ".join(f"{name} {w:g} x {h:g} mm" for name, (w, h) in CARD_SIZES.items())
    parser.add_argument("--size", default="poker", choices=list(CARD_SIZES), metavar="SIZE",
                        help=f"card size of the starter deck (default poker): {sizes}")
    parser.add_argument("--rules", action="store_true",
                        help="also write rules.py, a starter rules engine (docs/rules.md), so the game simulates at once")


def run_new(args) -> int:

    if args.source and args.rules:
        from spellpress.errors import Option, UserError

        raise UserError.at(Option("--rules"), "--rules starts a new game; a game copied with --from keeps its own rules")
    if args.source:
        files, skipped = copy_game(game_folders([args.source])[0], args.path)
        print(f"copied {args.source} into {args.path} ({len(files)} files)")
        if skipped:
            print(f"skipped {len(skipped)} {'entry' if len(skipped) == 1 else 'entries'} (only the game's own files "
                  f"are copied; a link is copied only as a file inside {args.source}):")
            for entry in skipped:
                print(f"  {entry}")
    else:
        from spellpress.scaffold.new import BACK_TITLE_FONT, game_name, undrawable

        files = new_game(args.path, args.size, rules=args.rules)
        print(f"wrote a new game in {args.path}:")
        for path in files:
            print(f"  {path}")
        missing = undrawable(game_name(args.path))
        if missing:
            shown = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in missing[:5])
            print(f"note: the card backs' font {BACK_TITLE_FONT} cannot draw {shown}, so the backs have no title; "
                  "add a font that can (fonts: in game.yaml, docs/yaml.md) and set backs.deck.fields.title")
    print(f"next: spellpress build {args.path}")
    if args.rules:
        print(f"      spellpress simulate {args.path}")
    return 0
