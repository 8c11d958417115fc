"""A contact sheet of library icons: a grid of icons with their names, as PDF pages (and PNG)."""

from __future__ import annotations

from io import BytesIO

from reportlab.graphics import renderPDF

from spellpress import icon_library
from spellpress.render.icons import coloured
from spellpress.units import mm_to_pt
from spellpress.write.canvas import LABEL_FONT, new_canvas

A4 = (210.0, 297.0)
MARGIN = 12.0  # mm
COLUMNS, ROWS = 8, 10
ICON = 14.0  # mm, the side of each icon
NAME_PT = 5.5
INK = (0.13, 0.13, 0.23, 1.0)


def pages_needed(count: int) -> int:
    return max(1, -(-count // (COLUMNS * ROWS)))


def cell_origin(index: int) -> tuple[float, float]:
    """Bottom-left corner (mm) of the index-th cell on its page, rows from the top."""
    cell_w = (A4[0] - 2 * MARGIN) / COLUMNS
    cell_h = (A4[1] - 2 * MARGIN - 8) / ROWS
    column, row = index % COLUMNS, (index // COLUMNS) % ROWS
    return MARGIN + column * cell_w, A4[1] - MARGIN - 8 - (row + 1) * cell_h


def contact_sheet_pdf(names: list[str], title: str) -> bytes:
    buffer = BytesIO()
    canvas = new_canvas(buffer, A4, title)
    cell_w = (A4[0] - 2 * MARGIN) / COLUMNS
    per_page = COLUMNS * ROWS
    for page in range(pages_needed(len(names))):
        canvas.setFont(LABEL_FONT, 9)
        canvas.drawString(mm_to_pt(MARGIN), mm_to_pt(A4[1] - MARGIN - 3),
                          f"{title} - page {page + 1} of {pages_needed(len(names))} - game-icons.net, CC BY 3.0")
        for index, name in enumerate(names[page * per_page:(page + 1) * per_page]):
            x, y = cell_origin(index)
            drawing = coloured(icon_library.library_path(name), INK)
            scale = mm_to_pt(ICON) / max(drawing.width, drawing.height)
            canvas.saveState()
            canvas.translate(mm_to_pt(x + (cell_w - ICON) / 2), mm_to_pt(y + 6))
            canvas.scale(scale, scale)
            renderPDF.draw(drawing, canvas, 0, 0)
            canvas.restoreState()
            canvas.setFont(LABEL_FONT, NAME_PT)
            canvas.drawCentredString(mm_to_pt(x + cell_w / 2), mm_to_pt(y + 2.5), _fit(canvas, name, cell_w))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _fit(canvas, name: str, width_mm: float) -> str:
    """The name, shortened with an ellipsis to the cell's width."""
    limit = mm_to_pt(width_mm - 1)
    if canvas.stringWidth(name, LABEL_FONT, NAME_PT) <= limit:
        return name
    while name and canvas.stringWidth(name + "...", LABEL_FONT, NAME_PT) > limit:
        name = name[:-1]
    return name + "..."
