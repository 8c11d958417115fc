"""Card Game Simulator: a custom-game folder in the FinolDigital.Cgs.Json format, and a zip of it.

The folder (docs/digital.md) holds cgs.json (and the same as <Game>.json, the name CGS keeps
its copy under), AllCards.json (one entry a distinct card: id, name, set and the card's fields
as properties a player can search), AllSets.json (a set per component), sets/<set>/<card>.png
(fronts, bleed trimmed), CardBack.png and backs/<id>.png (each component's back, or a card's
own), and decks/<name>.txt (a deck a component and one of the whole game, `<count> [<id>] <name>
(<set>)` a line). With `--digital-url BASE` the game says where it is hosted, so CGS can install
it from BASE/cgs.json and update it.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

from spellpress.errors import Option, UserError
from spellpress.exporters import Export
from spellpress.units import MM_PER_INCH, mm_to_px
from spellpress.write.atomic import atomic_folder
from spellpress.write.fit import fit_dpi, piece_dpi, trimmed_cell

if TYPE_CHECKING:
    from spellpress.layout.deck import CardFaces
    from spellpress.layout.ops import FaceLayout
    from spellpress.model.game import Game
    from spellpress.write.raster import Rasterizer

MAX_PX = 2048  # a card picture's longer side: sharp on a phone, light to download
CARD_KINDS = frozenset({"card", "tile", "token"})  # CGS plays cards; boards, sheets and dice stay off its table
HAND_KEYS = ("hand_size", "hand_start", "hand")  # rules: keys that say how many cards a player starts with
ZIP_TIME = (2000, 1, 1, 0, 0, 0)  # a fixed date in the zip: the same game gives the same bytes


@dataclass(frozen=True)
class Picture:
    face: FaceLayout
    file: str  # relative to the game folder
    dpi: int
    cell: tuple[int, int]
    bleed_px: int


@dataclass(frozen=True)
class CgsPlan:
    folder_name: str
    pictures: list[Picture]
    files: dict[str, bytes]  # the JSON and deck files, by path in the folder


def safe_name(text: str) -> str:
    """A file or folder name on every system CGS runs on (it strips the same characters)."""
    cleaned = re.sub(r'[<>:"/\\|?*\x00-\x1f]', "_", text).strip(" .")
    return cleaned or "game"


def plan_cgs(game: Game, laid: list[CardFaces], url: str | None) -> CgsPlan:
    groups = [[f for f in laid if f.component.id == c.id] for c in game.components if c.kind in CARD_KINDS]
    groups = [group for group in groups if group]
    pictures: list[Picture] = []
    cards: list[tuple[dict, CardFaces]] = []
    back_ids: dict[FaceLayout, str] = {}
    for group in groups:
        component = group[0].component
        bleed = group[0].front.bleed
        dpi = fit_dpi(1, 1, component.size, bleed, MAX_PX, piece_dpi(component.kind, component.size))
        cell, bleed_px = trimmed_cell(component.size, bleed, dpi), mm_to_px(bleed, dpi)
        for faces in group:
            pictures.append(Picture(faces.front, f"sets/{safe_name(component.id)}/{safe_name(faces.card.id)}.png",
                                    dpi, cell, bleed_px))
            entry: dict[str, object] = {"id": faces.card.id, "name": card_name(faces), "set": component.id}
            if faces.back is not None:
                per_card = component.back is not None and component.back.per_card
                back_id = back_ids.get(faces.back) or f"{component.id}-{faces.card.id}" if per_card else component.id
                if faces.back not in back_ids:
                    back_ids[faces.back] = back_id
                    pictures.append(Picture(faces.back, f"backs/{safe_name(back_id)}.png", dpi, cell, bleed_px))
                entry["backs"] = [back_ids[faces.back]]
            cards.append((entry, faces))
    properties = card_properties([faces for _, faces in cards])
    all_cards = [{**entry, **property_values(faces, properties)} for entry, faces in cards]
    if pictures and any(p.file.startswith("backs/") for p in pictures):
        first_back = next(p for p in pictures if p.file.startswith("backs/"))
        pictures.append(Picture(first_back.face, "CardBack.png", first_back.dpi, first_back.cell, first_back.bleed_px))
    decks = deck_lists(game, groups)
    folder_name = safe_name(game.name) + (f"@{urlsplit(url).hostname}" if url else "")
    spec = game_json(game, groups, properties, decks, sorted(set(back_ids.values())), url)
    files = {"cgs.json": _json(spec), f"{safe_name(game.name)}.json": _json(spec), "AllCards.json": _json(all_cards),
             "AllSets.json": _json([{"code": g[0].component.id, "name": g[0].component.name} for g in groups])}
    files.update({f"decks/{safe_name(name)}.txt": text.encode() for name, text in decks.items()})
    return CgsPlan(folder_name, pictures, files)


def card_name(faces: CardFaces) -> str:
    for field in ("name", "title", "letter", "word"):
        value = faces.card.fields.get(field)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
            return str(value)
    return faces.card.id


PROPERTY_TYPES = {bool: "boolean", int: "integer", str: "string", tuple: "stringList", list: "stringList"}
RESERVED = ("id", "name", "set", "backs")  # the card's own keys in AllCards.json


def card_properties(cards: list[CardFaces]) -> dict[str, str]:
    """Each field of the cards that CGS can show and search, with its CGS type: a field holding
    values of more than one type is a string; maps and numbers with decimals are strings too."""
    kinds: dict[str, set[str]] = {}
    for faces in cards:
        for name, value in faces.card.fields.items():
            if name in RESERVED or isinstance(value, dict) or hasattr(value, "items"):
                continue
            kinds.setdefault(name, set()).add(PROPERTY_TYPES.get(type(value), "string"))
    return {name: (found.pop() if len(found) == 1 else "string") for name, found in kinds.items()}


def property_values(faces: CardFaces, properties: dict[str, str]) -> dict:
    values = {}
    for name, kind in properties.items():
        value = faces.card.fields.get(name)
        if value is None:
            continue
        if kind == "stringList":
            values[name] = ", ".join(str(item) for item in value)
        elif kind == "string":
            values[name] = value if isinstance(value, str) else json.dumps(value) if isinstance(value, (list,
                                                                                                        tuple)) else str(value)
        else:
            values[name] = value
    return values


def deck_lists(game: Game, groups: list[list[CardFaces]]) -> dict[str, str]:
    """A deck per component, and the whole game as one deck, in CGS's txt deck format."""
    def lines(group: list[CardFaces]) -> list[str]:
        return [f"{f.card.count} [{f.card.id}] {card_name(f)} ({f.component.id})" for f in group]

    decks = {group[0].component.name: "\n".join(lines(group)) + "\n" for group in groups}
    if len(groups) > 1:
        decks[f"{game.name} (every card)"] = "\n".join(line for group in groups for line in lines(group)) + "\n"
    return decks


def hand_size(game: Game) -> int:
    """The cards a player is dealt at the start, from the game's rules: keys (0 if they do not say)."""
    for key in HAND_KEYS:
        value = game.spec.rules.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return 0


def game_json(game: Game, groups: list[list[CardFaces]], properties: dict[str, str], decks: dict[str, str],
              backs: list[str], url: str | None) -> dict:
    width, height = groups[0][0].component.size if groups else (63.5, 88.9)
    start = [name for name, group in zip(decks, groups, strict=False) if group[0].component.letters == "deck"] or list(decks)[:1]
    spec: dict = {
        "name": game.name,
        "autoUpdate": -1 if url is None else 30,  # -1: not hosted, nothing to update from
        "cardSize": {"x": round(width / MM_PER_INCH, 4), "y": round(height / MM_PER_INCH, 4)},
        "cardImageFileType": "png", "cardBackImageFileType": "png",
        "cardPrimaryProperty": next(iter(properties), ""),
        "cardProperties": [{"name": name, "display": name.replace("_", " ").capitalize(), "type": kind,
                            **({"delimiter": ", "} if kind == "stringList" else {})} for name, kind in properties.items()],
        "deckFileType": "txt",
        "deckSharePreference": "share",  # one deck the players draw from
        "gameStartHandCount": hand_size(game),
        "gameStartPointsCount": 0,
        "copyright": str(getattr(game.spec, "designer", "") or ""),
    }
    if url is not None:
        base = url.rstrip("/")
        spec.update({
            "autoUpdateUrl": f"{base}/cgs.json", "allCardsUrl": f"{base}/AllCards.json", "allSetsUrl": f"{base}/AllSets.json",
            "cardImageUrl": base + "/sets/{cardSet}/{cardId}.{cardImageFileType}",
            "cardBackFaceImageUrls": [{"id": back, "url": f"{base}/backs/{quote(safe_name(back))}.png"} for back in backs],
            "deckUrls": [{"name": name, "url": f"{base}/decks/{quote(safe_name(name))}.txt"} for name in decks],
        })
        spec["gameStartDecks"] = [deck for deck in spec["deckUrls"] if deck["name"] in start]
        if backs:
            spec["cardBackImageUrl"] = f"{base}/CardBack.png"
    return spec


def _json(value) -> bytes:
    return (json.dumps(value, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def prefetch_cgs(plan: CgsPlan, raster: Rasterizer) -> None:
    for dpi in sorted({picture.dpi for picture in plan.pictures}):
        raster.prefetch((p.face for p in plan.pictures if p.dpi == dpi), dpi)


def write_cgs(plan: CgsPlan, folder: Path, title: str, raster: Rasterizer) -> list[Path]:
    """cgs/<Game>/ (the custom game) and cgs/<Game>.cgs.zip (the same folder, as CGS imports it)."""
    pngs: dict[tuple[FaceLayout, int], bytes] = {}
    for dpi in sorted({picture.dpi for picture in plan.pictures}):
        drawn = raster.pngs((p.face for p in plan.pictures if p.dpi == dpi), dpi, title)
        pngs.update({(face, dpi): png for face, png in drawn.items()})
    calls = [("trimmed_png", (pngs[(p.face, p.dpi)], p.bleed_px, p.cell, p.dpi)) for p in plan.pictures]
    contents = dict(plan.files)
    contents.update({p.file: png for p, png in zip(plan.pictures, raster.pixel_jobs(calls), strict=False)})
    with atomic_folder(folder) as temporary:
        for relative, data in sorted(contents.items()):
            path = temporary / plan.folder_name / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        (temporary / f"{plan.folder_name}.cgs.zip").write_bytes(zipped(plan.folder_name, contents))
    return [folder / plan.folder_name / relative for relative in sorted(contents)] + [folder / f"{plan.folder_name}.cgs.zip"]


def zipped(top: str, contents: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for relative, data in sorted(contents.items()):
            info = zipfile.ZipInfo(f"{top}/{relative}", ZIP_TIME)
            info.compress_type = zipfile.ZIP_STORED if relative.endswith(".png") else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()


# -- the export's entry in the registry (exporters/__init__.py) ----------------------------
def _arguments(build) -> None:
    build.add_argument("--digital-url", metavar="BASE",
                       help="with --digital cgs: the https address the cgs/<Game>/ folder will be hosted at, so Card "
                            "Game Simulator installs the game from BASE/cgs.json and updates it")


def _settings(args) -> dict[str, Any]:
    """--digital-url: an http(s) address, for --digital cgs only."""
    if args.digital_url is None:
        return {"url": None}
    if "cgs" not in args.digital:
        raise UserError.at(Option("--digital-url"), "is where a Card Game Simulator game is hosted: add --digital cgs "
                                                    "(Tabletop Simulator's is --tts-url)")
    parts = urlsplit(args.digital_url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise UserError.at(Option("--digital-url"), f"expected an address such as https://example.org/my-game, "
                                                    f"got {args.digital_url!r}")
    return {"url": args.digital_url.rstrip("/")}


EXPORT = Export(
    name="cgs", order=40, label="CGS",
    summary="a Card Game Simulator custom game in cgs/<Game>/ and cgs/<Game>.cgs.zip",
    plan=lambda game, laid, settings: plan_cgs(game, laid, settings.get("url")),
    prefetch=prefetch_cgs, write=write_cgs, arguments=_arguments, settings=_settings, cache_keys=("url",),
)
