"""`spellpress letters`: the letter analysis of a game, as tables, JSON and a PDF."""

from __future__ import annotations

from pathlib import Path

from spellpress.analysis.letter_report import analyse, letters_pdf, print_report
from spellpress.arguments import bounded_int
from spellpress.errors import Option
from spellpress.load.game import load_game
from spellpress.model.limits import MAX_HAND
from spellpress.model.vocabulary import HELP as VOCABULARY_HELP
from spellpress.paths import game_folders
from spellpress.words.vocabulary import with_vocabulary
from spellpress.write.atomic import write_bytes
from spellpress.write.destination import game_output_folder
from spellpress.write.json_text import finite_json

MAX_SUGGESTED_DECK = 1_000  # cards in a suggested deck: the search moves one card at a time


def run_letters(args) -> int:

    folder = game_folders([args.game])[0]

    game = with_vocabulary(load_game(folder), args.vocabulary)
    level = game.spec.words.vocabulary
    out = game_output_folder(args.out, game.id, game.root)
    stem = f"{game.id}-letters" + (f"-vocabulary-{level}" if level else "")
    report = analyse(game, hand=args.hand, samples=args.samples, seed=args.seed,
                     hand_location=Option("--hand") if args.hand else None, suggest_total=args.suggest_counts)
    write_bytes(out / f"{stem}.pdf", letters_pdf(report))
    write_bytes(out / f"{stem}.json", finite_json(report).encode())
    if args.json:
        print(finite_json(report))
    else:
        print_report(report)
        print(out / f"{stem}.pdf")
    return 0


def register(commands) -> None:
    parser = commands.add_parser("letters",
                                 help="analyse a game's letter mix: playability, distance from the language, fair points",
                                 description="Write OUT/<game>/<game>-letters.pdf and .json, and print the figures.")
    parser.add_argument("game", metavar="GAME|PATH", help="a game id under cards/ or a game folder")
    parser.add_argument("--hand", type=bounded_int(1, MAX_HAND),
                        help=f"cards in a hand, 1 to {MAX_HAND} (default: words.hand in game.yaml, else 7)")
    parser.add_argument("--samples", type=bounded_int(1, 1_000_000), default=4000,
                        help="hands to sample when exact odds are too costly: more distinct hands than 20,000 and than the "
                             "samples (default 4000)")
    parser.add_argument("--seed", type=int, default=1, help="sampling seed (default 1)")
    parser.add_argument("--suggest-counts", type=bounded_int(1, MAX_SUGGESTED_DECK), metavar="N",
                        help="also propose counts for a deck of N cards with the same card faces, nearer the language's "
                             "letter frequency and at least as playable, with before/after figures (docs/letters.md)")
    parser.add_argument("--vocabulary", metavar="NAME|LEVEL",
                        help=VOCABULARY_HELP + "; the files are then named <game>-letters-vocabulary-<level>")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--out", type=Path, default=Path("output"), help="output folder (default: output)")
