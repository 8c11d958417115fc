"""The balance report as a PDF: one section per player count."""

from __future__ import annotations

from spellpress.model.vocabulary import known_words_note
from spellpress.simulate.metrics import difference_text, effect_size
from spellpress.simulate.vocabulary_dependence import dependence_text
from spellpress.wording import plural
from spellpress.write.report_document import Report


def balance_pdf(name: str, reports: list[dict]) -> bytes:
    doc = Report(f"{name}: balance report")
    for report in reports:
        players = report["players"]
        doc.heading(f"{players} players · {report['games']} games · seed {report['seed']}")
        verdict = report["verdict"]
        doc.text(f"Verdict: <b>{verdict}</b> after {report['games']:,} games ({report['games_rule']}): "
                 f"{report['verdict_reason']}. {known_words_note(report.get('vocabulary'))}")
        if not report.get("teams"):
            doc.text(f"Worst seat {report['max_seat_deviation_points']:.1f} points from its fair "
                     f"share of {100 / players:.0f}%; {plural(report['stalls'], 'stalled game')}.")
        else:
            doc.text(f"Judged per team; {plural(report['stalls'], 'stalled game')}.")
        if report.get("teams"):
            teams = report["teams"]
            doc.text("Seats that win together are judged as teams: each team's fair share is "
                     f"{100 / len(teams):.0f}%, worst team {report['max_seat_deviation_points']:.1f} points off.")
            doc.bars([f"team {row['team']} (seats {', '.join(map(str, row['seats']))})" for row in teams],
                     [[row["win_rate"] for row in teams]], reference=1 / len(teams),
                     errors=[tuple(row["ci95"]) for row in teams], percent=True, value_max=1.0,
                     band=report["band_points"] / 100,
                     caption="Win rate per team with 95% confidence interval; dashed: fair share; dotted: the verdict's band")
        seats = report["seats"]
        doc.bars([f"seat {row['seat']}" for row in seats], [[row["win_rate"] for row in seats]],
                 reference=1 / players, errors=[tuple(row["ci95"]) for row in seats], percent=True,
                 value_max=min(1.0, max(row["ci95"][1] for row in seats) * 1.3), band=report["band_points"] / 100,
                 caption="Win rate per seat with 95% confidence interval; dashed: fair share; dotted: the verdict's band")
        length = report["length"]
        histogram = length.get("histogram", {})
        if histogram:
            keys = sorted(int(k) for k in histogram)
            labels = [str(k) if (k - keys[0]) % max(1, len(keys) // 12) == 0 else "" for k in keys]
            doc.bars(labels, [[histogram[k] if k in histogram else histogram[str(k)] for k in keys]],
                     caption=f"Game length in {report['length_unit']}: mean {length['mean']:.1f}, "
                             f"10-90% {length['p10']}-{length['p90']}; about {report['minutes_mean']} minutes")
        components = sorted(report["components"], key=effect_size)[:25]
        if components:
            doc.text("Each difference carries its 95% interval; a card is called strong or weak only when its "
                     "interval for all the cards together (the 5% shared over them) excludes zero, the rest are "
                     "noise at this many games.")
            doc.table(["played", "play rate", "win rate when played", "when not", "difference (95% interval)"],
                      [[r["key"], f"{100 * r['play_rate']:.1f}%", f"{100 * r['win_rate_played']:.1f}%",
                        f"{100 * r['win_rate_not_played']:.1f}%", difference_text(r)] for r in components],
                      widths=[45, 20, 30, 20, 55])
        if report.get("game_metrics"):
            from spellpress.simulate.game_metrics import rows

            doc.table(["how the games unfold (docs/simulate.md)", "value"], [list(r) for r in rows(report["game_metrics"])],
                      widths=[90, 30])
        if report["figures"]:
            doc.table(["figure (per game)", "mean"], [[k, f"{v:.2f}"] for k, v in report["figures"].items()], widths=[90, 30])
        if "vocabulary_dependence" in report:
            doc.text(dependence_text(report["vocabulary_dependence"]))
        if "luck" in report:
            luck = report["luck"]
            doc.text(f"Luck: the better player won {100 * luck['better_player_win_rate']:.1f}% of {luck['games']} games "
                     f"({luck['lineup']}); a fair share is {100 * luck['fair_share']:.0f}%.")
    return doc.pdf()
