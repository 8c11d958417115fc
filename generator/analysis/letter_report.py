"""The letter analysis of one game, as a dictionary (JSON), terminal tables and a PDF."""

from __future__ import annotations

from spellpress.analysis.english import difficulty, distribution, jensen_shannon_bits, spearman, suggest_points, total_variation
from spellpress.analysis.mix import WILD_FACE, face_kind, read_mix
from spellpress.analysis.playability import HandRules, judge_for, playability
from spellpress.errors import Option, UserError, Where
from spellpress.model.game import Game
from spellpress.model.vocabulary import known_words_note
from spellpress.progress import LazyProgress
from spellpress.words.finder import for_words

SPLIT_NOTE = ("digraph cards are split into their letters here (a QU card counts one Q and one U); "
              "wild cards are no letter and are left out")


def face_label(face: str) -> str:
    return "wild" if face == WILD_FACE else face.upper()


def analyse(game: Game, hand: int | None = None, samples: int = 4000, seed: int = 1, hand_location: Where | None = None,
            suggest_total: int | None = None) -> dict:
    mix = read_mix(game)
    if not mix.cards and not mix.dice:
        raise UserError.at(game.location, "no letter-bearing components (cards with a 'letter' field, or dice with 'faces')")
    words = game.spec.words
    size = hand or words.hand or 7
    where = hand_location or game.location
    if size < 1:
        raise UserError.at(where, "the hand must hold at least one card")
    if size > mix.deck_size:
        raise UserError.at(where, f"a hand of {size} is larger than the deck of {mix.deck_size} letter cards")
    if samples < 1:
        raise UserError.at(Option("--samples"), "must be at least 1")
    faces = mix.face_counts()
    if suggest_total is not None and suggest_total < len(faces):
        raise UserError.at(Option("--suggest-counts"),
                           f"{suggest_total} cards cannot keep one of each of the deck's {len(faces)} card faces")
    lexicon, finder = for_words(game.spec.words)
    rules = HandRules(size, words.min_length, words.wilds, float(game.spec.rules.get("vowel_points", 0)))
    judge = judge_for(mix, rules, finder)

    counts = mix.letter_counts()
    letters = "".join(sorted(counts))
    language = lexicon.letter_frequency()
    deck_share = distribution(counts, letters)
    language_share = distribution(language, letters)
    frequency = [
        {"letter": k.upper(), "count": counts[k], "share": deck_share[k], "language_share": language_share[k],
         "difference": deck_share[k] - language_share[k]}
        for k in letters
    ]

    with LazyProgress(f"{game.id}: dealing hands", samples, lines=True) as bar:
        result = playability(mix, rules, finder, samples=samples, seed=seed, progress=bar, judge=judge)
    play = result.summary(max_length=size + 4, min_length=words.min_length)
    going_out = []
    for n in range(min(words.min_length, size), size + 1):
        if n == size:
            by_size = result
        else:
            with LazyProgress(f"{game.id}: going out with {n} cards", samples, lines=True) as bar:
                by_size = playability(mix, HandRules(n, *rules_tail(rules)), finder, samples=samples, seed=seed,
                                      progress=bar, judge=judge)
        going_out.append({"hand": n, "method": by_size.method, "hands": by_size.hands,
                          **by_size.probability(by_size.tally.going_out)})

    units = tuple(face for face in faces if face != WILD_FACE and len(face) > 1)
    printed_all = mix.points()
    printed = {k: v for k, v in printed_all.items() if len(k) == 1}
    measured = difficulty(lexicon.words, letters, size, units)
    low, high = (min(printed.values()), max(printed.values())) if printed else (1, 10)
    letter_difficulty = {k: measured[k]["difficulty"] for k in letters}
    suggested = suggest_points({k: v["difficulty"] for k, v in measured.items()}, low, high, scale=letter_difficulty)
    cards = []
    for face in sorted(faces, key=lambda f: (f == WILD_FACE, f)):
        row = {"card": face_label(face), "kind": face_kind(face), "count": faces[face],
               "printed": printed_all.get(face), "suggested": suggested.get(face),
               "dead_rate": play["dead_rates"].get(face)}
        row.update({m: round(v, 4) for m, v in measured.get(face, {}).items()})
        cards.append(row)
    del play["dead_rates"]
    report = {
        "game": game.id,
        "name": game.name,
        "hand": size,
        "seed": seed,
        "language": words.language,  # letter shares are compared with this language's word list
        "vocabulary": words.vocabulary,  # --vocabulary: the SCOWL level of the words known, None: every word
        "deck": {"cards": mix.deck_size, "wild_cards": mix.wild_cards, "extra_wilds_per_hand": words.wilds,
                 "dice": [list(faces) for faces in mix.dice], "min_length": words.min_length},
        "cards": cards,
        "frequency": frequency,
        "frequency_note": SPLIT_NOTE,
        "divergence": {"jensen_shannon_bits": jensen_shannon_bits(deck_share, language_share),
                       "total_variation": total_variation(deck_share, language_share),
                       "compared_over": letters.upper()},
        "playability": play,
        "going_out_by_hand": going_out,
        "rank_correlation_printed_suggested": spearman({k: v for k, v in printed_all.items()}, suggested)
        if printed else None,
    }
    if suggest_total is not None:
        from spellpress.analysis.suggestion import suggestion

        report["suggested_counts"] = suggestion(game, mix, rules, finder, language, suggest_total,
                                                samples=samples, seed=seed, judge=judge)
    return report


def rules_tail(rules: HandRules) -> tuple:
    return rules.min_length, rules.extra_wilds, rules.die_points


def percent(entry: dict) -> str:
    text = f"{100 * entry['p']:.1f}%"
    if "ci95" in entry:
        text += f" ({100 * entry['ci95'][0]:.1f}-{100 * entry['ci95'][1]:.1f}%)"
    return text


def print_report(report: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    deck = report["deck"]
    dice = " / ".join("".join(face[0].upper() if face != "wild" else "*" for face in die) for die in deck["dice"])
    console.print(f"[bold]{report['name']}[/bold]: {deck['cards']} letter cards, hand of {report['hand']}"
                  + (f", dice {dice}" if deck["dice"] else ""))
    console.print(known_words_note(report.get("vocabulary")))
    play = report["playability"]
    console.print(f"A hand can make a word: {percent(play['word'])}   [{play['method']}, {play['hands']} hands]")
    console.print(f"A word can use every card of the hand: {percent(play['all_cards'])}")
    console.print(f"The hand can go out (split into words, every card used): {percent(play['going_out'])}")
    lengths = Table("length", "probability", title="A word of each length")
    for length, entry in play["by_length"].items():
        lengths.add_row(length, percent(entry))
    console.print(lengths)
    going = Table("hand", "going out", "method", title=f"Going out by hand size (words of {deck['min_length']}+ letters)")
    for row in report["going_out_by_hand"]:
        going.add_row(str(row["hand"]), percent(row), f"{row['method']}, {row['hands']}")
    console.print(going)
    best = play["expected_best_score"]
    interval = f" ({best['ci95'][0]:.2f}-{best['ci95'][1]:.2f})" if "ci95" in best else ""
    console.print(f"Expected best score: {best['mean']:.2f}{interval}")
    divergence = report["divergence"]
    console.print(f"Distance from the language (over {divergence['compared_over']}): Jensen-Shannon "
                  f"{divergence['jensen_shannon_bits']:.4f} bits, total variation {divergence['total_variation']:.3f}")
    console.print(f"[dim]Letter shares: {report['frequency_note']}.[/dim]")
    letters = Table("letter", "count", "share", "language", title="Letters against the language")
    for freq in report["frequency"]:
        letters.add_row(freq["letter"], str(freq["count"]), f"{100 * freq['share']:.1f}%", f"{100 * freq['language_share']:.1f}%")
    console.print(letters)
    cards = Table("card", "kind", "count", "printed pts", "suggested pts", "dead", title="Cards (one row per face)")
    for row in report["cards"]:
        cards.add_row(row["card"], row["kind"], str(row["count"]), _number(row["printed"]), _number(row["suggested"]),
                      "" if row["dead_rate"] is None else f"{100 * row['dead_rate']:.1f}%")
    console.print(cards)
    rho = report["rank_correlation_printed_suggested"]
    if rho is not None:
        console.print(f"Rank correlation, printed against suggested points: {rho:.2f}")
    if "suggested_counts" in report:
        from spellpress.analysis.suggestion import print_suggestion

        print_suggestion(console, report["suggested_counts"])


def _number(value) -> str:
    return "" if value is None else f"{value:g}"


def letters_pdf(report: dict) -> bytes:
    from spellpress.write.report_document import Report

    doc = Report(f"{report['name']}: letter analysis")
    play = report["playability"]
    word = play["word"]
    doc.text(f"Hand of {report['hand']} from {report['deck']['cards']} letter cards. A hand can make a word "
             f"{100 * word['p']:.1f}% of the time and go out (every card in a word) {100 * play['going_out']['p']:.1f}% "
             f"({play['method']}, {play['hands']} hands, seed {report['seed']}). "
             f"Expected best score {play['expected_best_score']['mean']:.2f}. {known_words_note(report.get('vocabulary'))} "
             "Every figure is defined in docs/letters.md (`spellpress docs letters`).")
    freq = report["frequency"]
    doc.heading("Letter mix against the language (dictionary frequency)")
    doc.bars([row["letter"] for row in freq], [[row["share"] for row in freq], [row["language_share"] for row in freq]],
             percent=True, caption="Blue: this game's share of each letter; gold: the lexicon's, over the same letters")
    divergence = report["divergence"]
    doc.text(f"Jensen-Shannon divergence {divergence['jensen_shannon_bits']:.4f} bits; total variation "
             f"{divergence['total_variation']:.3f}. Note: {report['frequency_note']}.")
    doc.heading("Playability")
    lengths = list(play["by_length"].items())
    doc.bars([k for k, _ in lengths], [[v["p"] for _, v in lengths]], percent=True, value_max=1.0,
             errors=[tuple(v["ci95"]) for _, v in lengths] if lengths and "ci95" in lengths[0][1] else None,
             caption="Probability that a hand can make a word of each length")
    going = report["going_out_by_hand"]
    doc.bars([str(row["hand"]) for row in going], [[row["p"] for row in going]], percent=True, value_max=1.0,
             errors=[tuple(row.get("ci95", (row["p"], row["p"]))) for row in going],
             caption=f"Going out: a hand of each size splits into words of {report['deck']['min_length']}+ letters, "
                     "every card used")
    doc.table(["hand", "going out", "95% interval", "method", "hands"],
              [[row["hand"], f"{100 * row['p']:.1f}%",
                f"{100 * row['ci95'][0]:.1f}-{100 * row['ci95'][1]:.1f}%" if "ci95" in row else "exact",
                row["method"], row["hands"]] for row in going], widths=[18, 25, 30, 25, 25])
    dead = sorted((row for row in report["cards"] if row["dead_rate"] is not None), key=lambda row: -row["dead_rate"])
    doc.bars([row["card"] for row in dead], [[row["dead_rate"] for row in dead]], percent=True, value_max=1.0,
             caption="Dead rate: how often a dealt card cannot be used in any word the hand makes")
    doc.heading("Cards and points (one row per card face)")
    rows = [[row["card"], row["kind"], row["count"], _number(row["printed"]), _number(row["suggested"]),
             "" if row["dead_rate"] is None else f"{100 * row['dead_rate']:.1f}%",
             f"{row['rarity']:.2f}" if "rarity" in row else "", f"{row['short_rarity']:.2f}" if "short_rarity" in row else "",
             f"{row['constraint']:.3f}" if "constraint" in row else ""] for row in report["cards"]]
    doc.table(["card", "kind", "count", "printed", "suggested", "dead", "rarity", "short rarity", "constraint"], rows,
              widths=[14, 18, 14, 17, 20, 16, 17, 22, 22])
    rho = report["rank_correlation_printed_suggested"]
    if rho is not None:
        doc.text(f"Rank correlation between printed and suggested points: {rho:.2f}.")
    if "suggested_counts" in report:
        from spellpress.analysis.suggestion import suggestion_pdf

        suggestion_pdf(doc, report["suggested_counts"])
    return doc.pdf()
