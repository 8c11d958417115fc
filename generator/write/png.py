"""A PNG written a horizontal strip at a time, from strips compressed on their own.

Each band of scanlines is deflated by a fresh compressor and ended with a full
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

import numpy as np
from PIL import Image

try:
    from zlib_ng import zlib_ng as deflate
except ImportError:  # pragma: no cover - zlib is always there
    deflate = zlib  # type: ignore[assignment]

LEVEL = 2
BAND_ROWS = 256  # scanlines compressed at a time: bounds the temporary copies
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
    """An RGB image (or height x width x 3 array) as one strip (PNG filter 0 on every scanline),
    compressed a band of rows at a time."""
    rgb = image if isinstance(image, np.ndarray) else np.asarray(image if image.mode == "RGB" else image.convert("RGB"))
    height, width = rgb.shape[:2]
    bands = []
    for top in range(0, height, BAND_ROWS):
        pixels = rgb[top : top + BAND_ROWS].reshape(-1, 3 * width)
        scanlines = np.zeros((len(pixels), 3 * width + 1), np.uint8)  # column 0: each row's filter byte
        scanlines[:, 1:] = pixels
        compressor = deflate.compressobj(level, deflate.DEFLATED, -15)
        deflated = compressor.compress(scanlines) + compressor.flush(deflate.Z_FULL_FLUSH)
        bands.append(Strip(deflated, deflate.adler32(scanlines), scanlines.nbytes, width, len(pixels)))
    return join_strips(bands)


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
