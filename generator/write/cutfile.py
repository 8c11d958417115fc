"""Cut files for print-and-cut machines: one SVG per cutter sheet, the trim of every card.

Opened in Silhouette Studio (Designer Edition or above reads SVG) on a page of the same
size with Type 1 registration marks, the outlines sit exactly over the printed cards.
Sizes are in mm (viewBox in mm, origin at the top-left as SVG has it).
"""

from __future__ import annotations

from spellpress.impose.sheets import Page


def cut_svg(page: Page, radius: float = 0.0) -> str:
    width, height = page.paper
    shapes = []
    for placed in page.placed:
        s = placed.slot
        r = min(radius, s.w / 2, s.h / 2)
        top = height - s.y - s.h
        shapes.append(f'  <rect x="{s.x:.3f}" y="{top:.3f}" width="{s.w:.3f}" height="{s.h:.3f}" rx="{r:.3f}" ry="{r:.3f}"/>')
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}mm" height="{height:g}mm" '
        f'viewBox="0 0 {width:g} {height:g}">\n'
        '<g fill="none" stroke="#ff0000" stroke-width="0.1">\n' + "\n".join(shapes) + "\n</g>\n</svg>\n"
    )
