"""The letter analysis of one game, as a dictionary (JSON), terminal tables and a PDF."""

from __future__ import annotations

from pathlib import Path

from generator.analysis.english import difficulty, distribution, jensen_shannon_bits, spearman, suggest_points, total_variation
from generator.analysis.mix import read_mix
from generator.analysis.playability import HandRules, playability
from generator.errors import Location, UserError
from generator.model.deck import Game
from generator.progress import LazyProgress
from generator.words.finder import for_words

def analyse(game: Game, hand: int | None = None, samples: int = 4000, seed: int = 1, hand_location: Location | None = None) -> dict:
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
        raise UserError.at(Location(Path("--samples")), "must be at least 1")
    lexicon, finder = for_words(game.spec.words)
    rules = HandRules(size, words.min_length, words.wilds, float(game.spec.rules.get("vowel_points", 0)))

    counts = mix.letter_counts()
    letters = "".join(sorted(counts))
    english_all = lexicon.letter_frequency()
    deck_share = distribution(counts, letters)
    english_share = distribution(english_all, letters)
    frequency = [
        {"letter": k.upper(), "count": counts[k], "share": deck_share[k], "english_share": english_share[k],
         "difference": deck_share[k] - english_share[k]}
        for k in letters
    ]

    with LazyProgress(f"{game.id}: dealing hands", samples) as bar:
        result = playability(mix, rules, finder, samples=samples, seed=seed, progress=bar.advance)
    play = result.summary(max_length=size + 4, min_length=words.min_length)

    printed = {k: v for k, v in mix.points().items() if len(k) == 1}
    measured = difficulty(lexicon.words, letters, size)
    if printed:
        low, high = min(printed.values()), max(printed.values())
    else:
        low, high = 1, 10
    suggested = suggest_points({k: v["difficulty"] for k, v in measured.items()}, low, high)
    points = [
        {"letter": k.upper(), "printed": printed.get(k), "suggested": suggested[k], **{m: round(v, 4) for m, v in measured[k].items()}}
        for k in letters
    ]
    return {
        "game": game.id,
        "name": game.name,
        "hand": size,
        "seed": seed,
        "deck": {"cards": mix.deck_size, "wild_cards": mix.wild_cards, "extra_wilds_per_hand": words.wilds,
                 "dice": [list(faces) for faces in mix.dice], "min_length": words.min_length},
        "frequency": frequency,
        "divergence": {"jensen_shannon_bits": jensen_shannon_bits(deck_share, english_share),
                       "total_variation": total_variation(deck_share, english_share),
                       "compared_over": letters.upper()},
        "playability": play,
        "points": points,
        "rank_correlation_printed_suggested": spearman(printed, suggested) if printed else None,
    }


def print_report(report: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    deck = report["deck"]
    console.print(f"[bold]{report['name']}[/bold]: {deck['cards']} letter cards, hand of {report['hand']}"
                  + (f", dice {' / '.join(''.join(f[0].upper() if f != 'wild' else '*' for f in d) for d in deck['dice'])}" if deck["dice"] else ""))
    play = report["playability"]

    def show(entry):
        text = f"{100 * entry['p']:.1f}%"
        if "ci95" in entry:
            text += f" ({100 * entry['ci95'][0]:.1f}-{100 * entry['ci95'][1]:.1f}%)"
        return text

    console.print(f"A hand can make a word: {show(play['word'])}   [{play['method']}, {play['hands']} hands]")
    console.print(f"A word can use every card of the hand: {show(play['all_cards'])}")
    lengths = Table("length", "probability", title="A word of each length")
    for length, entry in play["by_length"].items():
        lengths.add_row(length, show(entry))
    console.print(lengths)
    best = play["expected_best_score"]
    console.print(f"Expected best score: {best['mean']:.2f}" + (f" ({best['ci95'][0]:.2f}-{best['ci95'][1]:.2f})" if "ci95" in best else ""))
    dead = Table("card", "left unusable", title="Letters that clog hands (most often dead first)")
    for row in play["dead_letters"][:8]:
        dead.add_row(row["letters"].upper(), f"{100 * row['dead_rate']:.1f}%")
    console.print(dead)
    divergence = report["divergence"]
    console.print(f"Distance from English (over {divergence['compared_over']}): Jensen-Shannon "
                  f"{divergence['jensen_shannon_bits']:.4f} bits, total variation {divergence['total_variation']:.3f}")
    table = Table("letter", "count", "share", "English", "printed pts", "suggested pts", title="Letters and points")
    for freq, pts in zip(report["frequency"], report["points"]):
        table.add_row(freq["letter"], str(freq["count"]), f"{100 * freq['share']:.1f}%", f"{100 * freq['english_share']:.1f}%",
                      "" if pts["printed"] is None else f"{pts['printed']:g}", str(pts["suggested"]))
    console.print(table)
    rho = report["rank_correlation_printed_suggested"]
    if rho is not None:
        console.print(f"Rank correlation, printed against suggested points: {rho:.2f}")


def letters_pdf(report: dict) -> bytes:
    from generator.write.report import Report

    doc = Report(f"{report['name']}: letter analysis")
    play = report["playability"]
    word = play["word"]
    doc.text(f"Hand of {report['hand']} from {report['deck']['cards']} letter cards. A hand can make a word "
             f"{100 * word['p']:.1f}% of the time ({play['method']}, {play['hands']} hands, seed {report['seed']}). "
             f"Expected best score {play['expected_best_score']['mean']:.2f}.")
    freq = report["frequency"]
    doc.heading("Letter mix against English (dictionary frequency)")
    doc.bars([row["letter"] for row in freq], [[row["share"] for row in freq], [row["english_share"] for row in freq]],
             percent=True, caption="Blue: this game's share of each letter; gold: English (lexicon) over the same letters")
    divergence = report["divergence"]
    doc.text(f"Jensen-Shannon divergence {divergence['jensen_shannon_bits']:.4f} bits; total variation {divergence['total_variation']:.3f}.")
    doc.heading("Playability")
    lengths = list(play["by_length"].items())
    doc.bars([k for k, _ in lengths], [[v["p"] for _, v in lengths]], percent=True, value_max=1.0,
             errors=[tuple(v["ci95"]) for _, v in lengths] if lengths and "ci95" in lengths[0][1] else None,
             caption="Probability that a hand can make a word of each length")
    dead = play["dead_letters"]
    doc.bars([row["letters"].upper() for row in dead], [[row["dead_rate"] for row in dead]], percent=True, value_max=1.0,
             caption="How often a dealt letter cannot be used in any word (dead letters)")
    doc.heading("Points")
    rows = [[p["letter"], "" if p["printed"] is None else f"{p['printed']:g}", p["suggested"], f"{p['rarity']:.2f}",
             f"{p['short_rarity']:.2f}", f"{p['constraint']:.3f}"] for p in report["points"]]
    doc.table(["letter", "printed", "suggested", "rarity", "short-word rarity", "constraint"], rows, widths=[20, 22, 25, 25, 35, 25])
    rho = report["rank_correlation_printed_suggested"]
    if rho is not None:
        doc.text(f"Rank correlation between printed and suggested points: {rho:.2f}.")
    return doc.pdf()
