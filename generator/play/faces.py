"""The table's card faces: the preview's renders, by component and card id (nothing in a URL is a file path)."""

from __future__ import annotations

import logging
import threading

from spellpress.serve.preview import PREVIEW_DPI, Preview

log = logging.getLogger("spellpress.play")


class Faces:
    """Rendered faces by (component id, card id), and each component's back."""

    def __init__(self, preview: Preview):
        self.preview = preview
        snapshot = preview.state.snapshot
        self.fronts: dict[tuple[str, str], str] = {}
        self.backs: dict[str, str] = {}
        if snapshot is None:
            return
        for faces in snapshot.laid:
            self.fronts[(faces.component.id, faces.card.id)] = snapshot.keys[faces.front]
            if faces.back is not None:
                self.backs.setdefault(faces.component.id, snapshot.keys[faces.back])

    def png(self, key: str | None) -> bytes | None:
        return None if key is None else self.preview.image(key, PREVIEW_DPI)

    def prefetch(self) -> None:
        """Draw every face now, in the background: the first face asked for draws them all at once."""

        def draw_all():
            try:
                self.png(next(iter(self.fronts.values()), None))
            except Exception:  # a face that fails to draw shows as missing in the page
                log.exception("drawing the faces failed")

        threading.Thread(target=draw_all, daemon=True).start()
