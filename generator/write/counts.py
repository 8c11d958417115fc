"""What one build drew, returned in its result (a module of its own: a PDF-only build imports no raster code)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class RasterCounts:
    """Faces rasterized and TTS strips compressed by one build (not read from the cache)."""

    faces_drawn: int = 0
    strips_compressed: int = 0
