"""Raster exports, rasterized from the same PDF drawing: PNG per card and TTS deck sheets."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from generator.layout.deck import CardFaces
from generator.layout.ops import FaceLayout
from generator.progress import track
from generator.render.forms import FormBook
from generator.units import MM_PER_INCH, mm_to_px
from generator.write.atomic import atomic_folder
from generator.write.canvas import new_canvas
from generator.write.pdf import single_face_page

PNG_DPI = 300
TTS_COLS, TTS_ROWS = 10, 7
TTS_MAX_WIDTH_PX = 10_000


def faces_pdf(faces: list[FaceLayout], title: str) -> bytes:
    """A PDF with one face (bleed included) per page."""
    buffer = BytesIO()
    first = faces[0]
    canvas = new_canvas(buffer, (first.width + 2 * first.bleed, first.height + 2 * first.bleed), title)
    forms = FormBook(canvas)
    for face in faces:
        single_face_page(canvas, forms, face)
    canvas.save()
    return buffer.getvalue()


def rasterize(faces: list[FaceLayout], title: str, dpi: int = PNG_DPI, progress: bool = True) -> list[Image.Image]:
    """Each face as an RGB image at `dpi`, bleed included; identical faces are drawn once."""
    unique = list(dict.fromkeys(faces))
    document = pdfium.PdfDocument(faces_pdf(unique, title))
    images: dict[FaceLayout, Image.Image] = {}
    try:
        for face, page in zip(unique, track(document, f"rasterizing {title}", len(unique), enabled=progress)):
            width = mm_to_px(face.width + 2 * face.bleed, dpi)
            height = mm_to_px(face.height + 2 * face.bleed, dpi)
            bitmap = page.render(scale=dpi / 72.0, draw_annots=False)
            image = bitmap.to_pil().convert("RGB")
            images[face] = image if image.size == (width, height) else image.resize((width, height))
    finally:
        document.close()
    return [images[face] for face in faces]


def rasterize_pdf(pdf: bytes, dpi: int) -> list[Image.Image]:
    """Every page of a PDF as an RGB image at `dpi`."""
    document = pdfium.PdfDocument(pdf)
    try:
        return [page.render(scale=dpi / 72.0, draw_annots=False).to_pil().convert("RGB") for page in document]
    finally:
        document.close()


def encode_png(image: Image.Image, dpi: int, level: int = 6) -> bytes:
    buffer = BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi), optimize=False, compress_level=level)
    return buffer.getvalue()


def _png_bytes(image: Image.Image, dpi: int) -> bytes:
    return encode_png(image, dpi)


def write_pngs(laid: list[CardFaces], folder: Path, title: str) -> list[Path]:
    """png/<component>/<card>-front.png and -back.png, 300 dpi with bleed; one per distinct card."""
    faces = [face for f in laid for face in (f.front, f.back) if face is not None]
    images = iter(rasterize(faces, title))
    written: list[Path] = []
    with atomic_folder(folder) as temporary:
        for f in laid:
            for side, face in (("front", f.front), ("back", f.back)):
                if face is None:
                    continue
                relative = Path(f.component.id) / f"{f.card.id}-{side}.png"
                target = temporary / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(_png_bytes(next(images), PNG_DPI))
                written.append(folder / relative)
    return written


def trim(image: Image.Image, face: FaceLayout, dpi: int) -> Image.Image:
    b = mm_to_px(face.bleed, dpi)
    return image.crop((b, b, image.width - b, image.height - b))


def write_tts(laid: list[CardFaces], folder: Path, title: str) -> list[Path]:
    """Per component: deck sheets of at most 10 x 7 (last slot the hidden card) and a back image."""
    written: list[Path] = []
    with atomic_folder(folder) as temporary:
        for component_id in dict.fromkeys(f.component.id for f in laid):
            group = [f for f in laid if f.component.id == component_id]
            copies = [f.front for f in group for _ in range(f.card.count)]
            first = copies[0]
            dpi = min(PNG_DPI, int(TTS_MAX_WIDTH_PX / TTS_COLS / (first.width / MM_PER_INCH)))
            fronts = [trim(image, first, dpi) for image in rasterize(copies, title, dpi)]
            back_face = group[0].back
            back = trim(rasterize([back_face], title, dpi)[0], back_face, dpi) if back_face else Image.new("RGB", fronts[0].size, "#808080")
            per_sheet = TTS_COLS * TTS_ROWS - 1
            for number, start in enumerate(range(0, len(fronts), per_sheet), start=1):
                chunk = fronts[start : start + per_sheet]
                sheet = _sheet(chunk, hidden=back)
                name = f"{component_id}-sheet{number}-{len(chunk)}cards.png"
                (temporary / name).write_bytes(_png_bytes(sheet, dpi))
                written.append(folder / name)
            (temporary / f"{component_id}-back.png").write_bytes(_png_bytes(back, dpi))
            written.append(folder / f"{component_id}-back.png")
    return written


def _sheet(cards: list[Image.Image], hidden: Image.Image) -> Image.Image:
    """TTS reads a sheet as a 10 x 7 grid (fewer rows when the deck is small); the last slot is hidden."""
    width, height = cards[0].size
    rows = min(TTS_ROWS, (len(cards) + 1 + TTS_COLS - 1) // TTS_COLS)
    sheet = Image.new("RGB", (TTS_COLS * width, rows * height), "white")
    for index, image in enumerate(cards):
        sheet.paste(image.resize((width, height)), ((index % TTS_COLS) * width, (index // TTS_COLS) * height))
    sheet.paste(hidden.resize((width, height)), ((TTS_COLS - 1) * width, (rows - 1) * height))
    return sheet
