"""Rasterize built PDFs to PNG pages for a person to look at: python -m spellpress.tools.proof [FOLDER] [--dpi N]."""

from __future__ import annotations

import argparse
from pathlib import Path

import pypdfium2 as pdfium


def proof(pdf: Path, out: Path, dpi: int) -> list[Path]:
    document = pdfium.PdfDocument(pdf)
    written = []
    try:
        for number, page in enumerate(document, start=1):
            target = out / f"{pdf.stem}-p{number:02d}.png"
            page.render(scale=dpi / 72.0).to_pil().save(target)
            written.append(target)
    finally:
        document.close()
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", nargs="?", type=Path, default=Path("output"))
    parser.add_argument("--dpi", type=int, default=60)
    args = parser.parse_args()
    out = args.folder / "proof"
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for pdf in sorted(args.folder.glob("*/*.pdf")):
        count += len(proof(pdf, out, args.dpi))
    print(f"{count} pages rasterized into {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
