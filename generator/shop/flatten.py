"""Transparency flattened for PDF/X-1a, which allows none: each part of a face that is not opaque
(a colour with alpha, an image with transparent pixels) becomes, with everything under it in its
area, an opaque image of how the RGB face looks there. Then the CMYK page shows what the RGB
page and the preview show, where "flatten over white paper" printed a white box."""

from __future__ import annotations

import dataclasses
import hashlib
import math
from pathlib import Path
from typing import assert_never, cast

from spellpress.layout.ink_bounds import ops_ink
from spellpress.layout.ops import Drawn, Ellipse, FaceLayout, Fill, Grid, Icon, Image, Line, Op, Rect, Text
from spellpress.layout.walk import walk
from spellpress.units import MM_PER_INCH

FLATTEN_DPI = 300


def flattened(face: FaceLayout, folder: Path, dpi: int = FLATTEN_DPI) -> FaceLayout:
    """`face` with no transparent operation; the images it needs are written to `folder` (named by content)."""
    if not any(map(is_transparent, face.ops)):
        return face
    from spellpress.render.draw import painting
    from spellpress.render.paint import RgbPaint
    from spellpress.write.pixels import rasterize

    ops: list = []
    for index, op in enumerate(face.ops):
        if not is_transparent(op):
            ops.append(op)
            continue
        area = _pixel_area(op, face, dpi)
        if area is None:
            continue
        (left, top, right, bottom), (x, y, w, h) = area
        below = dataclasses.replace(face, ops=face.ops[: index + 1])
        with painting(RgbPaint()):
            picture = rasterize([below], "", dpi, progress=False)[0].crop((left, top, right, bottom))
        ops.append(Image(str(_saved(picture, folder)), x, y, w, h))
    return dataclasses.replace(face, ops=tuple(ops))


def is_transparent(op: Op) -> bool:
    """Whether the op (or any op of a Group) is not opaque: a colour with alpha, an image with transparent pixels."""
    return any(_drawn_transparent(drawn) for drawn, _ in walk((op,)))


def _drawn_transparent(op: Drawn) -> bool:
    match op:
        case Fill() | Text() | Icon():
            return op.color[3] < 1
        case Rect() | Ellipse() | Grid():
            return any(colour is not None and colour[3] < 1 for colour in (op.fill, op.stroke))
        case Line():
            return op.stroke is not None and op.stroke[3] < 1
        case Image():
            return _has_alpha(op.path)
        case _:
            assert_never(op)


def _has_alpha(path: str) -> bool:
    from PIL import Image as PILImage

    with PILImage.open(path) as picture:
        if "A" not in picture.getbands() and "transparency" not in picture.info:
            return False
        low, _ = cast(tuple[int, int], picture.convert("RGBA").getchannel("A").getextrema())
    return low < 255


def _pixel_area(op, face: FaceLayout, dpi: int):
    """The whole pixels of the face's image that the op's ink touches: (left, top, right, bottom) in pixels
    from the bleed's top-left corner, and the same area as (x, y, w, h) mm from the trim's bottom-left."""
    ink = ops_ink((op,))
    if ink is None:
        return None
    b = face.bleed
    per_mm = dpi / MM_PER_INCH
    full_w, full_h = round((face.width + 2 * b) * per_mm), round((face.height + 2 * b) * per_mm)
    left = max(0, math.floor((ink[0] + b) * per_mm))
    right = min(full_w, math.ceil((ink[2] + b) * per_mm))
    top = max(0, math.floor((face.height + b - ink[3]) * per_mm))
    bottom = min(full_h, math.ceil((face.height + b - ink[1]) * per_mm))
    if left >= right or top >= bottom:
        return None
    x, w = left / per_mm - b, (right - left) / per_mm
    y, h = face.height + b - bottom / per_mm, (bottom - top) / per_mm
    return (left, top, right, bottom), (x, y, w, h)


def _saved(picture, folder: Path) -> Path:
    from spellpress.write.pixels import encode_png

    data = encode_png(picture.convert("RGB"), FLATTEN_DPI)
    path = folder / f"{hashlib.sha256(data).hexdigest()[:32]}.png"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return path
