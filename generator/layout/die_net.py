"""Where a die's six faces are on its printed net: the template's boxes named face1 ... face6.

The shipped die-net templates (templates/die-net.yaml) draw each face as such a box; a digital
table wants the six squares, not the net with its glue tabs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spellpress.layout.face import resolved_values
from spellpress.model.game import Template
from spellpress.model.template import BOX_KINDS

FACE_BOXES = tuple(f"face{number}" for number in range(1, 7))


def die_face_rects(template: Template, fields: Mapping[str, Any],
                   size: tuple[float, float]) -> list[tuple[float, float, float, float]] | None:
    """The six faces' (x, y, w, h) in mm from the trim's top-left, face1 first; None when the
    template does not name all six boxes."""
    width, height = size
    boxes = {box.name: box for box in template.boxes}
    if not all(name in boxes for name in FACE_BOXES):
        return None
    context = {**fields, "card_width": width, "card_height": height}
    rects = []
    for name in FACE_BOXES:
        values = resolved_values(boxes[name], context, width, height)
        if values.get("kind") not in BOX_KINDS:
            return None
        spec = BOX_KINDS[values["kind"]].model_validate(values)
        rects.append((spec.x, spec.y, spec.w if spec.w is not None else width - spec.x,
                      spec.h if spec.h is not None else height - spec.y))
    return rects
