"""The print-shop PDF, <game>-print-shop.pdf: one card side a page with TrimBox and BleedBox, each copy's
back then front (`--print-shop`; write/pdf.py)."""

from __future__ import annotations

from spellpress.exporters import PdfExport, Sheets


def _write(sheets: Sheets, settings) -> list:
    from spellpress.render.keys import faces_key
    from spellpress.write.atomic import write_bytes
    from spellpress.write.pdf import print_shop_pdf

    path = sheets.out / f"{sheets.game.id}-print-shop.pdf"
    pairs = [(f.front, f.back) for f in sheets.laid for _ in range(f.card.count)]
    key = faces_key((face for pair in pairs for face in pair), repr(sheets.info))
    write_bytes(path, sheets.cache.bytes("pdf", key, lambda: print_shop_pdf(pairs, sheets.info)))
    return [path]


EXPORT = PdfExport(
    name="print-shop", order=40, label="print shop", flag="--print-shop",
    summary="also write a one-card-a-page PDF with TrimBox and BleedBox, back then front",
    write=_write,
)
