"""Rectangles and the room around them, in mm, named so that their order cannot be mixed up.

Both are tuples underneath (a Box unpacks as x, y, w, h), so pure geometry stays cheap and hashable.
"""

from __future__ import annotations

from typing import NamedTuple


class Box(NamedTuple):
    """A rectangle: (x, y) its bottom-left corner (PDF style), w and h its size."""

    x: float
    y: float
    w: float
    h: float


class Margins(NamedTuple):
    """Room kept free inside each edge of an area."""

    left: float
    right: float
    bottom: float
    top: float

    @classmethod
    def even(cls, room: float) -> Margins:
        return cls(room, room, room, room)
