"""The ink check: every colour and image a face paints, as the CMYK the page will carry, against a limit."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import assert_never

import numpy as np

from spellpress.layout.ops import Ellipse, FaceLayout, Fill, Grid, Icon, Image, Line, Op, Rect, Rgba, Text
from spellpress.layout.walk import walk
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
        if isinstance(colour, str):  # an image's path
            ink, name = _image_ink(paint, colour), f"{kind} {colour}"
        else:
            ink, name = total_ink(paint.cmyk(colour)), f"{kind} {_hex(colour)}"
        if ink > limit + 0.5:  # a rounding step of the 8-bit transform is not an excess
            found[name] = max(found.get(name, 0.0), ink)
    return [Excess(what, ink) for what, ink in sorted(found.items())]


def _colours(ops: Iterable[Op]) -> Iterator[tuple[str, Rgba | str]]:
    """(what, colour) for each colour the ops paint; ("image", path) for each image."""
    for op, _ in walk(ops):
        match op:
            case Fill():
                yield "fill", op.color
            case Rect() | Ellipse() | Grid():
                if op.fill is not None:
                    yield "fill", op.fill
                if op.stroke is not None:
                    yield "stroke", op.stroke
            case Line():
                if op.stroke is not None:
                    yield "stroke", op.stroke
            case Text():
                yield "text", op.color
            case Icon():
                yield "icon", op.color
            case Image():
                yield "image", op.path
            case _:
                assert_never(op)


def _image_ink(paint: CmykPaint, path: str) -> float:
    pixels = np.asarray(paint.image(path), dtype=np.uint16)
    return round(float(pixels.sum(axis=-1).max()) / 255 * 100, 1)


def _hex(rgba) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgba[:3])
