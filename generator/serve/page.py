"""The preview's HTML: plain markup, escaped, no front-end build."""

from __future__ import annotations

import re
from html import escape
from urllib.parse import quote

from spellpress.errors import display_path, grouped, report_line
from spellpress.layout.deck import CardFaces
from spellpress.load.spreadsheet import CellLocation
from spellpress.model.modes import choices
from spellpress.serve.preview import FULL_DPI, Snapshot, State
from spellpress.wording import plural


def face_url(key: str, dpi: int | None = None) -> str:
    return f"/face/{key}.png" + (f"?dpi={dpi}" if dpi else "")


def card_url(faces: CardFaces) -> str:
    return f"/card/{quote(faces.component.id, safe='')}/{quote(faces.card.id, safe='')}"


def document(title: str, body: str, version: int, head: str = "") -> str:
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
{head}
<link rel="stylesheet" href="/static/preview.css">
<script src="/static/preview.js" defer></script>
</head>
<body data-version="{version}">
{body}
</body>
</html>
"""


def mode_select(name: str, mode) -> str:
    options = "".join(f'<option value="{value}">{value}</option>' for value in choices(mode))
    return (f'<label>{name} <select name="{name}" title="{name} for the build; blank: the game\'s own setting">'
            f'<option value="">game\'s</option>{options}</select></label>')


def counts_line(state: State) -> str:
    """The game's components, cards and sheets, then the preview's note (when a Google Sheet last changed)."""
    snapshot = state.snapshot
    counts = ""
    if snapshot:
        cards = sum(f.card.count for f in snapshot.laid)
        counts = f"{plural(len(snapshot.game.components), 'component')}, {plural(cards, 'card')}, {plural(len(snapshot.pages), 'sheet')}"
    return " · ".join(part for part in (counts, state.note) if part)


def export_boxes() -> str:
    """A checkbox for each export of the registry (exporters/) that a build adds when asked."""
    from spellpress.exporters import optional

    return "\n".join(f'<label><input type="checkbox" name="{escape(export.key)}"> {escape(export.label)}</label>'
                      for export in optional().values())


def mode_selects() -> str:
    """A select for each mode an export of the registry offers the page (the sheets' paper, backs and marks)."""
    from spellpress.exporters import pdf_exports

    return "".join(mode_select(name, mode) for export in pdf_exports().values() for name, mode in export.modes)


def header(state: State, view: str) -> str:
    snapshot = state.snapshot
    name = snapshot.game.name if snapshot else "Spellpress preview"
    counts = counts_line(state)
    tabs = "".join(
        f'<a href="{href}"{" aria-current=page" if view == key else ""}>{label}</a>'
        for key, href, label in (("cards", "/", "Cards"), ("sheets", "/sheets", "Sheets"))
    )
    return f"""<header>
<h1>{escape(name)}</h1><span class="counts" id="counts">{escape(counts)}</span>
<nav>{tabs}</nav>
<form class="build" id="build" method="post" action="/build">
{export_boxes()}
{mode_selects()}
<button type="submit">Build PDF</button>
</form>
<label class="zoom">size <input type="range" id="zoom" min="0.2" max="1" step="0.05" value="0.45"
 title="card size, up to actual size (100%)"> <output id="zoom-shown">45%</output></label>
<span class="live" id="live" title="updates when a file of the game is saved">live</span>
</header>
<section id="downloads" class="downloads" hidden></section>
"""


# layout/deck.py names a face "card 'ID' of 'COMPONENT'", "back of card ..." or "back of 'COMPONENT'"
CARD_SUBJECT = re.compile(r"card '(?P<card>.+)' of '(?P<component>.+)'")
SHARED_BACK_SUBJECT = re.compile(r"back of '(?P<component>.+)'")


def subject_card(snapshot: Snapshot | None, subject: str) -> CardFaces | None:
    """The card shown on the page that a problem's subject names, if any."""
    match = CARD_SUBJECT.fullmatch(subject.removeprefix("back of "))
    if snapshot is None or match is None:
        return None
    return next((f for f in snapshot.laid if f.component.id == match["component"] and f.card.id == match["card"]), None)


def card_problems(state: State) -> dict[tuple[str, str], list[str]]:
    """The messages found on each card, by (component id, card id); a shared back's under (component id, '')."""
    return by_card(state.problems)


def card_warnings(state: State) -> dict[tuple[str, str], list[str]]:
    """The design check's findings on each card, as card_problems."""
    return by_card(state.snapshot.warnings if state.snapshot else ())


def by_card(problems) -> dict[tuple[str, str], list[str]]:
    found: dict[tuple[str, str], list[str]] = {}
    for problem in problems:
        card = CARD_SUBJECT.fullmatch(problem.subject.removeprefix("back of "))
        back = SHARED_BACK_SUBJECT.fullmatch(problem.subject)
        if card:
            found.setdefault((card["component"], card["card"]), []).append(str(problem))
        elif back:
            found.setdefault((back["component"], ""), []).append(str(problem))
    return found


def errors_panel(state: State) -> str:
    """Every mistake, one line each; a mistake found on cards links to each card shown on the page."""
    if not state.problems:
        return '<section id="errors" class="errors" hidden></section>'
    items = []
    for found in grouped(state.problems):
        links = []
        for problem in found:
            faces = subject_card(state.snapshot, problem.subject)
            back = SHARED_BACK_SUBJECT.fullmatch(problem.subject)
            if faces is not None:
                links.append(f'<a class="to-card" href="{card_url(faces)}">{escape(faces.card.id)}</a>')
            elif back and state.snapshot and any(c.id == back["component"] for c in state.snapshot.game.components):
                links.append(f'<a class="to-card" href="/#component-{escape(back["component"])}">'
                             f'the back of {escape(back["component"])}</a>')
        shown = f' <span class="cards">on {" ".join(links)}</span>' if links else ""
        items.append(f"<li><code>{escape(report_line(found))}</code>{shown}</li>")
    kept = "Showing the last good version below." if state.snapshot else "Nothing to show until the game loads."
    return f"""<section id="errors" class="errors" role="alert">
<h2>{plural(len(items), 'error')}</h2><ul>{"".join(items)}</ul><p>{kept}</p>
</section>"""


def error_mark(messages: list[str], warnings: list[str] | None = None) -> str:
    if not messages:
        return warning_mark(warnings or [])
    return f'<span class="mark" title="{escape(chr(10).join(messages))}">{len(messages)}&#x26A0;</span>'


def warning_mark(warnings: list[str]) -> str:
    if not warnings:
        return ""
    return f'<span class="mark warn" title="{escape(chr(10).join(warnings))}">{len(warnings)}&#x2691;</span>'


def marked(messages: list[str], warnings: list[str]) -> str:
    """The classes a card's figure takes: an error outranks a design warning."""
    return " has-error" if messages else " has-warning" if warnings else ""


def face_image(snapshot, face, side: str, alt: str) -> str:
    key = snapshot.keys[face]
    return f'<img class="face {side}" src="{face_url(key)}" data-key="{key}" alt="{escape(alt)} {side}" loading="lazy">'


def cards_view(state: State) -> str:
    """Every card at the zoom the page's slider sets; a back shared by a whole component is shown once, first."""
    snapshot = state.snapshot
    if snapshot is None:
        return '<main id="content"></main>'
    errors, warnings = card_problems(state), card_warnings(state)
    parts = []
    for component in snapshot.game.components:
        group = [f for f in snapshot.laid if f.component.id == component.id]
        w, h = component.size
        shared = component.back is not None and not component.back.per_card
        figures = []
        if shared and group and group[0].back is not None:
            messages, warned = errors.get((component.id, ""), []), warnings.get((component.id, ""), [])
            figures.append(f'<figure class="card shared-back{marked(messages, warned)}">'
                           f'{face_image(snapshot, group[0].back, "back", component.name)}{error_mark(messages, warned)}'
                           f'<figcaption>back, shared by {plural(len(group), "card")}</figcaption></figure>')
        for faces in group:
            sides = (("front", faces.front),) if shared else (("front", faces.front), ("back", faces.back))
            images = "".join(face_image(snapshot, face, side, faces.card.id) for side, face in sides if face is not None)
            messages, warned = errors.get((component.id, faces.card.id), []), warnings.get((component.id, faces.card.id), [])
            figures.append(
                f'<figure class="card{marked(messages, warned)}" id="card-{escape(component.id)}-{escape(faces.card.id)}" '
                f'data-card="{escape(component.id)}/{escape(faces.card.id)}">'
                f'<a href="{card_url(faces)}">{images}</a>{error_mark(messages, warned)}'
                f'<figcaption><span class="id">{escape(faces.card.id)}</span> '
                f'<span class="count">&times;{faces.card.count}</span></figcaption></figure>'
            )
        bleed = group[0].front.bleed if group else 0
        parts.append(
            f'<section class="component" id="component-{escape(component.id)}">'
            f'<h2>{escape(component.name)} <small>{escape(component.kind)}, {w:g} &times; {h:g} mm, '
            f'{component.copies} pieces</small></h2>'
            f'<div class="grid" style="--face-h:{h + 2 * bleed:g}mm">{"".join(figures)}</div></section>'
        )
    return f'<main id="content">{"".join(parts)}</main>'


def sheets_view(state: State) -> str:
    snapshot = state.snapshot
    if snapshot is None:
        return '<main id="content"></main>'
    w, h = snapshot.pages[0].paper if snapshot.pages else (210, 297)
    pages = "".join(
        f'<figure class="sheet"><img src="/sheet/{snapshot.sheets_digest}/{n}.png" alt="sheet {n}" '
        f'style="aspect-ratio: {w} / {h}" loading="lazy"><figcaption>{n} &middot; {escape(page.kind)}</figcaption></figure>'
        for n, page in enumerate(snapshot.pages, start=1)
    )
    return f'<main id="content" class="sheets">{pages}</main>'


def source_of(location) -> str:
    """Where a card is defined, in the user's terms: a spreadsheet's row, or a file's line."""
    if isinstance(location, CellLocation) and location.line:
        return f"{display_path(location.path)}, spreadsheet row {location.line}"
    return str(location)


def field_rows(fields) -> str:
    return "".join(f"<tr><th>{escape(str(name))}</th><td>{escape(str(value))}</td></tr>" for name, value in fields.items())


def step_link(faces: CardFaces | None, rel: str, label: str) -> str:
    if faces is None:
        return f'<span class="step" aria-disabled="true">{label}</span>'
    return f'<a class="step" rel="{rel}" href="{card_url(faces)}" title="{escape(faces.card.id)} (arrow key)">{label}</a>'


def actual_size_side(snapshot, face, side: str, card_id: str, safe: float) -> str:
    """One face at actual size (CSS millimetres) with its trim, bleed and safe-zone overlays."""
    key = snapshot.keys[face]
    b = face.bleed
    full_w, full_h = face.width + 2 * b, face.height + 2 * b
    inset = b + safe
    return (
        f'<figure class="actual"><div class="bleed" style="width:{full_w:g}mm;height:{full_h:g}mm">'
        f'<img class="face {side}" src="{face_url(key)}" data-key="{key}" alt="{escape(card_id)} {side}" '
        f'style="width:{full_w:g}mm;height:{full_h:g}mm">'
        f'<div class="overlay bleed-band" style="border-width:{b:g}mm"></div>'
        f'<div class="overlay trim" style="left:{b:g}mm;top:{b:g}mm;width:{face.width:g}mm;height:{face.height:g}mm"></div>'
        f'<div class="overlay safe" style="left:{inset:g}mm;top:{inset:g}mm;width:{max(face.width - 2 * safe, 0):g}mm;'
        f'height:{max(face.height - 2 * safe, 0):g}mm"></div></div>'
        f'<figcaption>{side}: {face.width:g} &times; {face.height:g} mm + {b:g} mm bleed &middot; '
        f'<a href="{face_url(key, FULL_DPI)}">{FULL_DPI} dpi PNG</a></figcaption></figure>'
    )


def card_view(state: State, component_id: str, card_id: str) -> str | None:
    """One card at actual size, with previous/next, its fields and where they come from."""
    snapshot = state.snapshot
    if snapshot is None:
        return None
    laid = snapshot.laid
    for index, faces in enumerate(laid):
        if faces.component.id == component_id and faces.card.id == card_id:
            break
    else:
        return None
    previous = laid[index - 1] if index > 0 else None
    following = laid[index + 1] if index + 1 < len(laid) else None
    safe = snapshot.game.spec.print.safe
    sides = "".join(actual_size_side(snapshot, face, side, card_id, safe)
                    for side, face in (("front", faces.front), ("back", faces.back)) if face is not None)
    card = faces.card
    messages = card_problems(state).get((component_id, card_id), [])
    problems = (f'<ul class="card-errors" role="alert">{"".join(f"<li><code>{escape(m)}</code></li>" for m in messages)}</ul>'
                if messages else "")
    warned = card_warnings(state).get((component_id, card_id), []) + card_warnings(state).get((component_id, ""), [])
    if warned:
        problems += (f'<ul class="card-warnings">{"".join(f"<li><code>{escape(m)}</code></li>" for m in warned)}</ul>')
    own_back = faces.component.back is not None and faces.component.back.per_card  # a shared back has no card fields
    back_fields = (f'<h3>Back fields</h3><table class="fields">{field_rows(card.back_fields)}</table>'
                   if own_back and card.back_fields else "")
    return (
        f'<main id="content" class="detail">'
        f'<nav class="steps">{step_link(previous, "prev", "&larr; previous")} '
        f'<span>{index + 1} of {len(laid)}</span> {step_link(following, "next", "next &rarr;")} '
        f'&middot; <a href="/#card-{escape(component_id)}-{escape(card_id)}">all cards</a> '
        f'<label><input type="checkbox" id="overlays" checked> overlays</label></nav>'
        f'<p><strong>{escape(card_id)}</strong> of {escape(faces.component.name)}, &times;{card.count}. '
        f'Shown at actual size (CSS millimetres). Overlays: <span class="key bleed-key">bleed</span> '
        f'<span class="key trim-key">trim</span> <span class="key safe-key">safe zone ({safe:g} mm)</span></p>'
        f'{problems}<div class="sides">{sides}'
        f'<aside class="about"><h3>Fields</h3><p class="source">from <code>{escape(source_of(card.location))}</code></p>'
        f'<table class="fields">{field_rows(card.fields)}</table>{back_fields}</aside></div></main>'
    )
