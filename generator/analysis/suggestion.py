"""`--suggest-counts N`: the proposed deck and its figures beside the game's own."""

from __future__ import annotations

import time

from spellpress.analysis.counts import MAX_MOVES, MAX_TRIED, letter_distance, playability_score, suggest_counts
from spellpress.analysis.mix import WILD_FACE, face_kind, split_letters
from spellpress.analysis.playability import Playability, playability
from spellpress.progress import LazyProgress

FIGURES = (("jensen_shannon_bits", "Jensen-Shannon distance (bits)", "{:.4f}"),
           ("word", "a hand makes a word", "{:.1%}"),
           ("going_out", "a hand goes out", "{:.1%}"),
           ("expected_best_score", "expected best score", "{:.2f}"),
           ("dead_share", "dealt cards left dead", "{:.1%}"),
           ("playability", "playability (word + going out + usable)", "{:.3f}"))


def figures(counts: dict[str, int], result: Playability, language: dict[str, float], letters: str) -> dict:
    t = result.tally
    return {"cards": sum(counts.values()),
            "jensen_shannon_bits": letter_distance(counts, language, letters),
            "word": t.word / t.weight,
            "going_out": t.going_out / t.weight,
            "expected_best_score": t.best_total / t.weight,
            "dead_share": sum(t.dead.values()) / sum(t.dealt.values()),
            "playability": playability_score(result)}


def suggestion(game, mix, rules, finder, language: dict[str, float], total: int, *, samples: int, seed: int, judge) -> dict:
    started = time.monotonic()
    faces = mix.face_counts()
    letters = "".join(sorted(split_letters(faces)))
    own = playability(mix, rules, finder, samples=samples, seed=seed, judge=judge)
    with LazyProgress(f"{game.id}: suggesting counts", 1 + MAX_MOVES * MAX_TRIED) as bar:
        _, proposal = suggest_counts(mix, rules, finder, language, total, samples=samples, seed=seed, judge=judge,
                                     progress=bar)
    method = own.method
    before = figures(dict(faces), own, language, letters)
    after = figures(proposal.counts, proposal.result, language, letters)
    return {
        "cards": total,
        "method": method,
        "hands": own.hands,
        "seconds": round(time.monotonic() - started, 1),
        "counts": [{"card": "wild" if face == WILD_FACE else face.upper(), "kind": face_kind(face),
                    "before": faces[face], "after": proposal.counts[face]}
                   for face in sorted(faces, key=lambda f: (f == WILD_FACE, f))],
        "before": before,
        "after": after,
    }


def print_suggestion(console, suggested: dict) -> None:
    from rich.table import Table

    before, after = suggested["before"], suggested["after"]
    table = Table("figure", f"game ({before['cards']} cards)", f"suggested ({after['cards']} cards)",
                  title=f"Suggested counts for {suggested['cards']} cards: before and after "
                        f"({suggested['method']}, {suggested['hands']} hands)")
    for key, label, form in FIGURES:
        table.add_row(label, form.format(before[key]), form.format(after[key]))
    console.print(table)
    counts = Table("card", "kind", "count now", "suggested", title="Suggested counts")
    for row in suggested["counts"]:
        change = row["after"] - row["before"]
        counts.add_row(row["card"], row["kind"], str(row["before"]), f"{row['after']}" + (f" ({change:+d})" if change else ""))
    console.print(counts)


def suggestion_pdf(doc, suggested: dict) -> None:
    before, after = suggested["before"], suggested["after"]
    doc.heading(f"Suggested counts for {suggested['cards']} cards")
    doc.table(["figure", f"game ({before['cards']} cards)", f"suggested ({after['cards']} cards)"],
              [[label, form.format(before[key]), form.format(after[key])] for key, label, form in FIGURES],
              widths=[70, 40, 40])
    doc.table(["card", "kind", "count now", "suggested", "change"],
              [[row["card"], row["kind"], row["before"], row["after"],
                f"{row['after'] - row['before']:+d}" if row["after"] != row["before"] else ""]
               for row in suggested["counts"]], widths=[18, 22, 25, 25, 20])
