"""How a face's colours become PDF colours: RGB as designed, CMYK through an ICC profile, or a grey draft.

The layout speaks sRGB (0..1 with alpha). A Paint turns each colour, icon and raster
image into what the page needs. CMYK goes through a littleCMS transform (Pillow's
ImageCms) from sRGB to the output profile; alpha is flattened over white paper, since
PDF/X-1a allows no transparency, and pure black becomes K only, never rich black.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import cast

from PIL import Image as PILImage
from PIL import ImageCms
from reportlab.lib.colors import CMYKColor, Color

Rgba = tuple[float, float, float, float]


def flatten(rgba: Rgba) -> tuple[float, float, float]:
    """The colour seen on white paper: alpha composited over white."""
    r, g, b, a = rgba
    return (r * a + 1 - a, g * a + 1 - a, b * a + 1 - a)


class RgbPaint:
    """Colours as designed (the home-printing default)."""

    name = "rgb"
    draft = False

    def colour(self, rgba: Rgba) -> Color:
        return Color(rgba[0], rgba[1], rgba[2], alpha=rgba[3])

    def image(self, path: str):
        return path


class GreyPaint(RgbPaint):
    """The draft proof: every colour as its grey (Rec. 709 luma), flattened over white."""

    name = "grey"
    draft = True

    def colour(self, rgba: Rgba) -> Color:
        r, g, b = flatten(rgba)
        grey = 0.2126 * r + 0.7152 * g + 0.0722 * b
        return Color(grey, grey, grey)

    def image(self, path: str):
        return PILImage.open(path).convert("L")


class CmykPaint:
    """Colour-managed sRGB -> CMYK for print shops (PDF/X-1a)."""

    name = "cmyk"
    draft = False

    def __init__(self, profile: Path):
        self.profile = Path(profile)
        self._transform = _transform(str(self.profile))

    def cmyk(self, rgba: Rgba) -> tuple[float, float, float, float]:
        return _convert(self._transform, tuple(round(v * 255) for v in flatten(rgba)))

    def colour(self, rgba: Rgba) -> CMYKColor:
        return CMYKColor(*self.cmyk(rgba))

    def image(self, path: str) -> PILImage.Image:
        with PILImage.open(path) as image:
            rgba = image.convert("RGBA")
        white = PILImage.new("RGBA", rgba.size, (255, 255, 255, 255))
        flat = PILImage.alpha_composite(white, rgba).convert("RGB")
        return self._transform.apply(flat)


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
    if rgb == (0, 0, 0):
        return (0.0, 0.0, 0.0, 1.0)  # pure black text and rules print as K only
    c, m, y, k = cast(tuple[int, int, int, int], transform.apply(PILImage.new("RGB", (1, 1), rgb)).getpixel((0, 0)))
    return round(c / 255, 4), round(m / 255, 4), round(y / 255, 4), round(k / 255, 4)
