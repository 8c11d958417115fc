"""A duplex calibration sheet: the front carries crosses, the back carries scales.

Printed duplex and held to the light, each front cross shows through the back
at the value to pass as --back-offset X,Y (mm): the scales are labelled with the
correction, not the error.
"""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

from reportlab.lib.colors import black

from spellpress.model.modes import CalibrationPaper, DuplexMode, checked
from spellpress.model.sizes import PAPER_SIZES
from spellpress.units import mm_to_pt
from spellpress.write.atomic import write_bytes
from spellpress.write.canvas import LABEL_FONT, new_canvas

SPAN = 5.0  # the scales read from -SPAN to +SPAN mm
STEP = 0.5


def targets(paper: tuple[float, float]) -> list[tuple[float, float]]:
    width, height = paper
    return [(width / 2, height / 2), (40, 40), (width - 40, 40), (40, height - 60), (width - 40, height - 60)]


def calibration_pdf(paper_name: CalibrationPaper, mode: DuplexMode) -> bytes:
    checked(CalibrationPaper, paper_name, "calibration paper")
    checked(DuplexMode, mode, "duplex mode")
    paper = PAPER_SIZES[paper_name]
    width, height = paper
    buffer = BytesIO()
    canvas = new_canvas(buffer, paper, "Spellpress duplex calibration")
    pt = mm_to_pt
    # front: a cross at each target
    canvas.setFont(LABEL_FONT, 10)
    lines = [
        f"Spellpress duplex calibration · {paper_name.upper()} · {mode}",
        "1. Print both pages duplex, at actual size (100%), with the flip named above.",
        "2. Hold the sheet to the light, back side facing you.",
        "3. Where the front's crosses fall on the back's scales is the back offset in mm:",
        "   spellpress build GAME --back-offset X,Y  (or print.back_offset in game.yaml)",
    ]
    for index, text in enumerate(lines):
        canvas.drawString(pt(20), pt(height - 20 - 6 * index), text)
    canvas.setStrokeColor(black)
    canvas.setLineWidth(0.3)
    for x, y in targets(paper):
        canvas.line(pt(x - 12), pt(y), pt(x + 12), pt(y))
        canvas.line(pt(x), pt(y - 12), pt(x), pt(y + 12))
    canvas.showPage()
    # back: scales at the mirrored targets, labelled with the correction to apply
    canvas.setLineWidth(0.25)
    for x, y in targets(paper):
        bx, by = (width - x, y) if mode == "duplex-long" else (x, height - y)
        steps = int(SPAN / STEP)
        for i in range(-steps, steps + 1):
            value = i * STEP
            long_tick = i % 2 == 0
            size = 2.5 if long_tick else 1.5
            # the front line shows through at -error; the correction is -error: label value directly
            canvas.line(pt(bx + value), pt(by + 4), pt(bx + value), pt(by + 4 + size))
            canvas.line(pt(bx - 4 - size), pt(by + value), pt(bx - 4), pt(by + value))
            if long_tick and i % 4 == 0:
                canvas.setFont(LABEL_FONT, 5)
                canvas.drawCentredString(pt(bx + value), pt(by + 7.5), f"{value:+g}" if value else "0")
                canvas.drawRightString(pt(bx - 7.5), pt(by + value - 0.6), f"{value:+g}" if value else "0")
        canvas.setFont(LABEL_FONT, 6)
        canvas.drawString(pt(bx + 6), pt(by - 8), "X above, Y left (mm)")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def write_calibration(paper: CalibrationPaper, mode: DuplexMode, out: Path) -> Path:
    path = out / f"calibration-{paper}-{mode}.pdf"
    write_bytes(path, calibration_pdf(paper, mode))
    return path
