"""The draft proof's drawing: no background fills or images, outlines and text only (greyed by GreyPaint)."""

from __future__ import annotations

import dataclasses
from typing import assert_never

from spellpress.layout.ops import Drawn, Ellipse, Fill, Grid, Icon, Image, Line, Rect, Text

OUTLINE_PT = 0.5
INK = (0.0, 0.0, 0.0, 1.0)  # text prints black whatever its colour: light text on a dropped dark fill stays legible
ICON = (0.25, 0.25, 0.25, 1.0)
FRAME = (0.6, 0.6, 0.6, 1.0)  # where an image would be


def draft_op(op: Drawn) -> Drawn | None:
    """The same operation for a low-ink proof (None: left out): fills dropped, filled shapes as
    outlines, images as framed boxes."""
    match op:
        case Fill():
            return None
        case Rect() | Ellipse() | Grid():
            if op.fill is None:
                return op
            if op.stroke is None:
                return dataclasses.replace(op, fill=None, stroke=op.fill, stroke_width_pt=OUTLINE_PT)
            return dataclasses.replace(op, fill=None)
        case Line():
            return op
        case Image():
            x, y, w, h = op.clip if op.clip else (op.x, op.y, op.w, op.h)
            return Rect(x, y, w, h, None, FRAME, OUTLINE_PT)
        case Text():
            return dataclasses.replace(op, color=INK)
        case Icon():
            return dataclasses.replace(op, color=ICON)
        case _:
            assert_never(op)
