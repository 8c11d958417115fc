"""The ink check: every colour and image a face paints, as the CMYK the page will carry, against a limit."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from spellpress.layout.ops import FaceLayout, Fill, Group, Icon, Image, Shape, Text
from spellpress.render.paint import CmykPaint


@dataclass(frozen=True)
class Excess:
    what: str  # "fill #rrggbb", "image name.png", ...
    ink: float  # total coverage in percent


def total_ink(cmyk) -> float:
    return round(sum(cmyk) * 100, 1)


def face_excess(face: FaceLayout, paint: CmykPaint, limit: float) -> list[Excess]:
    """The areas of `face` whose total ink exceeds `limit` percent."""
    found: dict[str, float] = {}
    for kind, colour in _colours(face.ops):
        if kind == "image":
            ink = _image_ink(paint, colour)
        else:
            ink = total_ink(paint.cmyk(colour))
        if ink > limit + 0.5:  # a rounding step of the 8-bit transform is not an excess
            name = f"image {colour}" if kind == "image" else f"{kind} {_hex(colour)}"
            found[name] = max(found.get(name, 0.0), ink)
    return [Excess(what, ink) for what, ink in sorted(found.items())]


def _colours(ops):
    for op in ops:
        if isinstance(op, Group):
            yield from _colours(op.ops)
        elif isinstance(op, Fill):
            yield "fill", op.color
        elif isinstance(op, Shape):
            if op.fill is not None:
                yield "fill", op.fill
            if op.stroke is not None:
                yield "stroke", op.stroke
        elif isinstance(op, Text):
            yield "text", op.color
        elif isinstance(op, Icon):
            yield "icon", op.color
        elif isinstance(op, Image):
            yield "image", op.path


def _image_ink(paint: CmykPaint, path: str) -> float:
    pixels = np.asarray(paint.image(path), dtype=np.uint16)
    return round(float(pixels.sum(axis=-1).max()) / 255 * 100, 1)


def _hex(rgba) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgba[:3])
