"""A raster image a game names (an image box, an icon's <image>): checked before any library draws it.

Only the header is read for the size, so a decompression bomb is refused before its pixels
are; `verify` then reads the rest, so a truncated or damaged file fails here, not inside
the PDF writer or svglib (which would skip it in silence).
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import BinaryIO

from spellpress.model.limits import MAX_IMAGE_PIXELS


def raster_size(path: Path | BinaryIO, shown: str) -> tuple[int, int]:
    """The image's width and height in pixels, or ValueError with a message naming it as `shown`."""
    from PIL import Image  # only games with images pay for the import

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            picture = Image.open(path)
        with picture:
            width, height = picture.size
            if width * height > MAX_IMAGE_PIXELS:
                raise _too_many_pixels(shown, f"{width:,} x {height:,}")
            picture.verify()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        # Pillow's own guard (above ours) refuses before the size reaches us; its message has the count
        counted = re.search(r"\((\d+) pixels\)", str(exc))
        raise _too_many_pixels(shown, f"{int(counted[1]):,}" if counted else f"more than {MAX_IMAGE_PIXELS:,}") from None
    except (OSError, SyntaxError) as exc:
        raise ValueError(f"image '{shown}' cannot be read: {exc}") from None
    return width, height


def _too_many_pixels(shown: str, pixels: str) -> ValueError:
    return ValueError(f"image '{shown}' has {pixels} pixels; at most {MAX_IMAGE_PIXELS:,} pixels are allowed")
