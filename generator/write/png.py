"""A PNG written a horizontal strip at a time, from strips compressed on their own.

Each strip of scanlines is deflated by a fresh compressor and ended with a full
flush, so its compressed bytes depend on its pixels alone: a strip can be cached,
compressed in another process, and the strips joined into one valid zlib stream
(the checksum is combined arithmetically). A 10 x 7 Tabletop Simulator sheet of
300 dpi cards is 55 megapixels; this never holds more than one strip of it.

Compression uses zlib-ng (the `zlib-ng` package) when it is installed: the same
deflate format, about 3.5 times faster than zlib at level 2 on card art, and like zlib
it gives the same bytes for the same pixels. (ISA-L is faster still, but its output
varies from run to run, which would break the cache's byte-identical promise.)
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy and Pillow are imported by the functions that use them: joining strips needs neither
    import numpy as np
    from PIL import Image

deflate: ModuleType
try:
    from zlib_ng import zlib_ng as deflate
except ImportError:  # pragma: no cover - zlib is always there
    deflate = zlib

LEVEL = 2
BAND_ROWS = 256  # scanlines handed to the compressor at a time
_ADLER_BASE = 65521
_END_OF_STREAM = b"\x03\x00"  # an empty final fixed-Huffman block


@dataclass(frozen=True)
class Strip:
    deflated: bytes  # raw deflate blocks, not final, byte-aligned
    adler: int  # adler32 of the scanlines (each with its filter byte)
    length: int  # bytes of those scanlines
    width: int
    height: int


def compress_strip(image: Image.Image | np.ndarray, level: int = LEVEL) -> Strip:
    """An RGB image (or height x width x 3 array) as one strip (PNG filter 0 on every scanline)."""
    import numpy as np

    rgb = image if isinstance(image, np.ndarray) else np.asarray(image if image.mode == "RGB" else image.convert("RGB"))
    height, width = rgb.shape[:2]
    scanlines = blank_scanlines(width, height)
    pixels_of(scanlines)[:] = rgb
    return compress_scanlines(scanlines, level)


def blank_scanlines(width: int, height: int) -> np.ndarray:
    """Room for an RGB image as PNG scanlines: each row a filter byte (0: none) then its pixels.
    Fill it through pixels_of() and compress it with compress_scanlines(), without another copy."""
    import numpy as np

    scanlines = np.empty((height, 3 * width + 1), np.uint8)
    scanlines[:, 0] = 0
    return scanlines


def pixels_of(scanlines: np.ndarray) -> np.ndarray:
    """The height x width x 3 pixels of blank_scanlines() (a view: writing it writes them)."""
    return scanlines[:, 1:].reshape(scanlines.shape[0], -1, 3)


def compress_scanlines(scanlines: np.ndarray, level: int = LEVEL) -> Strip:
    """The scanlines as one strip: deflated a band of rows at a time by one compressor, ended
    with a full flush (a compressor costs a quarter of a megabyte of fresh tables)."""
    height, width = scanlines.shape[0], (scanlines.shape[1] - 1) // 3
    compressor = deflate.compressobj(level, deflate.DEFLATED, -15)
    deflated, adler = [], 1
    for top in range(0, height, BAND_ROWS):
        band = scanlines[top : top + BAND_ROWS]
        deflated.append(compressor.compress(band))
        adler = deflate.adler32(band, adler)
    deflated.append(compressor.flush(deflate.Z_FULL_FLUSH))
    return Strip(b"".join(deflated), adler, scanlines.nbytes, width, height)


def join_strips(strips: list[Strip]) -> Strip:
    """Strips one above the other, as one strip."""
    adler = 1
    for strip in strips:
        adler = adler32_combine(adler, strip.adler, strip.length)
    return Strip(b"".join(s.deflated for s in strips), adler, sum(s.length for s in strips), strips[0].width,
                 sum(s.height for s in strips))


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """adler32(a + b) from adler32(a), adler32(b) and len(b) (zlib's adler32_combine)."""
    remainder = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (remainder * sum1) % _ADLER_BASE
    sum1 += (second & 0xFFFF) + _ADLER_BASE - 1
    sum2 += ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + _ADLER_BASE - remainder
    sum1 %= _ADLER_BASE
    sum2 %= _ADLER_BASE
    return (sum2 << 16) | sum1


def decode_png(data: bytes) -> np.ndarray:
    """A PNG's pixels as a height x width x 3 RGB array. The PNGs written here (8-bit RGB, filter 0)
    are read directly, four times faster than through Pillow; any other PNG goes through Pillow."""
    import numpy as np

    if data[12:16] == b"IHDR" and data[24:29] == b"\x08\x02\x00\x00\x00":
        width, height = struct.unpack(">II", data[16:24])
        stream, position = [], 8
        while position + 8 <= len(data):
            length, kind = struct.unpack(">I4s", data[position : position + 8])
            if kind == b"IDAT":
                stream.append(data[position + 8 : position + 8 + length])
            position += 12 + length
        raw = deflate.decompress(b"".join(stream), bufsize=height * (3 * width + 1))  # one allocation
        if len(raw) == height * (3 * width + 1):
            scanlines = np.frombuffer(raw, np.uint8).reshape(height, 3 * width + 1)
            if not scanlines[:, 0].any():  # every row unfiltered
                return scanlines[:, 1:].reshape(height, width, 3)
    from io import BytesIO

    from PIL import Image

    with Image.open(BytesIO(data)) as image:
        return np.asarray(image.convert("RGB"))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_from_strips(strips: list[Strip], dpi: int) -> bytes:
    """One PNG whose rows are the strips, top to bottom (all of one width)."""
    if any(strip.width != strips[0].width for strip in strips):
        raise ValueError("strips of one PNG must share a width")
    whole = join_strips(strips)
    stream = b"\x78\x9c" + whole.deflated + _END_OF_STREAM + struct.pack(">I", whole.adler)
    width, height = whole.width, whole.height
    per_metre = round(dpi / 0.0254)
    return b"".join((
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
        _chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)),
        _chunk(b"IDAT", stream),
        _chunk(b"IEND", b""),
    ))
