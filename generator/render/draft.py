"""The draft proof's drawing: no background fills or images, outlines and text only (greyed by GreyPaint)."""

from __future__ import annotations

import dataclasses

from spellpress.layout.ops import Fill, Group, Icon, Image, Shape, Text

OUTLINE_PT = 0.5
INK = (0.0, 0.0, 0.0, 1.0)  # text prints black whatever its colour: light text on a dropped dark fill stays legible
ICON = (0.25, 0.25, 0.25, 1.0)


def draft_ops(ops) -> tuple:
    """The same face for a low-ink proof: fills dropped, filled shapes as outlines, images as framed boxes."""
    kept = []
    for op in ops:
        if isinstance(op, Fill):
            continue
        if isinstance(op, Shape) and op.fill is not None:
            if op.stroke is None:
                op = dataclasses.replace(op, fill=None, stroke=op.fill, stroke_width_pt=OUTLINE_PT)
            else:
                op = dataclasses.replace(op, fill=None)
        elif isinstance(op, Image):
            x, y, w, h = op.x, op.y, op.w, op.h
            if op.clip:
                x, y, w, h = op.clip
            op = Shape("rect", x, y, w, h, 0.0, None, (0.6, 0.6, 0.6, 1.0), OUTLINE_PT)
        elif isinstance(op, Text):
            op = dataclasses.replace(op, color=INK)
        elif isinstance(op, Icon):
            op = dataclasses.replace(op, color=ICON)
        elif isinstance(op, Group):
            op = dataclasses.replace(op, ops=draft_ops(op.ops))
        kept.append(op)
    return tuple(kept)
