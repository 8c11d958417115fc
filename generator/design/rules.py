"""The design rules, each judging laid-out faces and saying what it found at a template box.

The figures: WCAG 2.x contrast (4.5:1 under 14 pt, 3:1 from 14 pt) and 6 pt the smallest type, as the
prepress review of issue 38 measured them; 1/16 in (1.6 mm) the cutting tolerance print shops
state for a border near the trim (psprint.com, clearprint.com: "allow for +/- 1/16 in").
"""

from __future__ import annotations

import re
import statistics
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from spellpress.design import contrast, shapes
from spellpress.design.faces import Box, Face, Part
from spellpress.layout.ops import Ellipse, Fill, Grid, Icon, Image, Line, Rect, Text
from spellpress.model.game import RawBox

SMALL_PT = 14.0  # WCAG's large text starts here (the issue's and print-specs' figure)
CONTRAST_SMALL = 4.5
CONTRAST_LARGE = 3.0
SMALLEST_PT = 6.0
SHRUNK_SHARE = 0.8  # a text set below 80% of the usual size of its box's texts of the same length
SIBLINGS = 3  # texts of the same length on the component needed to know the usual size
CUT_TOLERANCE_MM = 25.4 / 16
FAINT = 1.5  # an icon this close to its ground's colour is a background picture, drawn over on purpose
FORGIVEN_MM = 0.05  # ink that touches by less than this is a rounding, not a collision
SLIVER_MM = 0.5  # two shapes' edges closer than this, not meeting, look like a misprint
TURNED_NUMERAL = re.compile(r"^[0-9]*[69][0-9]*$")  # a numeral that reads as another upside down


ALLOW_NAMES = {"collisions": "collision", "low_contrast": "contrast", "small_type": "small-type",
               "turned_numerals": "turned-numeral", "shrunk_text": "shrunk", "borders_at_trim": "border",
               "slivers": "sliver"}  # each rule by the name a box's `allow:` gives it


@dataclass(frozen=True)
class Finding:
    box: RawBox  # the template box it is about (its file:line is reported)
    message: str
    face: Face
    rule: str = ""  # the rule that found it (its function's name)


def check_faces(faces: Iterable[Face]) -> list[Finding]:
    """Every finding on the faces, but those a box's `allow:` names."""
    found: list[Finding] = []
    laid = list(faces)
    for face in laid:
        for rule in (collisions, low_contrast, small_type, turned_numerals, borders_at_trim, slivers):
            found += [Finding(box, message, face, rule.__name__) for box, message in rule(face)]
    found += shrunk_text(laid)
    return [f for f in found if ALLOW_NAMES[f.rule] not in _allowed(f.box)]


def _allowed(box: RawBox) -> tuple:
    allowed = box.values.get("allow", ())
    return allowed if isinstance(allowed, tuple) else ()  # a list as written (layout has validated its names)


def _content(box: Box, below: list[Part]) -> list[Part]:
    """The box's text and icons, but for a faint icon (under FAINT:1 against its ground): a picture in the
    background, meant to be drawn over."""
    return [part for part in box.parts if isinstance(part.op, Text)
            or (isinstance(part.op, Icon) and not _faint(part, below))]


def _faint(part: Part, below: list[Part]) -> bool:
    assert isinstance(part.op, Icon)
    ground = _ground(part, below)
    return ground is not None and contrast.ratio(contrast.over(part.op.color, ground[0]), ground[0]) < FAINT


def _what(part: Part) -> str:
    return "text" if isinstance(part.op, Text) else "icon"


def _shrunk(ink: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The ink less FORGIVEN_MM on every side (never less than its middle line: a hyphen stays a hyphen)."""
    x, y = (ink[0] + ink[2]) / 2, (ink[1] + ink[3]) / 2
    return (min(ink[0] + FORGIVEN_MM, x), min(ink[1] + FORGIVEN_MM, y), max(ink[2] - FORGIVEN_MM, x), max(ink[3] - FORGIVEN_MM,
                                                                                                          y))


def _on(part: Part, area) -> bool:
    """Whether what `part` draws lies on `area` (the ink of text or an icon drawn before it)."""
    op = part.op
    if isinstance(op, (Rect, Ellipse, Grid, Line)):
        return shapes.covers(op, area)
    if isinstance(op, Fill):
        return False  # a background (a late one hides everything, and shows at once)
    ink = part.ink
    return ink[0] < area[2] and area[0] < ink[2] and ink[1] < area[3] and area[1] < ink[3]


def collisions(face: Face) -> Iterator[tuple[RawBox, str]]:
    """A box drawn over the text or an icon of an earlier box, and text or an icon drawn across the
    edge of an earlier box's shape (an outline, or where a band's fill stops)."""
    below: list[Part] = []
    contents = []
    for box in face.boxes:
        contents.append(_content(box, below))
        below += box.parts
    for later_index, later in enumerate(face.boxes):
        for earlier_index, earlier in enumerate(face.boxes[:later_index]):
            hit = next(((part, under) for under in contents[earlier_index] for part in later.parts
                        if _on(part, _shrunk(under.ink))), None)
            if hit is not None:
                yield later.raw, (f"box '{later.name}' draws its {_kind(hit[0])} over the {_what(hit[1])} of box "
                                  f"'{earlier.name}' ({earlier.raw.location.path.name}:{earlier.raw.location.line})")
                continue
            edge = next(((part, shape) for part in contents[later_index] for shape in earlier.parts
                         if isinstance(shape.op, (Rect, Ellipse, Grid, Line)) and shapes.paints(shape.op)
                         and shapes.crosses_edge(shape.op, _shrunk(part.ink))), None)
            if edge is not None:
                yield later.raw, (f"the {_what(edge[0])} of box '{later.name}' lies across the edge of box "
                                  f"'{earlier.name}' ({earlier.raw.location.path.name}:{earlier.raw.location.line})")


def _kind(part: Part) -> str:
    op = part.op
    return "text" if isinstance(op, Text) else "icon" if isinstance(op, Icon) else \
        "image" if isinstance(op, Image) else "shape"


def low_contrast(face: Face) -> Iterator[tuple[RawBox, str]]:
    """Text whose colour is too close to what is printed beneath it."""
    below: list[Part] = []
    for box in face.boxes:
        for part in box.parts:
            op = part.op
            if isinstance(op, Text):
                worst = _worst_contrast(part, below)
                if worst is not None:
                    needed = CONTRAST_SMALL if op.size_pt < SMALL_PT else CONTRAST_LARGE
                    value, text, ground = worst
                    if value < needed - 0.005:
                        yield box.raw, (f"text {contrast.hex_of(text)} at {op.size_pt:g} pt on {contrast.hex_of(ground)} "
                                        f"has a contrast of {value:.2f}:1, under {needed:g}:1 "
                                        f"({'under' if op.size_pt < SMALL_PT else 'from'} {SMALL_PT:g} pt)")
                        break
        below += box.parts


def _ground(part: Part, below: list[Part]) -> tuple[contrast.Rgb, list] | None:
    """The colour printed beneath the middle of the part's ink (paper white under everything) and the
    colours of icons drawn beneath it there; None over an image (its colours are not known here)."""
    x = (part.ink[0] + part.ink[2]) / 2
    y = (part.ink[1] + part.ink[3]) / 2
    ground = contrast.PAPER
    icons = []
    for under in below:
        op = under.op
        here = under.ink[0] <= x <= under.ink[2] and under.ink[1] <= y <= under.ink[3]
        if isinstance(op, Fill):
            ground = contrast.over(op.color, ground)
        elif isinstance(op, (Rect, Ellipse, Grid)) and op.fill is not None and shapes.contains_point(op, x, y):
            ground = contrast.over(op.fill, ground)
        elif isinstance(op, Image) and here:
            return None
        elif isinstance(op, Icon) and here:
            icons.append(op.color)
    return ground, icons


def _worst_contrast(part: Part, below: list[Part]):
    """(ratio, text colour, ground) against the ground at the middle of the text's ink, and against each
    icon drawn beneath it there; None over an image."""
    found = _ground(part, below)
    if found is None:
        return None
    ground, icons = found
    grounds = [ground] + [contrast.over(color, ground) for color in icons]
    assert isinstance(part.op, Text)
    return min((contrast.ratio(contrast.over(part.op.color, g), g), contrast.over(part.op.color, g), g) for g in grounds)


def small_type(face: Face) -> Iterator[tuple[RawBox, str]]:
    for box in face.boxes:
        sizes = [part.op.size_pt for part in box.parts if isinstance(part.op, Text)]
        if sizes and min(sizes) < SMALLEST_PT - 1e-9:
            yield box.raw, f"text set at {min(sizes):g} pt, under {SMALLEST_PT:g} pt"


def turned_numerals(face: Face) -> Iterator[tuple[RawBox, str]]:
    """A 6 or 9 printed upside down reads as the other unless it carries a mark (9. or 6.)."""
    for box in face.boxes:
        for part in box.parts:
            if isinstance(part.op, Text) and part.angle == 180 and TURNED_NUMERAL.match(part.op.text.strip()):
                shown = part.op.text.strip()
                read = shown[::-1].translate(str.maketrans("69", "96"))
                yield box.raw, (f"'{shown}' printed upside down reads as '{read}': mark it (a full stop after it, "
                                "as '9.') in every corner")
                break


def borders_at_trim(face: Face) -> Iterator[tuple[RawBox, str]]:
    """A shape whose edge runs closer to the trim than the cutter's tolerance (and not into the bleed):
    cut a little off, it shows as a border thicker on one side than the other, or cut away."""
    if face.component.kind in ("sheet", "board"):
        return  # printed to be read, not cut to a card
    width, height = face.size
    for box in face.boxes:
        for part in box.parts:
            if not isinstance(part.op, (Rect, Ellipse, Grid, Line)) or not shapes.paints(part.op):
                continue
            left, bottom, right, top = part.ink
            gaps = {"left": left, "bottom": bottom, "right": width - right, "top": height - top}
            side, gap = min(gaps.items(), key=lambda item: item[1])
            if 1e-6 < gap < CUT_TOLERANCE_MM:
                yield box.raw, (f"its ink comes within {gap:.2f} mm of the trim at the {side}, inside the cutting "
                                f"tolerance of {CUT_TOLERANCE_MM:.1f} mm: move it at least "
                                f"{CUT_TOLERANCE_MM:.1f} mm in, or out into the bleed")
                break


def slivers(face: Face) -> Iterator[tuple[RawBox, str]]:
    """Two shapes whose painted edges run side by side under SLIVER_MM apart without meeting: a band
    that stops a hair short of its frame reads as a misprint (it was meant to meet it)."""
    for later_index, later in enumerate(face.boxes):
        for earlier in face.boxes[:later_index]:
            gap = min((g for a in later.parts for b in earlier.parts for g in _gaps(a.op, b.op)), default=None)
            if gap is not None:
                yield later.raw, (f"its edge stops {gap:.2f} mm short of the edge of box '{earlier.name}' "
                                  f"({earlier.raw.location.path.name}:{earlier.raw.location.line}): make them meet, "
                                  f"or part them by {SLIVER_MM:g} mm or more")
                break


def _gaps(first, second) -> Iterator[float]:
    for axis, position, low, high, paint in shapes.edges(first):
        for axis2, position2, low2, high2, paint2 in shapes.edges(second):
            if axis != axis2 or min(high, high2) - max(low, low2) < SLIVER_MM:
                continue
            (below, below_paint), (above, above_paint) = sorted(((position, paint), (position2, paint2)))
            if below_paint < 0 < above_paint and FORGIVEN_MM < above - below < SLIVER_MM:
                yield above - below


def shrunk_text(laid: list[Face]) -> list[Finding]:
    """Text shrunk to fit far below the usual size of its box on the same component, among texts of the
    same length (a Q whose tail made its letter smaller than every other letter)."""
    sizes: dict[tuple[str, str, str, int, str], list[tuple[float, Face, RawBox]]] = defaultdict(list)
    for face in laid:
        for box in face.boxes:
            runs = [part.op for part in box.parts if isinstance(part.op, Text)]
            if runs:
                length = sum(len(run.text.strip()) for run in runs)
                sizes[(face.component.id, face.side, box.name, length, face.at)].append((max(r.size_pt for r in runs), face,
                                                                                         box.raw))
    found = []
    for members in sizes.values():
        if len(members) < SIBLINGS:
            continue
        usual = statistics.median(size for size, _, _ in members)
        for size, face, raw in members:
            if size < SHRUNK_SHARE * usual:
                found.append(Finding(raw, f"text shrunk to {size:g} pt to fit, far below the {usual:g} pt of the "
                                          f"other texts of its length in this box on '{face.component.id}': "
                                          f"make the box fit it (or let its ink overflow: overflow: true)", face,
                                     "shrunk_text"))
    return found
