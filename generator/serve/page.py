"""The preview's HTML, from the templates in serve/templates (autoescaped): what each view shows."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from urllib.parse import quote

from spellpress.errors import display_path, grouped, report_line
from spellpress.exporters import optional, pdf_exports
from spellpress.layout.deck import CardFaces
from spellpress.load.spreadsheet import CellLocation
from spellpress.model.modes import choices
from spellpress.serve.preview import FULL_DPI, State
from spellpress.serve.problems import card_problems, card_warnings, shared_back, subject_card
from spellpress.web.pages import Pages
from spellpress.wording import plural

PAGES = Pages(Path(__file__).resolve().parent / "templates")
TABS = (("cards", "/", "Cards"), ("sheets", "/sheets", "Sheets"))


def face_url(key: str, dpi: int | None = None) -> str:
    return f"/face/{key}.png" + (f"?dpi={dpi}" if dpi else "")


def card_url(faces: CardFaces) -> str:
    return f"/card/{quote(faces.component.id, safe='')}/{quote(faces.card.id, safe='')}"


def counts_line(state: State) -> str:
    """The game's components, cards and sheets, then the preview's note (when a Google Sheet last changed)."""
    snapshot = state.snapshot
    counts = ""
    if snapshot:
        cards = sum(f.card.count for f in snapshot.laid)
        counts = (f"{plural(len(snapshot.game.components), 'component')}, {plural(cards, 'card')}, "
                  f"{plural(len(snapshot.pages), 'sheet')}")
    return " · ".join(part for part in (counts, state.note) if part)


def export_boxes() -> str:
    """A checkbox for each export of the registry (exporters/) that a build adds when asked."""
    return PAGES.render("export_boxes.html", exports=list(optional().values()))


def build_modes() -> list[tuple[str, list[str]]]:
    """Each mode an export of the registry offers the page (the sheets' paper, backs and marks), with its values."""
    return [(name, list(choices(mode))) for export in pdf_exports().values() for name, mode in export.modes]


def mode_selects() -> str:
    """A select for each of build_modes()."""
    return PAGES.render("mode_selects.html", modes=build_modes())


def header(state: State, view: str) -> str:
    snapshot = state.snapshot
    return PAGES.render("header.html", name=snapshot.game.name if snapshot else "Spellpress preview",
                        counts=counts_line(state), tabs=TABS, view=view,
                        exports=list(optional().values()), modes=build_modes())


def errors_panel(state: State) -> str:
    """Every mistake, one line each; a mistake found on cards links to each card shown on the page."""
    items = []
    for found in grouped(state.problems):
        links = []
        for problem in found:
            faces = subject_card(state.snapshot, problem.subject)
            component = shared_back(state.snapshot, problem.subject)
            if faces is not None:
                links.append((card_url(faces), faces.card.id))
            elif component is not None:
                links.append((f"/#component-{component}", f"the back of {component}"))
        items.append((report_line(found), links))
    kept = "Showing the last good version below." if state.snapshot else "Nothing to show until the game loads."
    return PAGES.render("errors.html", items=items, heading=plural(len(items), "error"), kept=kept)


def marked(messages: list[str], warnings: list[str]) -> str:
    """The classes a card's figure takes: an error outranks a design warning."""
    return " has-error" if messages else " has-warning" if warnings else ""


def face_image(snapshot, face, side: str, alt: str) -> SimpleNamespace:
    key = snapshot.keys[face]
    return SimpleNamespace(side=side, key=key, url=face_url(key), alt=alt)


def cards_view(state: State) -> str:
    """Every card at the zoom the page's slider sets; a back shared by a whole component is shown once, first."""
    snapshot = state.snapshot
    if snapshot is None:
        return PAGES.render("empty.html")
    errors, warnings = card_problems(state), card_warnings(state)
    groups = []
    for component in snapshot.game.components:
        laid = [f for f in snapshot.laid if f.component.id == component.id]
        shared = component.back is not None and not component.back.per_card
        back = None
        if shared and laid and laid[0].back is not None:
            messages, warned = errors.get((component.id, ""), []), warnings.get((component.id, ""), [])
            back = SimpleNamespace(image=face_image(snapshot, laid[0].back, "back", component.name), errors=messages,
                                   warnings=warned, classes=marked(messages, warned), shared_by=plural(len(laid), "card"))
        cards = []
        for faces in laid:
            sides = (("front", faces.front),) if shared else (("front", faces.front), ("back", faces.back))
            messages, warned = errors.get((component.id, faces.card.id), []), warnings.get((component.id, faces.card.id), [])
            cards.append(SimpleNamespace(
                id=faces.card.id, count=faces.card.count, url=card_url(faces), errors=messages, warnings=warned,
                classes=marked(messages, warned),
                images=[face_image(snapshot, face, side, faces.card.id) for side, face in sides if face is not None]))
        bleed = laid[0].front.bleed if laid else 0
        width, height = component.size
        groups.append(SimpleNamespace(component=component, width=width, height=height, face_height=height + 2 * bleed,
                                      shared_back=back, cards=cards))
    return PAGES.render("cards.html", groups=groups)


def sheets_view(state: State) -> str:
    snapshot = state.snapshot
    if snapshot is None:
        return PAGES.render("empty.html")
    sheets = [SimpleNamespace(number=n, kind=page.kind, url=f"/sheet/{snapshot.sheets_digest}/{n}.png")
              for n, page in enumerate(snapshot.pages, start=1)]
    return PAGES.render("sheets.html", sheets=sheets, paper=snapshot.pages[0].paper if snapshot.pages else (210, 297))


def source_of(location) -> str:
    """Where a card is defined, in the user's terms: a spreadsheet's row, or a file's line."""
    if isinstance(location, CellLocation) and location.line:
        return f"{display_path(location.path)}, spreadsheet row {location.line}"
    return str(location)


def actual_size_side(snapshot, face, side: str, safe: float) -> SimpleNamespace:
    """One face at actual size (CSS millimetres) with its trim, bleed and safe-zone overlays."""
    key = snapshot.keys[face]
    b = face.bleed
    return SimpleNamespace(
        name=side, key=key, url=face_url(key), full_url=face_url(key, FULL_DPI), bleed=b,
        width=face.width, height=face.height, full_width=face.width + 2 * b, full_height=face.height + 2 * b,
        inset=b + safe, safe_width=max(face.width - 2 * safe, 0), safe_height=max(face.height - 2 * safe, 0))


def step_target(faces: CardFaces | None) -> SimpleNamespace | None:
    return None if faces is None else SimpleNamespace(id=faces.card.id, url=card_url(faces))


def card_view(state: State, component_id: str, card_id: str) -> str | None:
    """One card at actual size, with previous/next, its fields and where they come from."""
    snapshot = state.snapshot
    if snapshot is None:
        return None
    laid = snapshot.laid
    index = next((i for i, faces in enumerate(laid) if faces.component.id == component_id and faces.card.id == card_id), None)
    if index is None:
        return None
    faces = laid[index]
    safe = snapshot.game.spec.print.safe
    warnings = card_warnings(state)
    own_back = faces.component.back is not None and faces.component.back.per_card  # a shared back has no card fields
    return PAGES.render(
        "card.html", component=faces.component, card=faces.card, index=index + 1, total=len(laid), safe=safe,
        previous=step_target(laid[index - 1] if index > 0 else None),
        following=step_target(laid[index + 1] if index + 1 < len(laid) else None),
        errors=card_problems(state).get((component_id, card_id), []),
        warnings=warnings.get((component_id, card_id), []) + warnings.get((component_id, ""), []),
        sides=[actual_size_side(snapshot, face, side, safe)
               for side, face in (("front", faces.front), ("back", faces.back)) if face is not None],
        source=source_of(faces.card.location), full_dpi=FULL_DPI,
        back_fields=faces.card.back_fields if own_back else {})

