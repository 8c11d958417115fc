"""OUT/<game>/<game>-tune.pdf: the targets over the trials, the trade-off front, before and after."""

from __future__ import annotations

from spellpress.tune.options import variant_of
from spellpress.tune.space import label

GREY = "#9a9a9a"


def pareto_front(points: list[tuple[float, float]]) -> list[int]:
    """Indices of the points no other point beats on both coordinates (both minimised), by the first."""
    order = sorted(range(len(points)), key=lambda i: (points[i][0], points[i][1]))
    front, best_second = [], float("inf")
    for i in order:
        if points[i][1] < best_second:
            front.append(i)
            best_second = points[i][1]
    return front


def _scatter(doc, points: list[tuple[float, float, str]], *, caption: str, x_label: str, y_label: str,
             reference: float | None = None, line: list[tuple[float, float]] | None = None, height_mm: float = 60) -> None:
    """Dots (x, y, colour), an optional step line through `line`, a dashed horizontal `reference`."""
    from reportlab.graphics.shapes import Circle, Drawing, Line, PolyLine, String
    from reportlab.lib import colors
    from reportlab.lib.units import mm

    from spellpress.write.report_document import ACCENT, BODY, INK

    width = 170 * mm
    drawing = Drawing(width, height_mm * mm)
    left, bottom = 14 * mm, 12 * mm
    plot_w, plot_h = width - left - 4 * mm, (height_mm - 18) * mm
    xs = [p[0] for p in points] or [0, 1]
    ys = [p[1] for p in points] + ([reference] if reference is not None else []) or [0, 1]
    x0, x1 = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1
    y0, y1 = 0.0, max(ys) * 1.08 if max(ys) > 0 else 1.0

    def at(x: float, y: float) -> tuple[float, float]:
        return left + (x - x0) / (x1 - x0) * plot_w, bottom + (min(y, y1) - y0) / (y1 - y0) * plot_h

    drawing.add(Line(left, bottom, left + plot_w, bottom, strokeColor=INK, strokeWidth=0.6))
    drawing.add(Line(left, bottom, left, bottom + plot_h, strokeColor=INK, strokeWidth=0.6))
    for value in (y0, (y0 + y1) / 2, y1):
        _, y = at(x0, value)
        drawing.add(String(left - 2, y - 2, f"{value:.2g}", fontName=BODY, fontSize=7, textAnchor="end", fillColor=INK))
    for value in (x0, (x0 + x1) / 2, x1):
        x, _ = at(value, y0)
        drawing.add(String(x, bottom - 8, f"{value:.3g}", fontName=BODY, fontSize=7, textAnchor="middle", fillColor=INK))
    if reference is not None:
        _, y = at(x0, reference)
        drawing.add(Line(left, y, left + plot_w, y, strokeColor=colors.HexColor("#b33"), strokeWidth=0.8, strokeDashArray=[3, 2]))
    for x, y, colour in points:
        cx, cy = at(x, y)
        drawing.add(Circle(cx, cy, 1.6, fillColor=colors.HexColor(colour), strokeColor=None))
    if line and len(line) > 1:
        coordinates: list[float] = []
        for x, y in line:
            coordinates.extend(at(x, y))
        drawing.add(PolyLine(coordinates, strokeColor=ACCENT, strokeWidth=0.9))
    drawing.add(String(left, 1.5 * mm, f"{caption} (x: {x_label}; y: {y_label})", fontName=BODY, fontSize=8, fillColor=INK))
    doc.story.append(drawing)


def _best_so_far(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    line: list[tuple[float, float]] = []
    best = float("inf")
    for x, y in sorted(points):
        if y < best:
            if line:
                line.append((x, line[-1][1]))
            line.append((x, y))
            best = y
    if line:
        line.append((max(x for x, _ in points), best))
    return line


def tune_pdf(report: dict) -> bytes:
    from spellpress.write.report_document import Report

    doc = Report(f"{report['name']}: tune")
    spent = report["spent"]
    doc.text((f"{report['players']} players, " if report["rungs"] else "")
             + f"seed {report['seed']}. Varied: {'; '.join(report['vary'])}"
             + (f" (at most {report['max_changes']} cards changed)" if report["max_changes"] else "")
             + f". Targets: {'; '.join(report['targets'])}. {sum(spent['trials'].values())} trials "
             f"({', '.join(f'{n} {s}' for s, n in spent['trials'].items())}), {spent['games']:,} games in the search; "
             f"rungs of {', '.join(map(str, report['rungs'])) or 'no'} games. Distances: 0 on the aim, 1 on the edge of "
             "the band (dashed), more outside.")
    played = [row for row in report["history"] if not row["infeasible"] and row["distances"]]
    doc.heading("The targets over the trials")
    for name in (played[0]["distances"] if played else {}):
        points = [(row["index"], row["distances"][name], "#3f6fb5" if row["state"] == "complete" else GREY) for row in played]
        complete = [(row["index"], row["distances"][name]) for row in played if row["state"] == "complete"]
        _scatter(doc, points, caption=f"{name}: blue played every rung, grey stopped early; line: best so far",
                 x_label="trial", y_label="distance", reference=1.0, line=_best_so_far(complete))
    doc.heading("Trade-off front")
    finished = [row for row in played if row["state"] == "complete" and row["value"] is not None]
    names = list(played[0]["distances"]) if played else []
    if len(names) >= 2:
        coordinates = [(row["distances"][names[0]], row["distances"][names[1]]) for row in finished]
        x_label, y_label = f"{names[0]} distance", f"{names[1]} distance"
    else:
        coordinates = [(len(row["variant"]), row["value"]) for row in finished]
        x_label, y_label = "values changed", "search score"
    front = set(pareto_front(coordinates))
    _scatter(doc, [(x, y, "#bb3333" if i in front else GREY) for i, (x, y) in enumerate(coordinates)],
             caption="red: the front (nothing better on both)", x_label=x_label, y_label=y_label,
             line=[coordinates[i] for i in sorted(front, key=lambda i: coordinates[i])])
    if report["baseline"]:
        _before_after(doc, report)
    return doc.pdf()


def _wrapped_table(doc, header: list[str], rows: list[list[str]], widths: list[float]) -> None:
    """A table whose cells wrap (a proposal may change thirty values)."""
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

    from spellpress.write.report_document import BOLD, INK

    cell = doc.styles["cell"]
    data = [[Paragraph(f"<font name='{BOLD}'>{text}</font>", cell) for text in header]]
    data += [[Paragraph(str(text), cell) for text in row] for row in rows]
    table = Table(data, colWidths=[w * mm for w in widths], repeatRows=1)
    table.setStyle(TableStyle([("LINEBELOW", (0, 0), (-1, 0), 0.6, INK), ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    doc.story.append(table)
    doc.story.append(Spacer(1, 3 * mm))


def _before_after(doc, report: dict) -> None:
    rows = [("as is", report["baseline"])] + [(f"#{row['rank']}", row["verified"]) for row in report["proposals"]]
    fresh = f"{report['verify_games']:,} fresh games each" if report["verify_games"] else "fresh letter samples"
    doc.heading(f"Before and after: {fresh}")
    _wrapped_table(doc, ["#", "changes", "verdict"], [[name, label(variant_of(row["variant"]), report.get("card_names")),
                                                       row["verdict"]]
                                                      for name, row in rows], widths=[12, 128, 30])
    others = [row.get("other", {}) for _, row in rows]
    if others[0]:
        doc.text("Other figures the verification measured, on the same fresh games (change against the game as it is):")
        _wrapped_table(doc, ["figure", *(name for name, _ in rows)],
                       [[name, f"{before:.4g}",
                         *(f"{o[name]:.4g} ({o[name] - before:+.3g})" if name in o else "-" for o in others[1:])]
                        for name, before in others[0].items()],
                       widths=[50, *([120 / len(rows)] * len(rows))])
    figures = [row["figures"] for _, row in rows]
    if figures[0].get("seats"):
        side = "team" if figures[0]["judged_by"] == "teams" else "seat"
        for s, seat in enumerate(figures[0]["seats"]):
            values = [f["seats"][s]["win_rate"] for f in figures]
            doc.bars([name for name, _ in rows], [values], reference=seat["fair_share"], percent=True,
                     errors=[tuple(f["seats"][s]["ci95"]) for f in figures], value_max=min(1.0, max(values) * 1.4 + 0.05),
                     height_mm=42, caption=f"{side} {s + 1}: win rate with 95% CI; dashed: fair share")
    cards = figures[0].get("cards") or {}
    if cards:
        worst = sorted(cards, key=lambda k: -abs(cards[k]["difference"]))[:12]
        after = figures[1].get("cards", {}) if len(figures) > 1 else {}
        series = [[abs(cards[k]["difference"]) for k in worst], [abs(after.get(k,
                                                                               {"difference": 0})["difference"]) for k in worst]]
        limit = report.get("card_limit_points")
        doc.bars([k.split(":")[-1][:9] for k in worst], series, percent=True, height_mm=55,
                 reference=limit / 100 if limit else None,
                 caption="cards with the largest effect before: |win-rate difference| as is (blue) and in proposal #1 (gold)"
                 + ("; dashed: the target" if limit else ""))
    for target in ("length", "word_rate", "going_out", "points_rank"):
        if target in figures[0]:
            entry = figures[0][target]
            key = "mean" if target == "length" else "p"
            doc.bars([name for name, _ in rows], [[f[target][key] for f in figures]],
                     errors=[tuple(f[target]["ci95"]) for f in figures], height_mm=40, percent=target in ("word_rate",
                                                                                                          "going_out"),
                     caption=f"{target.replace('_', ' ')}" + (f" ({report['length_unit']})" if target == "length" else "")
                     + " with 95% CI" + (f", hand of {entry['hand']}" if "hand" in entry else ""))
