"""How a face's colours become PDF colours: RGB as designed, CMYK through an ICC profile, or a grey draft.

The layout speaks sRGB (0..1 with alpha). A Paint turns each colour, icon and raster
image into what the page needs. CMYK goes through a littleCMS transform (Pillow's
ImageCms) from sRGB to the output profile; alpha is flattened over white paper, since
PDF/X-1a allows no transparency, and black and near-black (every channel at most NEAR_BLACK) become K only, never rich black,
in colours and image pixels alike. Small dark type and thin dark lines print in black ink alone (BlackText): misregistered
inks would fringe them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import cast

from PIL import Image as PILImage
from PIL import ImageCms
from reportlab.lib.colors import CMYKColor, Color

from spellpress.layout.ops import Rgba

NEAR_BLACK = 10  # a colour or pixel whose every channel is at most this (of 255) prints with black ink only


def flatten(rgba: Rgba) -> tuple[float, float, float]:
    """The colour seen on white paper: alpha composited over white."""
    r, g, b, a = rgba
    return (r * a + 1 - a, g * a + 1 - a, b * a + 1 - a)


@dataclass(frozen=True)
class BlackText:
    """Type at or below `size_pt`, icons no taller, and strokes at or below `line_pt` whose colour is dark
    (CIE L* at most `lightness`) and near-neutral (C*ab under `chroma`) print as 100% K: one ink, which
    misregistration cannot fringe. A colour of clear chroma is the designer's and is kept. A shop preset gives its own."""

    size_pt: float = 12.0
    line_pt: float = 1.0
    lightness: float = 30.0
    chroma: float = 25.0

    def black(self, rgba: Rgba) -> bool:
        lightness, chroma = lightness_chroma(flatten(rgba))
        return lightness <= self.lightness and chroma < self.chroma


def lightness_chroma(rgb: tuple[float, float, float]) -> tuple[float, float]:
    """CIE L* and C*ab of an sRGB colour (D65)."""
    linear = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
    r, g, b = linear
    xyz = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b, \
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    fx, fy, fz = (t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in xyz)
    return 116 * fy - 16, ((500 * (fx - fy)) ** 2 + (200 * (fy - fz)) ** 2) ** 0.5


class RgbPaint:
    """Colours as designed (the home-printing default)."""

    name = "rgb"
    draft = False

    def colour(self, rgba: Rgba) -> Color:
        return Color(rgba[0], rgba[1], rgba[2], alpha=rgba[3])

    def type_colour(self, rgba: Rgba, size_pt: float) -> Color:
        """The colour of text set at `size_pt`."""
        return self.colour(rgba)

    def line_colour(self, rgba: Rgba, width_pt: float) -> Color:
        """The colour of a stroke `width_pt` wide."""
        return self.colour(rgba)

    def image(self, path: str):
        return path


class GreyPaint(RgbPaint):
    """The draft proof: every colour as its grey (Rec. 709 luma), flattened over white, printed with black
    ink only (K-only CMYK), so that no printer mixes colour inks for a grey. With a `profile` the draft
    is also a PDF/X-1a file for that output condition (build --draft --color cmyk)."""

    name = "grey"
    draft = True

    def __init__(self, profile: Path | None = None):
        self.profile = Path(profile) if profile is not None else None

    def cmyk(self, rgba: Rgba) -> tuple[float, float, float, float]:
        r, g, b = flatten(rgba)
        grey = 0.2126 * r + 0.7152 * g + 0.0722 * b
        return (0.0, 0.0, 0.0, round(1 - grey, 4))

    def colour(self, rgba: Rgba) -> CMYKColor:
        return CMYKColor(*self.cmyk(rgba))

    def image(self, path: str):
        return PILImage.open(path).convert("L")


class CmykPaint:
    """Colour-managed sRGB -> CMYK for print shops (PDF/X-1a)."""

    name = "cmyk"
    draft = False

    def __init__(self, profile: Path, black_text: BlackText | None = BlackText()):
        self.profile = Path(profile)
        self.black_text = black_text
        self._transform = _transform(str(self.profile))

    def type_colour(self, rgba: Rgba, size_pt: float) -> CMYKColor:
        rule = self.black_text
        return K_ONLY if rule and size_pt <= rule.size_pt + 1e-9 and rule.black(rgba) else self.colour(rgba)

    def line_colour(self, rgba: Rgba, width_pt: float) -> CMYKColor:
        rule = self.black_text
        return K_ONLY if rule and width_pt <= rule.line_pt + 1e-9 and rule.black(rgba) else self.colour(rgba)

    def cmyk(self, rgba: Rgba) -> tuple[float, float, float, float]:
        return _convert(self._transform, tuple(round(v * 255) for v in flatten(rgba)))

    def colour(self, rgba: Rgba) -> CMYKColor:
        return CMYKColor(*self.cmyk(rgba))

    def image(self, path: str) -> PILImage.Image:
        """The image in CMYK; transparency is flattened over white (shop/flatten.py has already replaced any
        transparent image with what the RGB face shows there). Near-black pixels print with black ink only,
        as near-black vector colours do, not as the profile's four-colour black."""
        import numpy as np

        with PILImage.open(path) as image:
            rgba = image.convert("RGBA")
        white = PILImage.new("RGBA", rgba.size, (255, 255, 255, 255))
        flat = PILImage.alpha_composite(white, rgba).convert("RGB")
        cmyk = np.array(self._transform.apply(flat))
        brightest = np.asarray(flat).max(axis=-1)
        black = brightest <= NEAR_BLACK
        if black.any():
            cmyk[black] = 0
            cmyk[black, 3] = 255 - brightest[black]
        return PILImage.fromarray(cmyk, "CMYK")


K_ONLY = CMYKColor(0, 0, 0, 1)


@lru_cache(maxsize=8)
def _transform(profile: str):
    srgb = ImageCms.createProfile("sRGB")
    try:
        output = ImageCms.getOpenProfile(profile)
    except (OSError, ImageCms.PyCMSError) as exc:
        raise ValueError(f"{profile} is not a readable ICC profile: {exc}") from None
    if output.profile.xcolor_space.strip() != "CMYK":
        raise ValueError(f"{profile} is a {output.profile.xcolor_space.strip()} profile; a CMYK output profile is needed")
    return ImageCms.buildTransform(srgb, output, "RGB", "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


@lru_cache(maxsize=4096)
def _convert(transform, rgb: tuple[int, int, int]) -> tuple[float, float, float, float]:
    if max(rgb) <= NEAR_BLACK:
        return (0.0, 0.0, 0.0, round(1 - max(rgb) / 255, 4))  # black text and rules print as K only
    c, m, y, k = cast(tuple[int, int, int, int], transform.apply(PILImage.new("RGB", (1, 1), rgb)).getpixel((0, 0)))
    return round(c / 255, 4), round(m / 255, 4), round(y / 255, 4), round(k / 255, 4)
