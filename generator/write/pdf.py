"""The sheets PDF: pages of placed faces, crop marks, fold line and a label."""

from __future__ import annotations

from io import BytesIO

from reportlab.pdfgen.canvas import Canvas

from spellpress.impose.grid import Slot, fold_marks
from spellpress.impose.sheets import Page
from spellpress.layout.ops import FaceLayout
from spellpress.render.draw import PAINT
from spellpress.render.forms import FormBook
from spellpress.units import mm_to_pt
from spellpress.write.canvas import LABEL_FONT, DocumentInfo, new_canvas

LABEL_SIZE_PT = 6.5
GREY = (0.45, 0.45, 0.45, 1.0)


def place_face(canvas: Canvas, forms: FormBook, face: FaceLayout, slot: Slot) -> None:
    """Draw `face` in `slot`, clipped to the slot's inkable area."""
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(*(mm_to_pt(v) for v in slot.clip))
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate(mm_to_pt(slot.x), mm_to_pt(slot.y))
    if slot.rotation:
        canvas.translate(mm_to_pt(slot.w / 2), mm_to_pt(slot.h / 2))
        canvas.rotate(slot.rotation)
        canvas.translate(-mm_to_pt(slot.w / 2), -mm_to_pt(slot.h / 2))
    canvas.doForm(forms.name(face))
    canvas.restoreState()


def sheets_pdf(pages: list[Page], title: str | DocumentInfo) -> bytes:
    buffer = BytesIO()
    paper = pages[0].paper if pages else (210.0, 297.0)
    canvas = new_canvas(buffer, paper, title)
    forms = FormBook(canvas)
    for page in pages:
        canvas.setPageSize((mm_to_pt(page.paper[0]), mm_to_pt(page.paper[1])))
        for placed in page.placed:
            place_face(canvas, forms, placed.face, placed.slot)
        _marks(canvas, page)
        _decor(canvas, page)
        _fold_line(canvas, page)
        _label(canvas, page)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _marks(canvas: Canvas, page: Page) -> None:
    if not page.marks:
        return
    canvas.saveState()
    canvas.setStrokeColor(PAINT.get().colour((0.0, 0.0, 0.0, 1.0)))
    canvas.setLineWidth(page.decor.weight_pt)
    for mark in page.marks:
        canvas.line(*(mm_to_pt(v) for v in (mark.x1, mark.y1, mark.x2, mark.y2)))
    canvas.restoreState()


def _decor(canvas: Canvas, page: Page) -> None:
    decor = page.decor
    paint = PAINT.get()
    canvas.saveState()
    canvas.setLineWidth(decor.weight_pt)
    canvas.setStrokeColor(paint.colour((0.0, 0.0, 0.0, 1.0)))
    for line in decor.lines:
        canvas.line(*(mm_to_pt(v) for v in (line.x1, line.y1, line.x2, line.y2)))
    canvas.setStrokeColor(paint.colour(GREY))
    for cx, cy, r, start in decor.guides:
        canvas.arc(mm_to_pt(cx - r), mm_to_pt(cy - r), mm_to_pt(cx + r), mm_to_pt(cy + r), start, 90)
    canvas.setFillColor(paint.colour((0.0, 0.0, 0.0, 1.0)))
    for x, y, w, h in decor.rects:
        canvas.rect(mm_to_pt(x), mm_to_pt(y), mm_to_pt(w), mm_to_pt(h), stroke=0, fill=1)
    canvas.restoreState()


def _fold_line(canvas: Canvas, page: Page) -> None:
    if page.fold_y is None or not page.placed:
        return
    canvas.saveState()
    canvas.setStrokeColor(PAINT.get().colour(GREY))
    canvas.setLineWidth(0.5)
    canvas.setDash([3, 2])
    for mark in fold_marks(tuple(p.slot for p in page.placed), page.paper, page.fold_y):
        canvas.line(*(mm_to_pt(v) for v in (mark.x1, mark.y1, mark.x2, mark.y2)))
    canvas.restoreState()


def _label(canvas: Canvas, page: Page) -> None:
    """The sheet's line of text where its geometry left room (impose/label.py): along the top or
    bottom, or turned up a side margin; a sheet with no room has none."""
    spot = page.decor.label
    if not page.label or spot is None:
        return
    canvas.saveState()
    canvas.setFillColor(PAINT.get().colour(GREY))
    room = mm_to_pt(spot.length)
    size = min(LABEL_SIZE_PT, LABEL_SIZE_PT * room / canvas.stringWidth(page.label, LABEL_FONT, LABEL_SIZE_PT))
    canvas.setFont(LABEL_FONT, size)
    canvas.translate(mm_to_pt(spot.x), mm_to_pt(spot.y))
    canvas.rotate(spot.angle)
    canvas.drawCentredString(0, 0, page.label)
    canvas.restoreState()


def print_shop_pdf(faces: list[tuple[FaceLayout, FaceLayout | None]], title: str | DocumentInfo) -> bytes:
    """One card a page, page = bleed box, TrimBox and BleedBox set; back then front per card."""
    buffer = BytesIO()
    first = faces[0][0]
    b = first.bleed
    canvas = new_canvas(buffer, (first.width + 2 * b, first.height + 2 * b), title)
    forms = FormBook(canvas)
    for front, back in faces:
        for face in ((back, front) if back is not None else (front,)):
            single_face_page(canvas, forms, face)
    canvas.save()
    return buffer.getvalue()


def single_face_page(canvas: Canvas, forms: FormBook, face: FaceLayout) -> None:
    b = face.bleed
    full = (mm_to_pt(face.width + 2 * b), mm_to_pt(face.height + 2 * b))
    canvas.setPageSize(full)
    trim = (mm_to_pt(b), mm_to_pt(b), mm_to_pt(b + face.width), mm_to_pt(b + face.height))
    canvas.setCropBox((0, 0, *full))
    canvas.setTrimBox(trim)
    canvas.setBleedBox((0, 0, *full))
    slot = Slot(0, 0, b, b, face.width, face.height, (0.0, 0.0, face.width + 2 * b, face.height + 2 * b))
    place_face(canvas, forms, face, slot)
    canvas.showPage()
