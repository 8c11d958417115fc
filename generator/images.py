"""The pictures a game names, checked before any library draws them: a raster image (an image box,
an icon's <image>) and an SVG icon as a reportlab drawing.

Only a raster image's header is read for the size, so a decompression bomb is refused before its
pixels are; then every pixel is decoded, so a truncated or damaged file fails here, not inside the
PDF writer (which printed a cut JPEG half grey) or svglib (which would skip it in silence).
An SVG is read by svglib once, and every number of the drawing is checked to be finite and of a
sane size, so that the PDF writer never meets NaN, infinity or a zero scale.
"""

from __future__ import annotations

import logging
import math
import re
import struct
import warnings
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO

from spellpress.model.limits import MAX_ICON_COORDINATE, MAX_IMAGE_PIXELS

MIN_ICON_SIZE = 0.001  # an icon's width and height in its own units: it is drawn scaled by box size / its size


def raster_size(path: Path | BinaryIO, shown: str) -> tuple[int, int]:
    """The image's width and height in pixels, or ValueError with a message naming it as `shown`.
    A file is decoded once per content (an image box on every card asks again for each)."""
    if isinstance(path, Path):
        stat = path.stat()
        size = _file_size(str(path.resolve()), stat.st_mtime_ns, stat.st_size, shown)
        if isinstance(size, str):
            raise ValueError(size)
        return size
    return _decoded_size(path, shown)


@lru_cache(maxsize=256)
def _file_size(path: str, modified: int, length: int, shown: str) -> tuple[int, int] | str:
    try:
        return _decoded_size(Path(path), shown)
    except ValueError as exc:
        return str(exc)


def _decoded_size(path: Path | BinaryIO, shown: str) -> tuple[int, int]:
    from PIL import Image  # only games with images pay for the import

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            picture = Image.open(path)
        with picture:
            width, height = picture.size
            if width * height > MAX_IMAGE_PIXELS:
                raise _too_many_pixels(shown, f"{width:,} x {height:,}")
            picture.verify()  # a PNG's checksums
        with Image.open(path) as picture:  # verify() leaves the image unusable: decode a fresh one to its end
            if picture.format == "JPEG":
                picture.draft(picture.mode, (max(1, width // 8), max(1, height // 8)))  # every byte, an eighth of the pixels
            picture.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        # Pillow's own guard (above ours) refuses before the size reaches us; its message has the count
        counted = re.search(r"\((\d+) pixels\)", str(exc))
        raise _too_many_pixels(shown, f"{int(counted[1]):,}" if counted else f"more than {MAX_IMAGE_PIXELS:,}") from None
    except (OSError, SyntaxError, ValueError, struct.error, EOFError) as exc:
        raise ValueError(f"image '{shown}' cannot be read: {exc}") from None
    return width, height


def read_svg(source: str | BinaryIO, shown: str):
    """The SVG as a reportlab Drawing (y up, in the SVG's own units), or ValueError saying what is wrong."""
    from svglib.svglib import svg2rlg

    logging.getLogger("svglib").setLevel(logging.CRITICAL)  # what it would skip is refused here instead
    try:
        drawing = svg2rlg(source)
    except Exception as exc:  # svglib raises whatever its XML and CSS parsers raise
        raise ValueError(f"icon {shown} is not a readable SVG: {exc}") from None
    if drawing is None or not drawing.width or not drawing.height:
        raise ValueError(f"icon {shown} is not a readable SVG")
    wrong = _unusable_number(drawing)
    if wrong is None and not (MIN_ICON_SIZE <= drawing.width and MIN_ICON_SIZE <= drawing.height):
        wrong = f"its size ({drawing.width:g} x {drawing.height:g}) is below {MIN_ICON_SIZE:g}"
    if wrong is not None:
        raise ValueError(f"icon {shown} cannot be drawn: {wrong}")
    try:
        drawing.getBounds()
    except (TypeError, ValueError):  # an empty drawing has no bounds
        pass
    except (ArithmeticError, struct.error) as exc:
        raise ValueError(f"icon {shown} cannot be drawn: {exc}") from None
    return drawing


def _unusable_number(drawing) -> str | None:
    """What is wrong with the first number of the drawing (a coordinate, a size, a transform) that is not
    finite or is beyond MAX_ICON_COORDINATE, or None."""
    from reportlab.graphics.shapes import Shape

    pending = [drawing]
    while pending:
        node = pending.pop()
        for name, value in vars(node).items():
            values = value if isinstance(value, (list, tuple)) else (value,)
            for item in values:
                if isinstance(item, Shape):
                    pending.append(item)
                elif isinstance(item, float) and not math.isfinite(item):
                    return f"a {type(node).__name__}'s {name} is {item}"
                elif isinstance(item, (int, float)) and not isinstance(item, bool) and abs(item) > MAX_ICON_COORDINATE:
                    return f"a {type(node).__name__}'s {name} is {item:g}, beyond {MAX_ICON_COORDINATE:,}"
    return None


def _too_many_pixels(shown: str, pixels: str) -> ValueError:
    return ValueError(f"image '{shown}' has {pixels} pixels; at most {MAX_IMAGE_PIXELS:,} pixels are allowed")
