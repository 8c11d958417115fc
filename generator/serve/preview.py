"""The preview's state: the last good layout of a game, its errors, and its face images.

Every refresh runs the print pipeline's load, layout and impose steps. Faces are
addressed by content (render.keys.face_key): an image is rasterized only for a key
not seen before, so after an edit only the faces that changed are drawn again.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from spellpress.build import BuildOptions, plan
from spellpress.errors import Location, Problem, UserError, report_lines
from spellpress.impose.sheets import Page
from spellpress.layout.deck import CardFaces
from spellpress.layout.ops import FaceLayout
from spellpress.load.game import load_game
from spellpress.model.game import Game
from spellpress.render.keys import face_key

PREVIEW_DPI = 150  # sharp on a high-density screen at the thumbnails' and actual size
FULL_DPI = 300
SHEET_DPI = 60
MAX_IMAGES = 4000  # encoded PNGs kept in memory (a few hundred MB at most)

log = logging.getLogger("spellpress.serve")


@dataclass(frozen=True)
class Snapshot:
    """One good state of the game: what the page shows."""

    game: Game
    laid: tuple[CardFaces, ...]
    pages: tuple[Page, ...]
    keys: dict[FaceLayout, str]
    sheets_digest: str
    warnings: tuple[Problem, ...] = ()  # the design check's findings, each naming its card

    def key(self, face: FaceLayout | None) -> str | None:
        return None if face is None else self.keys[face]


@dataclass
class State:
    snapshot: Snapshot | None = None
    errors: list[str] = field(default_factory=list)  # one line a mistake, as the command line prints them
    version: int = 0
    problems: list[Problem] = field(default_factory=list)  # the same, with the card each was found on
    note: str = ""  # shown beside the counts: when a Google Sheet last changed (serve --pull-every)


# reportlab and pdfium keep global state and are not thread-safe: one render at a time in the whole
# process, whichever preview asks (a table's faces drawn in the background while another table draws
# crashed pdfium with a segmentation fault)
RENDER_LOCK = threading.RLock()


class Preview:
    def __init__(self, folder: Path, options: BuildOptions | None = None):
        self.folder = folder
        self.options = options if options is not None else BuildOptions()
        self.state = State()
        self.lock = RENDER_LOCK
        self.faces: dict[str, FaceLayout] = {}
        self.images: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self.sheets: dict[str, list[bytes]] = {}
        self.renders = 0  # faces rasterized so far (tests read it)
        self.note = ""  # for the page's State (serve --pull-every)

    # -- the pipeline -------------------------------------------------------------------
    def refresh(self) -> bool:
        """Reload the game; True if what the page shows changed. Never raises for a user's mistake."""
        with self.lock:
            snapshot, problems = self.state.snapshot, []
            try:
                snapshot = self._load()
            except UserError as exc:
                problems = exc.problems
            except Exception as exc:  # a bug must not take the preview down; it is shown and logged
                log.exception("preview refresh failed")
                problems = [Problem(Location(self.folder), f"spellpress hit a bug: {type(exc).__name__}: {exc} "
                                                           "(see the server's log)")]
            errors = report_lines(problems)
            old = self.state
            changed = errors != old.errors or _signature(snapshot) != _signature(old.snapshot) or self.note != old.note
            if changed:
                self.state = State(snapshot, errors, old.version + 1, problems, self.note)
                if snapshot is not None:
                    self.faces = {key: face for face, key in snapshot.keys.items()}
            return changed

    def _load(self) -> Snapshot:
        game = load_game(self.folder)
        laid, pages, _ = plan(game, self.options)
        faces = {face for f in laid for face in (f.front, f.back) if face is not None}
        keys = {face: face_key(face) for face in faces}
        sheets = hashlib.sha256(repr([(p.kind, [(keys[x.face], x.slot) for x in p.placed]) for p in pages]).encode())
        from spellpress.design.check import design_findings

        return Snapshot(game, tuple(laid), tuple(pages), keys, sheets.hexdigest()[:16], tuple(design_findings(game)))

    # -- images -------------------------------------------------------------------------
    def image(self, key: str, dpi: int) -> bytes | None:
        """The face's PNG at `dpi`; faces still waiting at the preview's resolution are drawn together."""
        with self.lock:
            cached = self.images.get((key, dpi))
            if cached is not None:
                self.images.move_to_end((key, dpi))
                return cached
            if key not in self.faces:
                return None
            wanted = [key]
            if dpi == PREVIEW_DPI:  # one PDF for every face not drawn yet: far cheaper than one each
                wanted += [k for k in self.faces if k != key and (k, dpi) not in self.images]
            from spellpress.write.pixels import encode_png, rasterize

            pictures = rasterize([self.faces[k] for k in wanted], "preview", dpi, progress=False)
            for k, picture in zip(wanted, pictures, strict=False):
                self._remember((k, dpi), encode_png(picture, dpi))
            self.renders += len(wanted)
            return self.images[(key, dpi)]

    def sheet(self, digest: str, number: int) -> bytes | None:
        """Page `number` (from 1) of the imposed sheets, as a small PNG."""
        with self.lock:
            snapshot = self.state.snapshot
            if snapshot is None or digest != snapshot.sheets_digest or not 1 <= number <= len(snapshot.pages):
                return None
            if digest not in self.sheets:
                from spellpress.write.pdf import sheets_pdf
                from spellpress.write.pixels import encode_png, rasterize_pdf

                pdf = sheets_pdf(list(snapshot.pages), snapshot.game.name)
                self.sheets = {digest: [encode_png(p, SHEET_DPI) for p in rasterize_pdf(pdf, SHEET_DPI)]}
            return self.sheets[digest][number - 1]

    def _remember(self, key: tuple[str, int], png: bytes) -> None:
        self.images[key] = png
        while len(self.images) > MAX_IMAGES:
            self.images.popitem(last=False)

    # -- what to watch ------------------------------------------------------------------
    def watch_roots(self) -> list[Path]:
        """The game folder and every folder outside it that holds a font, icon or template the game uses."""
        roots = {self.folder.resolve()}
        snapshot = self.state.snapshot
        if snapshot is not None:
            game = snapshot.game
            used = [*game.fonts.values(), *game.icons.values(), *(t.location.path for t in game.templates.values())]
            roots |= {Path(path).resolve().parent for path in used}
        covered = {r for r in roots if self.folder.resolve() in r.parents}  # the game folder is watched whole
        return sorted(roots - covered)


def _signature(snapshot: Snapshot | None):
    if snapshot is None:
        return None
    cards = tuple((f.component.id, f.card.id, f.card.count, snapshot.key(f.front), snapshot.key(f.back)) for f in snapshot.laid)
    components = tuple((c.id, c.name, c.kind, c.size) for c in snapshot.game.components)
    return snapshot.game.name, components, cards, snapshot.sheets_digest, snapshot.warnings
