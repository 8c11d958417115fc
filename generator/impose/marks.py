"""Marks beyond crop marks, as pure geometry: full cut lines, rounded-corner guides and the
registration marks of print-and-cut machines. All mm, origin at the paper's bottom-left corner.

Cutter marks follow Silhouette Studio's "Type 1" registration marks (Silhouette Cameo,
Portrait and Curio read them with their optical sensor): a filled square at the top-left
corner and L-shaped corners at the top-right and bottom-left, each set in from the
paper's edges by the inset. Set Studio's Registration Marks panel to the same style,
length, thickness and inset (CUTTER below) so it looks for them where they are. Nothing
may be printed in the band between the marks and the paper's edge, nor next to the marks:
the sheet keeps every card inside the marks with CUTTER_CLEARANCE to spare.
(Cricut's Print Then Cut prints its own marks from Design Space; print a --marks none
sheet's PNGs through it instead.)
"""

from __future__ import annotations

from dataclasses import dataclass

from spellpress.impose.grid import LABEL_ROOM, MARK_EDGE, Segment, Slot, cut_lines
from spellpress.impose.label import LabelSpot


@dataclass(frozen=True)
class CutterMarks:
    square: float = 5.0  # the top-left square's side
    length: float = 20.0  # each arm of an L corner
    thickness: float = 0.5
    inset: float = 10.0  # from the paper's edges to the marks' outer edges


CUTTER = CutterMarks()
CUTTER_CLEARANCE = 2.0


@dataclass(frozen=True)
class Decor:
    """Everything a sheet draws besides faces, crop marks and the label."""

    lines: tuple[Segment, ...] = ()
    guides: tuple[tuple[float, float, float, int], ...] = ()  # (centre x, centre y, radius, start angle) quarter arcs
    rects: tuple[tuple[float, float, float, float], ...] = ()  # filled black rectangles (x, y, w, h): cutter marks
    weight_pt: float = 0.25
    label: LabelSpot | None = None  # where the sheet's label line goes; None: the sheet has no room for it


def full_cut_lines(slots: tuple[Slot, ...], paper: tuple[float, float]) -> tuple[Segment, ...]:
    """A line the width (or height) of the printable area, below the label's line, through every cut line."""
    if not slots:
        return ()
    width, height = paper
    xs, ys = cut_lines(slots)
    vertical = [Segment(x, MARK_EDGE, x, height - MARK_EDGE - LABEL_ROOM) for x in xs]
    horizontal = [Segment(MARK_EDGE, y, width - MARK_EDGE, y) for y in ys]
    return tuple(vertical + horizontal)


def corner_guides(slots: tuple[Slot, ...], radius: float) -> tuple[tuple[float, float, float, int], ...]:
    """Quarter arcs of `radius` at each card's four corners: where a corner rounder cuts."""
    if radius <= 0:
        return ()
    arcs = []
    for s in slots:
        r = min(radius, s.w / 2, s.h / 2)
        arcs += [
            (s.x + r, s.y + r, r, 180),  # bottom-left: from 180 to 270 degrees
            (s.x + s.w - r, s.y + r, r, 270),
            (s.x + s.w - r, s.y + s.h - r, r, 0),
            (s.x + r, s.y + s.h - r, r, 90),
        ]
    return tuple(arcs)


def cutter_marks(paper: tuple[float, float], marks: CutterMarks = CUTTER) -> tuple[tuple[float, float, float, float], ...]:
    """The filled rectangles of Silhouette Type 1 registration marks."""
    width, height = paper
    i, t, n, q = marks.inset, marks.thickness, marks.length, marks.square
    top, right = height - i, width - i
    return (
        (i, top - q, q, q),  # top-left square
        (right - n, top - t, n, t), (right - t, top - n, t, n),  # top-right L
        (i, i, n, t), (i, i, t, n),  # bottom-left L
    )


def cutter_room(marks: CutterMarks = CUTTER) -> float:
    """Paper between the edge and any card's ink on a cutter sheet."""
    return marks.inset + max(marks.square, marks.thickness) + CUTTER_CLEARANCE


def within_cutter_area(slots: tuple[Slot, ...], paper: tuple[float, float], marks: CutterMarks = CUTTER) -> bool:
    room = cutter_room(marks) - 1e-6
    width, height = paper
    return all(s.clip[0] >= room and s.clip[1] >= room and s.clip[0] + s.clip[2] <= width - room
               and s.clip[1] + s.clip[3] <= height - room for s in slots)
