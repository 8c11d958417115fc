"""Write: PDFs, PNGs, Tabletop Simulator sheets and the manifest, atomically, into output/."""
