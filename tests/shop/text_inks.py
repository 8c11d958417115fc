"""Preflight of a PDF's text and strokes: each text-showing operator with the size it is drawn at
(font size through the text and transformation matrices, forms included) and its fill colour;
each stroke with its width and colour. As a prepress checker reads the file, not as Spellpress
meant it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import pikepdf
from PIL import Image, ImageCms

SHOW = {"Tj", "TJ", "'", '"'}
STROKE = {"S", "s", "B", "B*", "b", "b*"}


@dataclass(frozen=True)
class Run:
    kind: str  # "text" or "stroke"
    size: float  # text: points as drawn; stroke: line width in points
    colour: tuple[float, ...]  # fill (text) or stroke colour as given: 4 values for CMYK, 1 grey, 3 RGB
    page: int


def _multiply(a, b):
    a1, b1, c1, d1, e1, f1 = a
    a2, b2, c2, d2, e2, f2 = b
    return (a1 * a2 + b1 * c2, a1 * b2 + b1 * d2, c1 * a2 + d1 * c2, c1 * b2 + d1 * d2,
            e1 * a2 + f1 * c2 + e2, e1 * b2 + f1 * d2 + f2)


def _scale(m) -> float:
    return abs(m[0] * m[3] - m[1] * m[2]) ** 0.5


def runs(path) -> list[Run]:
    """Every run of the file; a form (a card face drawn for each copy) is read where it is first drawn."""
    found: list[Run] = []
    seen: set = set()
    with pikepdf.open(path) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            _walk(page.obj, page.obj.get("/Resources"), (1, 0, 0, 1, 0, 0), number, found, seen)
    return found


def _walk(owner, resources, ctm, page: int, found: list[Run], seen: set) -> None:
    state = {"ctm": ctm, "fill": (0.0,), "stroke": (0.0,), "width": 1.0}
    stack = []
    font_size, tm = 0.0, (1, 0, 0, 1, 0, 0)
    for operands, operator in pikepdf.parse_content_stream(owner):
        op = str(operator)
        values = [float(v) for v in operands if _number(v)]
        if op == "q":
            stack.append(dict(state))
        elif op == "Q":
            state = stack.pop()
        elif op == "cm":
            state["ctm"] = _multiply(tuple(values), state["ctm"])
        elif op in ("k", "g", "rg"):
            state["fill"] = tuple(values)
        elif op in ("K", "G", "RG"):
            state["stroke"] = tuple(values)
        elif op == "w":
            state["width"] = values[0]
        elif op == "BT":
            tm = (1, 0, 0, 1, 0, 0)
        elif op == "Tf":
            font_size = values[-1]
        elif op == "Tm":
            tm = tuple(values)
        elif op in SHOW:
            found.append(Run("text", font_size * _scale(_multiply(tm, state["ctm"])), state["fill"], page))
        elif op in STROKE:
            found.append(Run("stroke", state["width"] * _scale(state["ctm"]), state["stroke"], page))
        elif op == "Do" and resources is not None:
            xobject = resources.get("/XObject", {}).get(str(operands[0]))
            if xobject is not None and xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
                seen.add(xobject.objgen)
                matrix = tuple(float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0]))
                _walk(xobject, xobject.get("/Resources", resources), _multiply(matrix, state["ctm"]), page, found, seen)


def _number(value) -> bool:
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


def inks(colour: tuple[float, ...]) -> int:
    """How many inks a colour puts down (an RGB or grey colour is counted as the CMYK it would need)."""
    if len(colour) == 4:
        return sum(1 for v in colour if v > 0.004)
    if len(colour) == 1:
        return 1 if colour[0] < 0.996 else 0
    return 3


@lru_cache(maxsize=4)
def _to_lab(profile: str):
    return ImageCms.buildTransform(ImageCms.getOpenProfile(profile), ImageCms.createProfile("LAB"), "CMYK", "LAB",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)


@lru_cache(maxsize=4096)
def lightness_chroma(colour: tuple[float, ...], profile: str) -> tuple[float, float]:
    """CIE L* and C*ab of a CMYK colour printed on the profile's condition."""
    pixel = Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in colour))
    lab = _to_lab(profile).apply(pixel).getpixel((0, 0))
    return lab[0] / 2.55, ((lab[1] - 128) ** 2 + (lab[2] - 128) ** 2) ** 0.5


def dark(run: Run, profile: str, lightness: float, chroma: float) -> bool:
    """A run whose CMYK colour prints at most `lightness` L* with chroma under `chroma` (grey and K-only runs are dark
    by their K)."""
    if len(run.colour) == 1:
        return 1 - run.colour[0] >= 0.5
    if len(run.colour) != 4:
        return True  # RGB in a CMYK file: always reported
    found_lightness, found_chroma = lightness_chroma(run.colour, profile)
    return found_lightness <= lightness and found_chroma < chroma
