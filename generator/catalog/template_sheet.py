"""A contact sheet of the shared templates: each drawn as a card of a game would print it, filled with
the `example:` fields its YAML gives, with its name, parent, description and fields beside it.

The cards go through the same loading and layout as a build (a one-card component per template in
a throwaway game folder), so the preview is what a game using the template prints.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

import yaml
from reportlab.lib.utils import simpleSplit

from spellpress.layout.deck import layout_game
from spellpress.layout.ops import FaceLayout
from spellpress.load.game import load_game
from spellpress.model.template import TemplateExample
from spellpress.render.forms import FormBook
from spellpress.units import mm_to_pt
from spellpress.write.canvas import LABEL_FONT, new_canvas

A4 = (210.0, 297.0)
MARGIN = 12.0  # mm
TITLE_SPACE = 10.0
COLUMNS, ROWS = 3, 2
CAPTION = 30.0  # mm under each card for its name, parent, description and fields
CAPTION_PT = 6.5
GREY = (0.55, 0.55, 0.6)


@dataclass(frozen=True)
class TemplatePreview:
    name: str
    parent: str | None
    description: str
    fields: str  # the template's own note of its fields ('' when it has none)
    face: FaceLayout


def shared_template_previews(folder: Path) -> list[TemplatePreview]:
    """Every template of `folder` drawn with its example (a UserError names a template whose example
    does not draw, at its file and line)."""
    notes = {}
    components = []
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        example = TemplateExample.model_validate(data.get("example") or {})
        notes[path.stem] = (data.get("extends"), data.get("description", ""), _fields_note(path))
        components.append({"id": path.stem, "name": path.stem, "template": path.stem, "size": example.size,
                           "cards": [{"id": path.stem, **example.fields}]})
    with tempfile.TemporaryDirectory(prefix="spellpress-templates-") as scratch:
        game = Path(scratch) / "shared-templates"
        game.mkdir()
        files = []
        for component in components:
            file = f"{component['id']}.yaml"
            (game / file).write_text(yaml.safe_dump(component, allow_unicode=True), encoding="utf-8")
            files.append(file)
        (game / "game.yaml").write_text(yaml.safe_dump({"name": "Shared templates", "players": {"min": 1, "max": 1},
                                                        "components": files}), encoding="utf-8")
        laid = layout_game(load_game(game), bleed=0.0)
    return [TemplatePreview(faces.component.id, *notes[faces.component.id], faces.front) for faces in laid]


def _fields_note(path: Path) -> str:
    """The 'Fields: ...' line of the template's opening comment, as written."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        if "Field" in line:
            return line.split("Field", 1)[1].lstrip("s:").strip()
    return ""


def template_sheet_pdf(previews: list[TemplatePreview], title: str) -> bytes:
    buffer = BytesIO()
    canvas = new_canvas(buffer, A4, title)
    forms = FormBook(canvas)
    per_page = COLUMNS * ROWS
    pages = max(1, -(-len(previews) // per_page))
    cell_w = (A4[0] - 2 * MARGIN) / COLUMNS
    cell_h = (A4[1] - 2 * MARGIN - TITLE_SPACE) / ROWS
    for page in range(pages):
        canvas.setFont(LABEL_FONT, 9)
        canvas.setFillColorRGB(0, 0, 0)
        canvas.drawString(mm_to_pt(MARGIN), mm_to_pt(A4[1] - MARGIN - 3),
                          f"{title} - page {page + 1} of {pages} - cards drawn with each template's example fields")
        on_page = previews[page * per_page:(page + 1) * per_page]
        for index, preview in enumerate(on_page):
            column, row = index % COLUMNS, index // COLUMNS
            left = MARGIN + column * cell_w
            top = A4[1] - MARGIN - TITLE_SPACE - row * cell_h
            in_row = on_page[row * COLUMNS:(row + 1) * COLUMNS]
            tallest = max(p.face.height * _scale(p.face, cell_w, cell_h) for p in in_row)
            _draw_preview(canvas, forms, preview, left, top, cell_w, cell_h, caption_y=top - 2 - tallest - 5)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _scale(face: FaceLayout, cell_w: float, cell_h: float) -> float:
    """Actual size, or smaller to fit the cell above its caption."""
    return min(1.0, (cell_w - 4) / face.width, (cell_h - CAPTION - 4) / face.height)


def _draw_preview(canvas, forms: FormBook, preview: TemplatePreview, left: float, top: float, cell_w: float,
                  cell_h: float, caption_y: float) -> None:
    face = preview.face
    scale = _scale(face, cell_w, cell_h)
    x = left + (cell_w - face.width * scale) / 2
    y = top - 2 - face.height * scale
    canvas.saveState()
    canvas.translate(mm_to_pt(x), mm_to_pt(y))
    canvas.scale(scale, scale)
    canvas.doForm(forms.name(face))
    canvas.setStrokeColorRGB(*GREY)
    canvas.setLineWidth(0.3 / scale)
    canvas.rect(0, 0, mm_to_pt(face.width), mm_to_pt(face.height))  # the trim
    canvas.restoreState()
    lines = [f"{preview.name}" + (f" (extends {preview.parent})" if preview.parent else ""),
             f"{face.width:g} x {face.height:g} mm" + (f", shown at {scale:.0%}" if scale < 1 else ", actual size")]
    lines += simpleSplit(preview.description, LABEL_FONT, CAPTION_PT, mm_to_pt(cell_w - 4))
    if preview.fields:
        lines += simpleSplit(f"fields: {preview.fields}", LABEL_FONT, CAPTION_PT, mm_to_pt(cell_w - 4))
    text_y = caption_y  # the captions of a row on one line, under its tallest card
    canvas.setFillColorRGB(0, 0, 0)
    for number, line in enumerate(lines[:7]):
        canvas.setFont(LABEL_FONT, 8 if number == 0 else CAPTION_PT)
        canvas.drawString(mm_to_pt(left + 2), mm_to_pt(text_y), line)
        text_y -= 3.6 if number == 0 else 2.8
