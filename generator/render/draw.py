"""Draw layout operations on a reportlab canvas (mm in, points out)."""

from __future__ import annotations

import hashlib
import weakref
from contextlib import contextmanager
from contextvars import ContextVar
from typing import assert_never

from reportlab.graphics import renderPDF
from reportlab.lib.colors import Color
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from spellpress.layout.ops import Drawn, Ellipse, Fill, Grid, Group, Icon, Image, Line, Rect, Shape, Text
from spellpress.layout.walk import Scope, enclosing, walk
from spellpress.render.draft import draft_op
from spellpress.render.icons import coloured, painted
from spellpress.render.paint import RgbPaint
from spellpress.units import mm_to_pt

_RGB = RgbPaint()  # stateless: every context may share it
PAINT: ContextVar = ContextVar("paint", default=_RGB)  # RGB, CMYK (print shops) or the grey draft


@contextmanager
def painting(paint):
    """Draw with `paint` (render/paint.py) inside the block."""
    token = PAINT.set(paint)
    try:
        yield paint
    finally:
        PAINT.reset(token)


def end_form(canvas: Canvas, name: str) -> None:
    """endForm, and give the Form the graphics states (alpha) it uses: reportlab records them on the
    form but leaves them out of its resources, so `/gRLs0 gs` named a state the file did not have."""
    canvas.endForm()
    form = canvas._doc.idToObject[pdfdoc.xObjectName(name)]
    if not form.ExtGState:
        return
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    resources.ExtGState = form.ExtGState
    form.Resources = resources


def _colour(rgba) -> Color:
    return PAINT.get().colour(rgba)


def draw_ops(canvas: Canvas, ops) -> None:
    """Draw `ops` in order; each Group's rotation holds for the operations inside it (one graphics
    state saved around them, as the Group nests them)."""
    draft = PAINT.get().draft
    opened: list[Scope] = []
    for op, scope in walk(ops):
        path = enclosing(scope)
        same = 0
        while same < min(len(opened), len(path)) and opened[same] is path[same]:
            same += 1
        for _ in opened[same:]:
            canvas.restoreState()
        del opened[same:]
        for entered in path[same:]:
            _turn(canvas, entered.group)
            opened.append(entered)
        drawn = draft_op(op) if draft else op
        if drawn is not None:
            _draw(canvas, drawn)
    for _ in opened:
        canvas.restoreState()


def _draw(canvas: Canvas, op: Drawn) -> None:
    match op:
        case Fill():
            _fill(canvas, op)
        case Rect() | Ellipse() | Line() | Grid():
            _shape(canvas, op)
        case Text():
            _text(canvas, op)
        case Icon():
            _icon(canvas, op)
        case Image():
            _image(canvas, op)
        case _:
            assert_never(op)


def _turn(canvas: Canvas, group: Group) -> None:
    canvas.saveState()
    canvas.translate(mm_to_pt(group.cx), mm_to_pt(group.cy))
    canvas.rotate(group.angle)
    canvas.translate(-mm_to_pt(group.cx), -mm_to_pt(group.cy))


def _fill(canvas: Canvas, op: Fill) -> None:
    canvas.setFillColor(_colour(op.color))
    canvas.rect(mm_to_pt(op.x), mm_to_pt(op.y), mm_to_pt(op.w), mm_to_pt(op.h), stroke=0, fill=1)


def _shape(canvas: Canvas, op: Shape) -> None:
    fill_colour = None if isinstance(op, Line) else op.fill  # a line is only stroked
    fill, stroke = fill_colour is not None, op.stroke is not None
    if not (fill or stroke):
        return
    canvas.saveState()
    if fill_colour is not None:
        canvas.setFillColor(_colour(fill_colour))
    if op.stroke is not None:
        canvas.setStrokeColor(PAINT.get().line_colour(op.stroke, op.stroke_width_pt))
        canvas.setLineWidth(op.stroke_width_pt)
        if op.dash:
            canvas.setDash(list(op.dash))
    x, y, w, h = (mm_to_pt(v) for v in (op.x, op.y, op.w, op.h))
    match op:
        case Ellipse():
            canvas.ellipse(x, y, x + w, y + h, stroke=int(stroke), fill=int(fill))
        case Line():
            canvas.line(x, y, x + w, y + h)
        case Grid():
            if fill:
                canvas.rect(x, y, w, h, stroke=0, fill=1)
            if stroke:
                canvas.grid([x + w * c / op.cols for c in range(op.cols + 1)], [y + h * r / op.rows for r in range(op.rows + 1)])
        case Rect() if op.radius > 0:
            canvas.roundRect(x, y, w, h, mm_to_pt(op.radius), stroke=int(stroke), fill=int(fill))
        case Rect():
            canvas.rect(x, y, w, h, stroke=int(stroke), fill=int(fill))
        case _:
            assert_never(op)
    canvas.restoreState()


def _text(canvas: Canvas, op: Text) -> None:
    canvas.setFillColor(PAINT.get().type_colour(op.color, op.size_pt))
    canvas.setFont(op.font, op.size_pt)
    canvas.drawString(mm_to_pt(op.x), mm_to_pt(op.y), op.text)


_ICON_FORMS: weakref.WeakKeyDictionary[Canvas, set[str]] = weakref.WeakKeyDictionary()  # defined, per document


def _icon(canvas: Canvas, op: Icon) -> None:
    """An icon is drawn once per document as a Form in its own units, and placed scaled: a deck
    draws the same few icons hundreds of times, and drawing an SVG's paths is the slow part."""
    paint = PAINT.get()
    # an icon no taller than small type sits in its lines: the same black-ink rule (render/paint.py BlackText)
    colour = op.color if paint.name == "rgb" else paint.type_colour(op.color, mm_to_pt(op.h))
    drawing = coloured(op.path, op.color) if paint.name == "rgb" else painted(op.path, colour)
    name = "I" + hashlib.sha1(repr((op.path, paint.name, repr(colour))).encode()).hexdigest()[:16]
    defined = _ICON_FORMS.setdefault(canvas, set())
    if name not in defined:
        w, h = drawing.width, drawing.height
        # the box only clips: generous, since an SVG may draw past its own view box
        canvas.beginForm(name, lowerx=-w, lowery=-h, upperx=2 * w, uppery=2 * h)
        renderPDF.draw(drawing, canvas, 0, 0)
        end_form(canvas, name)
        defined.add(name)
    canvas.saveState()
    canvas.translate(mm_to_pt(op.x), mm_to_pt(op.y))
    canvas.scale(mm_to_pt(op.w) / drawing.width, mm_to_pt(op.h) / drawing.height)
    canvas.doForm(name)
    canvas.restoreState()


def _image(canvas: Canvas, op: Image) -> None:
    canvas.saveState()
    if op.clip:
        path = canvas.beginPath()
        path.rect(*(mm_to_pt(v) for v in op.clip))
        canvas.clipPath(path, stroke=0, fill=0)
    paint = PAINT.get()
    source = paint.image(op.path)
    mask = "auto" if paint.name == "rgb" else None  # CMYK is flattened over white: no soft mask, no transparency
    canvas.drawImage(source if isinstance(source, str) else ImageReader(source),
                     mm_to_pt(op.x), mm_to_pt(op.y), mm_to_pt(op.w), mm_to_pt(op.h), mask=mask)
    canvas.restoreState()
