"""Report PDFs (letter analysis, balance): headings, text, tables and reportlab charts.

Only the project's embedded TrueType fonts are used, so no base-14 font sneaks in.
"""

from __future__ import annotations

from io import BytesIO

from reportlab import rl_config
from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.shapes import Drawing, Line, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from spellpress.layout import fonts
from spellpress.paths import SHARED_FONTS

BODY, BOLD, TITLE = "EBGaramond-Regular", "EBGaramond-Bold", "Cinzel-Bold"
INK = colors.HexColor("#22213b")
ACCENT = colors.HexColor("#3f6fb5")
MUTED = colors.HexColor("#c9b27c")


def _fonts() -> None:
    for name in (BODY, BOLD, TITLE, "EBGaramond-Italic"):
        fonts.register(name, SHARED_FONTS / f"{name}.ttf")


class Report:
    def __init__(self, title: str):
        _fonts()
        self.title = title
        self.story: list = []
        self.styles = {
            "title": ParagraphStyle("title", fontName=TITLE, fontSize=18, leading=22, textColor=INK, spaceAfter=6),
            "h2": ParagraphStyle("h2", fontName=TITLE, fontSize=12, leading=15, textColor=INK, spaceBefore=8, spaceAfter=4),
            "body": ParagraphStyle("body", fontName=BODY, fontSize=10, leading=12.5, textColor=INK),
            "cell": ParagraphStyle("cell", fontName=BODY, fontSize=8.5, leading=10, textColor=INK),
        }
        self.heading(title, "title")

    def heading(self, text: str, style: str = "h2") -> None:
        self.story.append(Paragraph(text, self.styles[style]))

    def text(self, text: str) -> None:
        self.story.append(Paragraph(text, self.styles["body"]))
        self.story.append(Spacer(1, 2 * mm))

    def table(self, header: list[str], rows: list[list], widths: list[float] | None = None) -> None:
        data = [header] + [[str(cell) for cell in row] for row in rows]
        table = Table(data, colWidths=[w * mm for w in widths] if widths else None, repeatRows=1)
        table.setStyle(TableStyle([
            ("FONT", (0, 0), (-1, 0), BOLD, 8.5),
            ("FONT", (0, 1), (-1, -1), BODY, 8.5),
            ("TEXTCOLOR", (0, 0), (-1, -1), INK),
            ("LINEBELOW", (0, 0), (-1, 0), 0.6, INK),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f3efe4")]),
            ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
            ("TOPPADDING", (0, 0), (-1, -1), 1.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ]))
        self.story.append(table)
        self.story.append(Spacer(1, 3 * mm))

    def bars(self, labels: list[str], series: list[list[float]], *, value_max: float | None = None,
             reference: float | None = None, errors: list[tuple[float, float]] | None = None,
             height_mm: float = 55, caption: str = "", percent: bool = False, band: float | None = None) -> None:
        """A bar chart; `reference` draws a horizontal line (a fair share, say), `band` two dotted
        lines that far either side of it (the verdict's band); `errors` draws CI whiskers."""
        width = 170 * mm
        drawing = Drawing(width, height_mm * mm, initialFontName=BODY, initialFontSize=8)
        chart = VerticalBarChart()
        chart.x, chart.y = 12 * mm, 10 * mm
        chart.width, chart.height = width - 16 * mm, (height_mm - 16) * mm
        chart.data = series
        chart.categoryAxis.categoryNames = labels
        for axis in (chart.categoryAxis.labels, chart.valueAxis.labels):
            axis.fontName = BODY
            axis.fontSize = 7
        top = value_max if value_max is not None else max((max(s) for s in series if s), default=1) * 1.15 or 1
        chart.valueAxis.valueMin = 0
        chart.valueAxis.valueMax = top
        if percent:
            chart.valueAxis.labelTextFormat = lambda v: f"{100 * v:.0f}%"
        chart.bars[0].fillColor = ACCENT
        if len(series) > 1:
            chart.bars[1].fillColor = MUTED
        chart.bars.strokeColor = None
        drawing.add(chart)
        scale = chart.height / top

        def y_of(value: float) -> float:
            return chart.y + min(value, top) * scale

        if reference is not None:
            drawing.add(Line(chart.x, y_of(reference), chart.x + chart.width, y_of(reference),
                             strokeColor=colors.HexColor("#b33"), strokeWidth=0.8, strokeDashArray=[3, 2]))
            for edge in ((reference - band, reference + band) if band else ()):
                drawing.add(Line(chart.x, y_of(max(0.0, edge)), chart.x + chart.width, y_of(max(0.0, edge)),
                                 strokeColor=colors.HexColor("#b33"), strokeWidth=0.4, strokeDashArray=[1, 2]))
        if errors:
            step = chart.width / len(labels)
            for index, (low, high) in enumerate(errors):
                x = chart.x + step * (index + 0.5)
                drawing.add(Line(x, y_of(low), x, y_of(high), strokeColor=INK, strokeWidth=0.8))
                for value in (low, high):
                    drawing.add(Line(x - 2, y_of(value), x + 2, y_of(value), strokeColor=INK, strokeWidth=0.8))
        if caption:
            drawing.add(String(chart.x, 2 * mm, caption, fontName=BODY, fontSize=8, fillColor=INK))
        self.story.append(drawing)
        self.story.append(Spacer(1, 2 * mm))

    def pdf(self) -> bytes:
        rl_config.invariant = 1
        buffer = BytesIO()
        document = SimpleDocTemplate(buffer, pagesize=A4, title=self.title, author="Spellpress",
                                     leftMargin=18 * mm, rightMargin=18 * mm, topMargin=16 * mm, bottomMargin=16 * mm,
                                     invariant=1, initialFontName=BODY, initialFontSize=10)
        document.build(self.story)
        return buffer.getvalue()
