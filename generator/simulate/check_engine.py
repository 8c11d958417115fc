"""`spellpress check-engine`: load each game's rules engine (running its Python) and check the game against it."""

from __future__ import annotations

from spellpress.errors import UserError
from spellpress.paths import game_folders


def register(commands) -> None:
    parser = commands.add_parser(
        "check-engine", help="check games against their rules engines; runs each engine's Python (rules.py or installed)",
        description="For each game naming a rules engine (game.yaml rules.engine): load the engine, which runs its "
                    "Python (a rules.py in the game folder, or an installed engine), and check the game's rules: "
                    "keys, components and card fields against it. Run it only on games whose code you trust; "
                    "'spellpress check' validates the rest without running any.")
    parser.add_argument("games", nargs="*", metavar="GAME|PATH", help="game ids under cards/ or game folders (default: the game whose folder you are in, else every game)")
    parser.set_defaults(handler=cmd_check_engine)


def cmd_check_engine(args) -> int:
    from spellpress.load.game import load_game
    from spellpress.errors import Problems
    from spellpress.rules.plugins import check_engine, engine_name

    problems = Problems()
    for folder in game_folders(args.games):
        try:
            game = load_game(folder)
            check_engine(game)
        except UserError as exc:
            problems.extend(exc)
            continue
        name = engine_name(game)
        print(f"{game.id}: " + (f"ok with its rules engine '{name}'" if name else "no rules engine (nothing to check)"))
    problems.raise_if_any()
    return 0
