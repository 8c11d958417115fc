"""Where a sheet's label line goes: in a band of paper the cards and marks leave free, or nowhere.

The label keeps no room of its own (a sheet holds the most cards first); it is set along the top
or the bottom when the sheet has a band there, else turned along a side margin between two cut
lines, else left out. All mm, origin at the paper's bottom-left corner.
"""

from __future__ import annotations

from dataclasses import dataclass

from spellpress.impose.grid import MARK_EDGE, Segment, Slot

LABEL_HEIGHT = 2.5  # the line's ascenders to descenders at its largest size
ASCENT = 1.9  # from its baseline to the top of its capitals
CLEAR = 0.5  # between the label and any ink, mark or line
SMALLEST_LENGTH = 40.0  # a shorter band would shrink the label past reading


@dataclass(frozen=True)
class LabelSpot:
    x: float  # the middle of the baseline
    y: float
    angle: int  # 0: along the top or bottom; 90: up a side margin
    length: float  # the longest the line may be


def label_spot(paper: tuple[float, float], slots: tuple[Slot, ...], lines: tuple[Segment, ...] = (),
               avoid_y: tuple[float, ...] = ()) -> LabelSpot | None:
    """The best free band for the label: top, bottom, left side, right side; None when none has room.
    `lines` are the sheet's marks and cut lines; `avoid_y` other heights a side label must not cross
    (a fold line)."""
    width, height = paper
    ink = [s.clip for s in slots]
    ink_left = min((c[0] for c in ink), default=width / 2)
    ink_right = max((c[0] + c[2] for c in ink), default=width / 2)
    ink_bottom = min((c[1] for c in ink), default=height / 2)
    ink_top = max((c[1] + c[3] for c in ink), default=height / 2)
    ys = [v for line in lines for v in (line.y1, line.y2)]
    across = width - 2 * MARK_EDGE

    top_free = max([ink_top] + [y for y in ys if y > ink_top]) + CLEAR
    if height - MARK_EDGE - top_free >= LABEL_HEIGHT:
        return LabelSpot(width / 2, height - MARK_EDGE - ASCENT, 0, across)
    bottom_free = min([ink_bottom] + [y for y in ys if y < ink_bottom]) - CLEAR
    if bottom_free - MARK_EDGE >= LABEL_HEIGHT:
        return LabelSpot(width / 2, MARK_EDGE + LABEL_HEIGHT - ASCENT, 0, across)
    # up a side: only vertical lines bound the band; horizontal ones (marks at the cut lines) are stops along it
    upright = [line.x1 for line in lines if line.x1 == line.x2]
    left_free = min([ink_left] + [x for x in upright if x < ink_left]) - CLEAR
    right_free = max([ink_right] + [x for x in upright if x > ink_right]) + CLEAR
    for room, baseline, crossing in (
        (left_free - MARK_EDGE, MARK_EDGE + ASCENT, lambda line: min(line.x1, line.x2) < left_free),
        (width - MARK_EDGE - right_free, width - MARK_EDGE - LABEL_HEIGHT + ASCENT,
         lambda line: max(line.x1, line.x2) > right_free),
    ):
        if room < LABEL_HEIGHT:
            continue
        stops = sorted({MARK_EDGE, height - MARK_EDGE, *avoid_y,
                        *(line.y1 for line in lines if line.y1 == line.y2 and crossing(line))})
        low, high = max(zip(stops, stops[1:], strict=False), key=lambda pair: pair[1] - pair[0])
        if high - low - 2 * CLEAR >= SMALLEST_LENGTH:
            return LabelSpot(baseline, (low + high) / 2, 90, high - low - 2 * CLEAR)
    return None
