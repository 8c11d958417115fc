"""Each distinct face drawn once as a PDF Form (XObject) and placed by name."""

from __future__ import annotations

import hashlib

from reportlab.pdfgen.canvas import Canvas

from spellpress.layout.ops import FaceLayout
from spellpress.render.draw import draw_ops, end_form
from spellpress.units import mm_to_pt


def form_name(face: FaceLayout) -> str:
    return "F" + hashlib.sha1(repr(face).encode()).hexdigest()[:16]


class FormBook:
    """Defines Forms on a canvas on first use; placing a face twice costs one reference."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.defined: set[str] = set()

    def name(self, face: FaceLayout) -> str:
        name = form_name(face)
        if name not in self.defined:
            b = face.bleed
            bbox = (mm_to_pt(-b), mm_to_pt(-b), mm_to_pt(face.width + b), mm_to_pt(face.height + b))
            self.canvas.beginForm(name, lowerx=bbox[0], lowery=bbox[1], upperx=bbox[2], uppery=bbox[3])
            draw_ops(self.canvas, face.ops)
            end_form(self.canvas, name)
            self.defined.add(name)
        return name
