"""Text contrast as WCAG 2.x measures it: the ratio of the relative luminances of the text's colour and
the colour printed beneath it (paper white where nothing is)."""

from __future__ import annotations

from spellpress.layout.ops import Rgba

PAPER = (1.0, 1.0, 1.0)
Rgb = tuple[float, float, float]


def over(color: Rgba, beneath: Rgb) -> Rgb:
    """`color` painted with its opacity over `beneath`."""
    alpha = color[3]
    return (color[0] * alpha + beneath[0] * (1 - alpha), color[1] * alpha + beneath[1] * (1 - alpha),
            color[2] * alpha + beneath[2] * (1 - alpha))


def luminance(color: Rgb) -> float:
    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in color)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def ratio(first: Rgb, second: Rgb) -> float:
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def hex_of(color: Rgb) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in color)
