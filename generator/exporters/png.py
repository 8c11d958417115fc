"""PNG: a picture per card side, 300 dpi with bleed, in png/<component>/ (`--png`)."""

from __future__ import annotations

from spellpress.exporters import Export


def _prefetch(laid, raster) -> None:
    from spellpress.write.raster import PNG_DPI

    raster.prefetch((face for f in laid for face in (f.front, f.back) if face is not None), PNG_DPI)


def _write(laid, folder, title, raster):
    from spellpress.write.raster import write_pngs

    return write_pngs(laid, folder, title, raster)


EXPORT = Export(
    name="png", order=10, label="PNG", flag="--png",
    summary="also write a PNG per card side, 300 dpi with bleed",
    plan=lambda game, laid, settings: laid, prefetch=_prefetch, write=_write,
)
