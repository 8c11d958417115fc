"""`spellpress edition SOURCE --language LANG --out FOLDER`: the source game with its letter deck (and
letter dice) redesigned for another language to the source's playability profile (docs/editions.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spellpress.arguments import bounded_int
from spellpress.errors import Option, UserError
from spellpress.model.vocabulary import HELP as VOCABULARY_HELP

if TYPE_CHECKING:
    from spellpress.analysis.playability import HandRules

ACCENTS = {  # the accent policy of each shipped list (generator/model/languages.py, docs/yaml.md)
    "en": "the letters a-z",
    "fr": "every accent folded (é is E, ç is C), as French Scrabble does",
    "de": "Ä, Ö and Ü are letters of their own, as German Scrabble's tiles are; ß is spelt SS, other accents folded",
    "es": "Ñ is a letter of its own, as Spanish Scrabble's tile is; á é í ó ú ü folded",
}


def register(commands) -> None:
    parser = commands.add_parser(
        "edition", help="redesign a word game's letter deck for another language, to play like the original",
        description="Write FOLDER/: a copy of the source game with its letter cards (counts, points, digraphs) and its "
                    "letter dice redesigned for LANGUAGE's word list, searched towards the source's playability "
                    "profile (the chance of a word, of using every card, of going out, the expected best score, the "
                    "letter spread), and with --games the game's length by simulation. The README written there "
                    "compares both profiles with 95% intervals and a verdict per figure (docs/editions.md).")
    parser.add_argument("source", metavar="GAME|PATH", help="the game to make an edition of (a shipped id or a folder)")
    parser.add_argument("--language", choices=["en", "fr", "de", "es"], help="the edition's language (required unless --compare)")
    parser.add_argument("--out", type=Path, metavar="FOLDER",
                        help="the new game folder (must not exist, or be empty); its name is the new game's id "
                             "(required unless --compare)")
    parser.add_argument("--compare", metavar="GAME|PATH",
                        help="write nothing: compare this existing edition (made by hand or by edition) with SOURCE, "
                             "profile against profile, and print the table (with --markdown, as the README's)")
    parser.add_argument("--markdown", action="store_true", help="with --compare: print the table as Markdown")
    parser.add_argument("--name", help="the edition's name (default: the source's name and the language)")
    parser.add_argument("--samples", type=bounded_int(200, 200_000), default=2000,
                        help="seeded hands each deck is judged on (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the hands and the games (default 1)")
    parser.add_argument("--games", type=bounded_int(0, 100_000), default=400,
                        help="games simulated of the source and of the edition to compare their length (default 400; "
                             "0 skips it). This runs the game's rules engine")
    parser.add_argument("--digraphs", type=bounded_int(0, 6), default=3,
                        help="where the source prints no digraph cards: how many of the language's commonest "
                             "consonant digraphs (German SCH, CH) the search may put on cards, 0 to 24 cards "
                             "among them (default 3; 0: none). The game's engine must take multi-letter cards")
    parser.add_argument("--players", type=int, help="players in those games (default: 4, or the game's nearest count)")
    parser.add_argument("--workers", type=bounded_int(1, 256), help="worker processes for those games (default: one per core)")
    parser.add_argument("--vocabulary", metavar="NAME|LEVEL",
                        help="the edition's words (English list only: an English edition of an English game for another "
                             "table, e.g. casual for a family edition): " + VOCABULARY_HELP.split(": ", 1)[1])
    parser.add_argument("--level", metavar="NAME|LEVEL", default="35",
                        help="with --dependence: the SCOWL level its share is counted above (default 35, casual)")
    parser.add_argument("--dependence", metavar="source|PERCENT",
                        help="with --games, English lists: bring the vocabulary dependence (the share of the winners' "
                             "word points from words above --level) near the source's figure or this percentage")


def run_edition(args) -> int:
    from spellpress.load.game import load_game
    from spellpress.paths import game_folders

    source_folder = game_folders([args.source])[0]
    if args.compare:
        report = compare(load_game(source_folder), load_game(game_folders([args.compare])[0]), args)
        print("\n".join(profile_table(report))) if args.markdown else print_report(report)
        return 0
    for option, value in (("--language", args.language), ("--out", args.out)):
        if value is None:
            raise UserError.at(Option(option), "is required to make an edition (or give --compare EDITION to compare one)")
    out = args.out.resolve()
    if out.is_relative_to(source_folder.resolve()):
        raise UserError.at(Option("--out"), f"{args.out} is inside the source game's folder; choose a folder outside it")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):  # before the search, not after it
        raise UserError.at(Option("--out"), f"{args.out} already exists and is not empty: edition never overwrites; "
                                            "choose a new folder")
    game = load_game(source_folder)
    report, files = make_edition(game, args)
    print_report(report)
    print(f"wrote {len(files)} files into {args.out}: README.md compares the profiles, translate.yaml lists the texts "
          f"still in {report['source']['language_name']}")
    return 0


def compare(source_game, edition_game, args) -> dict:
    """The profile of an existing edition against its source's (each on its own word list), and with
    --games their lengths: what the README of an edition made by this command shows."""
    from spellpress.edition.profile import deck_profile
    from spellpress.model.languages import LANGUAGES
    from spellpress.words.finder import for_words

    figures = []
    for game in (source_game, edition_game):
        _, mix = _deck_component(game)
        figures.append(deck_profile(mix, hand_rules(game), for_words(game.spec.words)[1], samples=args.samples,
                                    seed=args.seed))
    rows = _rows(*figures)
    if args.games and source_game.spec.rules.get("engine") and edition_game.spec.rules.get("engine"):
        length = game_length(source_game, args)
        rows += _rows(_dependence_target(length(source_game.root), args), length(edition_game.root))
    name = lambda game: {"game": game.id, "name": game.name, "language": game.spec.words.language,  # noqa: E731
                         "language_name": LANGUAGES[game.spec.words.language].name}
    return {"source": name(source_game), "edition": name(edition_game), "profile": rows}


def hand_rules(game) -> HandRules:
    """The hands a game deals, as the letter analysis judges them (its `words:` and vowel points)."""
    from spellpress.analysis.playability import HandRules

    words = game.spec.words
    return HandRules(words.hand or 7, words.min_length, words.wilds, float(game.spec.rules.get("vowel_points", 0)))


def game_length(game, args):
    """A function giving the figures of `args.games` seeded heuristic games of a folder (and a variant of its cards)
    at --players (default 4, or the game's nearest count): the mean length, and with --dependence the vocabulary
    dependence above --level; --players and --level are checked here, before any work."""
    from spellpress.edition.profile import dependence_figure, length_figure
    from spellpress.rules.plugins import rules_for
    from spellpress.simulate.command import _dependence_level
    from spellpress.simulate.runner import RunSpec, run

    rules = rules_for(game)
    allowed = rules.players_allowed(game)
    players = args.players or min(max(4, allowed.start), allowed.stop - 1)
    if players not in allowed:
        raise UserError.at(Option("--players"), f"{game.name} takes {allowed.start} to {allowed.stop - 1} players, not {players}")
    label = f"game length ({rules.length_unit}, {players} players, {args.games:,} games)"
    level = _dependence_level(args.level) if args.dependence else None

    def length(folder: Path, variant: tuple = ()) -> dict:
        spec = RunSpec(str(folder.resolve()), players, args.games, args.seed, variant=variant)
        tally = run(spec, workers=args.workers).tally
        figures = {"length": length_figure(tally.lengths, label)}
        if level is not None:
            figures.update(dependence_figure(tally.word_points, level))
        return figures

    return length


def edition_vocabulary(game, args) -> int | None:
    """The edition's SCOWL level (--vocabulary; English only), else the source's; --dependence needs English lists."""
    from spellpress.model.vocabulary import vocabulary_level

    english = game.spec.words.language == "en" and args.language == "en"
    if args.dependence and not english:
        raise UserError.at(Option("--dependence"), "needs an English source and an English edition: only the English "
                                                   "list has commonness levels")
    if args.dependence and not args.games:
        raise UserError.at(Option("--dependence"), "is measured in simulated games: give --games above 0")
    if args.vocabulary is None:
        return game.spec.words.vocabulary if english else None
    if args.language != "en":
        raise UserError.at(Option("--vocabulary"), "needs --language en: only the English list has commonness levels")
    try:
        return vocabulary_level(args.vocabulary)
    except ValueError as exc:
        raise UserError.at(Option("--vocabulary"), str(exc)) from None


def _dependence_target(figures: dict, args) -> dict:
    """The source's figures, its vocabulary dependence replaced by --dependence PERCENT when a number is asked."""
    from spellpress.edition.profile import target_figure

    wanted = (args.dependence or "source").strip().rstrip("%")
    if wanted.lower() == "source" or "dependence" not in figures:
        return figures
    try:
        share = float(wanted) / 100
    except ValueError:
        raise UserError.at(Option("--dependence"), f"expected 'source' or a percentage 0-100, got {args.dependence!r}") from None
    if not 0 <= share <= 1:
        raise UserError.at(Option("--dependence"), f"expected a percentage 0-100, got {args.dependence!r}")
    return {**figures, "dependence": target_figure(figures["dependence"], share)}


def _deck_component(game):
    from spellpress.analysis.mix import read_mix

    decks = [c for c in game.components if c.letters == "deck" or (c.letters == "auto" and "letter" in c.cards[0].fields)]
    if len(decks) != 1:
        raise UserError.at(game.location, f"edition redesigns one deck of letter cards; {game.name} has {len(decks)} "
                                          "(components with a `letter` field, or `letters: deck`)")
    mix = read_mix(game)
    if not mix.cards or any(card.points is None for card in mix.cards):
        raise UserError.at(decks[0].location, "edition needs letter cards that print `points`")
    return decks[0], mix


def make_edition(game, args) -> tuple[dict, list[Path]]:
    from spellpress.edition.design import design
    from spellpress.edition.files import deck_text, dice_text, game_text, strings_to_translate, write_folder
    from spellpress.edition.profile import deck_profile
    from spellpress.model.languages import LANGUAGES
    from spellpress.progress import LazyProgress
    from spellpress.scaffold.new import copy_plan
    from spellpress.words.finder import for_words

    words = game.spec.words
    vocabulary = edition_vocabulary(game, args)
    if words.language == args.language and vocabulary == words.vocabulary:
        raise UserError.at(Option("--language"), f"{game.name} is already in {LANGUAGES[args.language].name} "
                                                 "(give --vocabulary for an edition with another vocabulary)")
    deck, mix = _deck_component(game)
    dice_components = [c for c in game.components
                       if c.letters == "dice" or (c.letters == "auto" and "faces" in c.cards[0].fields)]
    rules = hand_rules(game)
    size = rules.hand
    length = game_length(game, args) if args.games and game.spec.rules.get("engine") else None
    source_lexicon, source_finder = for_words(words)
    target_words = words.model_copy(update={"language": args.language, "lexicon": LANGUAGES[args.language].list_name,
                                            "vocabulary": vocabulary})
    lexicon, finder = for_words(target_words)
    source_shares, shares = source_lexicon.letter_frequency(), lexicon.letter_frequency()
    name = args.name or f"{game.name} ({LANGUAGES[args.language].name})"
    with LazyProgress(f"{game.id}: designing the {LANGUAGES[args.language].name} deck", 26) as bar:
        source = deck_profile(mix, rules, source_finder, samples=args.samples, seed=args.seed)
        bar.advance()
        candidates, search = design(source, mix, source_shares, lexicon.words, shares, rules, finder,
                                    samples=args.samples, seed=args.seed, component=deck.id, digraphs=args.digraphs,
                                    progress=bar.advance)
    out: Path = args.out
    language = LANGUAGES[args.language]
    source_files, _ = copy_plan(game.root)
    relative = lambda path: path.resolve().relative_to(game.root.resolve()).as_posix()  # noqa: E731
    deck_file = relative(deck.location.path)
    deck_source = deck.location.path.read_text(encoding="utf-8")

    def cards_of(candidate) -> list[dict]:
        designed = candidate.deck
        cards: list[dict] = [{"letter": face.upper(), "points": designed.points[face], "count": count}
                             for face, count in sorted(designed.counts.items(), key=lambda item: (-item[1], item[0]))]
        if mix.wild_cards:
            wild = next(card for card in deck.cards if str(card.get("letter", "")).strip().lower() in ("?", "*", "wild"))
            cards.append({"letter": json.dumps(wild["letter"]), "count": mix.wild_cards})
        return cards

    def deck_yaml(candidate) -> str:
        return deck_text(deck_source, deck.location,
                         [f"{deck.name}: {sum(candidate.deck.counts.values())} cards for the {language.name} list, made "
                          "by spellpress edition", f"from {game.name}'s deck (README.md: the profile compared and the "
                          "choices).", ""], cards_of(candidate))

    first = candidates[0]
    replaced = {
        deck_file: deck_yaml(first),
        "game.yaml": game_text((game.root / "game.yaml").read_text(encoding="utf-8"),
                               [f"{name}: the {language.name} edition of {game.name}, made by spellpress edition",
                                "(README.md). Texts still to translate: translate.yaml."],
                               name, out.resolve().name, args.language, game.spec.description, vocabulary),
    }
    die_faces = [[face.upper() if face != "wild" else "WILD" for face in die] for die in first.deck.dice]
    at = 0
    for component in dice_components:
        count = len(component.cards)
        replaced[relative(component.location.path)] = dice_text(component.location.path.read_text(encoding="utf-8"),
                                                                 die_faces[at:at + count])
        at += count
    translate = strings_to_translate(game, {deck.id})
    shares_with_digraphs = {**shares, **search.digraph_shares}
    report: dict = {}

    def finish(staged: Path) -> dict[str, str]:
        from spellpress.load.game import load_game

        load_game(staged)  # the edition loads and validates as any game (a UserError names the staged file)
        chosen, rows, played = first, _rows(source, first.figures), []
        if length is not None:
            source_games = _dependence_target(length(game.root), args)
            chosen, rows, played = _by_length(length, source_games, staged, deck_file, deck_yaml, candidates, search.walk,
                                              source)
        designed = chosen.deck
        report.update({
            "source": {"game": game.id, "name": game.name, "language": words.language,
                       "language_name": LANGUAGES[words.language].name},
            "edition": {"name": name, "language": args.language, "language_name": language.name,
                        "list": language.list_name, "accents": ACCENTS[args.language]},
            "hand": size, "samples": args.samples, "seed": args.seed, "vocabulary": vocabulary,
            "digraphs": {"candidates": [{"letters": gram.upper(), "share": shares_with_digraphs.get(gram, 0.0)}
                                        for gram in search.digraphs],
                         "cards": _digraph_cards(chosen)},
            "deck": {"cards": cards_of(chosen), "spread": designed.spread, "highest_points": designed.highest,
                     "low_end": designed.low_end,
                     "source_highest_points": int(max(card.points for card in mix.cards if card.points is not None)),
                     "dice": die_faces, "source_dice": [[f.upper() for f in die] for die in mix.dice],
                     "shares": {face: shares_with_digraphs.get(face, 0.0) for face in designed.counts},
                     "left_out": _left_out(shares, mix)},
            "profile": rows,
            "search": [{"spread": s, "highest_points": h, "distance": d, "digraph_cards": n, "low_end": e}
                       for s, h, d, n, e in search.tried],
            "played": played,  # the decks whose games were simulated, with their figures
            "command": _command_line(args, out),
            "translate": len(translate),
        })
        import yaml

        return {deck_file: deck_yaml(chosen), "README.md": readme(report, game, out),
                "translate.yaml": yaml.safe_dump(translate, allow_unicode=True, sort_keys=False, width=120),
                "edition.json": json.dumps(report, indent=1, ensure_ascii=False) + "\n"}

    files = write_folder(out, replaced, source_files, finish)
    return report, files


LENGTH_CANDIDATES = 21  # decks whose games are simulated: the nearest the profile at each number of digraph cards,
#                         then at the number whose length came nearest each low end of the points (LOW_ENDS), then
#                         each spread at the nearest of those; the nearest with its length counted wins (a language
#                         can play longer or shorter at the same hand figures)


def _nearest_by(candidates, what) -> list:
    """The nearest candidate of each value of what(candidate), nearest first."""
    found: dict = {}
    for candidate in candidates:  # nearest first
        found.setdefault(what(candidate), candidate)
    return list(found.values())


def _digraph_cards(candidate) -> int:
    return sum(candidate.deck.counts.get(gram, 0) for gram in candidate.deck.digraphs)


def _by_length(length, source_games: dict, staged: Path, deck_file: str, deck_yaml, candidates, walk, source: dict):
    """Of the decks nearest the profile, the one nearest with the game's length counted too (each played as
    a copy of the staged game with its deck written; `length`: game_length's, `source_games` its figures for the
    source; `walk`: the search's nearest deck at a spread, highest points, digraph cards and low end), and its
    profile rows."""
    import shutil
    import tempfile

    from spellpress.edition.design import LOW_ENDS, SPREAD_GRID
    from spellpress.edition.profile import distance

    source = {**source, **source_games}
    judged: dict[int, tuple[float, Any, dict]] = {}
    with tempfile.TemporaryDirectory(prefix="spellpress-edition-") as scratch:
        def play(candidate) -> None:
            if id(candidate) in judged or len(judged) >= LENGTH_CANDIDATES:
                return
            folder = Path(scratch) / str(len(judged))
            shutil.copytree(staged, folder)
            (folder / deck_file).write_text(deck_yaml(candidate), encoding="utf-8")
            figures = {**candidate.figures, **length(folder)}
            judged[id(candidate)] = (distance(source, figures), candidate, figures)

        def nearest():
            return min(judged.values(), key=lambda entry: entry[0])[1]

        for candidate in _nearest_by(candidates, _digraph_cards):
            play(candidate)
        for low_end in LOW_ENDS:  # the points' low end: the lever on the length at the same hand figures
            best = nearest()
            play(walk(best.deck.spread, best.deck.highest, _digraph_cards(best), low_end))
        for spread in SPREAD_GRID:
            best = nearest()
            play(walk(spread, best.deck.highest, _digraph_cards(best), best.deck.low_end))
    far, chosen, figures = min(judged.values(), key=lambda entry: entry[0])
    played = [{"spread": found.deck.spread, "highest_points": found.deck.highest, "low_end": found.deck.low_end,
               "digraph_cards": _digraph_cards(found), "distance": distance_with_games,
               **{name: figure.value for name, figure in measured.items() if name in source_games}}
              for distance_with_games, found, measured in judged.values()]
    return chosen, _rows(source, figures), played


def _left_out(shares: dict[str, float], mix) -> list[str]:
    from spellpress.edition.design import card_letters

    return [letter.upper() for letter in card_letters(shares, mix.dice)[1]]


def _rows(source: dict, edition: dict) -> list[dict]:
    from spellpress.edition.profile import band, verdict

    rows = []
    for figure_name, figure in source.items():
        theirs = edition[figure_name]
        found, (low, high) = verdict(figure, theirs)
        rows.append({"figure": figure_name, "label": figure.label, "unit": figure.unit,
                     "source": figure.value, "source_ci95": list(figure.interval),
                     "edition": theirs.value, "edition_ci95": list(theirs.interval),
                     "difference_ci95": [low, high], "tolerance": band(figure), "verdict": found})
    return rows


def _shown(row: dict, value: float) -> str:
    return f"{100 * value:.1f}%" if row["unit"] == "%" else f"{value:.2f}"


def _interval(row: dict, pair) -> str:
    return f"{_shown(row, pair[0])}-{_shown(row, pair[1])}"


def _difference(row: dict) -> str:
    low, high = row["difference_ci95"]
    scale = 100 if row["unit"] == "%" else 1
    unit = " pts" if row["unit"] == "%" else ""
    return f"{scale * low:+.2f} to {scale * high:+.2f}{unit}"


def _tolerance(row: dict) -> str:
    return f"+/-{100 * row['tolerance']:.0f} pts" if row["unit"] == "%" else f"+/-{row['tolerance']:.2f}"


def profile_table(report: dict) -> list[str]:
    source, edition = report["source"]["name"], report["edition"]["name"]
    lines = [f"| figure | {source} (95% CI) | {edition} (95% CI) | difference (95% CI) | tolerance | verdict |",
             "| --- | --- | --- | --- | --- | --- |"]
    for row in report["profile"]:
        lines.append(f"| {row['label']} | {_shown(row, row['source'])} ({_interval(row, row['source_ci95'])}) | "
                     f"{_shown(row, row['edition'])} ({_interval(row, row['edition_ci95'])}) | {_difference(row)} | "
                     f"{_tolerance(row)} | {row['verdict']} |")
    return lines


def readme(report: dict, game, out: Path) -> str:
    deck = report["deck"]
    edition, source = report["edition"], report["source"]
    letters = [card for card in deck["cards"] if card.get("points") is not None]
    digraphs = [card["letter"] for card in letters if len(card["letter"]) > 1]
    lines = [f"# {edition['name']}", "",
             f"The {edition['language_name']} edition of {source['name']} (`{source['game']}`): the same rules, engine, "
             f"components, templates and backs, with the letter cards{' and the letter dice' if deck['dice'] else ''} "
             f"redesigned for the shipped {edition['language_name']} word list"
             + (f" up to SCOWL {report['vocabulary']} (`--vocabulary`)" if report.get("vocabulary") else "") + " by",
             "", "```sh",
             report["command"], "```", "",
             f"Each deck was judged on the same {report['samples']:,} seeded hands of {report['hand']} cards "
             "(docs/editions.md). A figure is *matched* when the 95% interval of the difference lies inside the "
             "tolerance, *not matched* when wholly outside it, else *undecided*.", "",
             f"## Profile against {source['name']}", "", *profile_table(report), "",
             "## Choices", "",
             f"- **Accents**: {edition['accents']} (the shipped list's policy: generator/model/languages.py).",
             f"- **Letters**: {len(letters)} card faces: "
             f"{', '.join(card['letter'] for card in sorted(letters, key=lambda c: c['letter']))}"
             + (f"; left out as too rare (under 0.01% of the list's letters): {', '.join(deck['left_out'])}"
                if deck['left_out'] else "")
             + (f"; digraph cards: {', '.join(digraphs)}" if digraphs else "; no digraph cards") + ".",
             _digraph_line(report),
             f"- **Counts**: each letter's share of the list's letters raised to the power {deck['spread']:.3g} and "
             f"scaled to the source's {sum(c['count'] for c in letters)} cards, at least one each (a power of 1 follows "
             "the list; above 1 gives the common letters more cards, so hands make words more easily; below 1 "
             "spreads cards over the rare letters). The power is the search's: the one whose profile came nearest.",
             f"- **Points**: the letter analysis's suggested points for the list, from {min(c['points'] for c in letters)} "
             f"to {deck['highest_points']} (the source prints up to {deck['source_highest_points']}), so the order "
             "of the points is the suggested order" + _low_end_words(deck) + ".",
             ]
    if deck["dice"]:
        mapping = "; ".join(f"{' '.join(old)} -> {' '.join(new)}" for old, new in zip(deck["source_dice"], deck["dice"],
                                                                                      strict=False))
        lines.append(f"- **Dice**: each face mapped by rank, the source's commonest die letter to the list's commonest "
                     f"({mapping}).")
    lines += [f"- **Texts**: the card texts stay in {source['language_name']}; `translate.yaml` lists the "
              f"{report['translate']} strings to translate with the file and line of each.", "",
              "| card | share of the list's letters | cards | points |", "| --- | --- | --- | --- |"]
    for card in letters:
        share = deck["shares"].get(card["letter"].lower(), 0.0)
        lines.append(f"| {card['letter']} | {100 * share:.2f}% | {card['count']} | {card['points']} |")
    return "\n".join(lines) + "\n"


def _command_line(args, out: Path) -> str:
    """The command that made the edition, its options as given (the defaults left out but --samples and --seed)."""
    words = [f"spellpress edition {args.source} --language {args.language} --out {out.name}"]
    if args.name:
        words.append(f'--name "{args.name}"')
    for option, value, default in (("--vocabulary", args.vocabulary, None), ("--level", args.level, "35"),
                                   ("--dependence", args.dependence, None), ("--digraphs", args.digraphs, 3),
                                   ("--games", args.games, 400), ("--players", args.players, None)):
        if value is not None and value != default and (option != "--level" or args.dependence):
            words.append(f"{option} {value}")
    return " ".join([*words, f"--samples {args.samples} --seed {args.seed}"])


def _low_end_words(deck: dict) -> str:
    low_end = deck.get("low_end", 0.0)
    if not low_end:
        return ""
    fewer = "fewer" if low_end > 0 else "more"
    return (f"; the points' line starts {abs(low_end):g} {'above' if low_end > 0 else 'below'} the lowest points, so "
            f"{fewer} of the easiest letters print the lowest points (the game's length chose it: a consonant worth no "
            "more than a rolled vowel sends racing players to short, vowel-rich words that spend few cards)")


def _digraph_line(report: dict) -> str:
    from spellpress.edition.design import DIGRAPH_CARDS

    found = report.get("digraphs", {}).get("candidates")
    if not found:
        return ("- **Digraphs**: the source's digraph cards, each replaced by one of the list's most bound pairs "
                "(a letter almost always followed by one other)." if any(len(c["letter"]) > 1 for c in report["deck"]["cards"])
                else "- **Digraphs**: none (`--digraphs 0`, or the list has no consonant digraph to offer).")
    listed = ", ".join(f"{gram['letters']} ({100 * gram['share']:.2f}% of the list's letters)" for gram in found)
    chosen = report["digraphs"]["cards"]
    return (f"- **Digraphs**: the list's commonest consonant digraphs, {listed}: the search tried "
            f"{', '.join(map(str, DIGRAPH_CARDS))} cards on them (shared by their shares) and kept "
            f"{chosen or 'none'}{'' if chosen else ' (the deck nearest the profile has no digraph card)'}: a digraph card "
            "spells several letters of a word for one card, so a word spends fewer cards and the game lasts longer.")


def print_report(report: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table("figure", report["source"]["name"], report["edition"]["name"], "difference (95% CI)", "verdict",
                  title=f"{report['edition']['name']}: profile against {report['source']['name']}")
    for row in report["profile"]:
        table.add_row(row["label"], _shown(row, row["source"]), _shown(row, row["edition"]), _difference(row), row["verdict"])
    Console().print(table)

