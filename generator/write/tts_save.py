"""A Tabletop Simulator saved object for a whole game: every deck, die and board on the table.

The Saved Objects format is TTS's save file with the outer fields left empty; its objects are
laid out in rows: the decks face down, the dice in front of them, boards and score sheets behind.
A deck is a DeckCustom whose CustomDeck holds one entry per sheet, keyed by a number; a card's
CardID is that key x 100 + its slot on the sheet (row by row, from 0); a card's copies share its
slot and CardID, so a sheet holds each distinct face once. docs/digital.md lists what
of this was checked against the format's public descriptions, and what could not be.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from spellpress.model.game import Game

if TYPE_CHECKING:
    from spellpress.write.tts_plan import Sheet, TtsDeck, TtsDie, TtsPlan, TtsTile

MM_PER_UNIT = 25.4  # a TTS unit is about an inch (its knowledge base, custom tiles)
CARD_WIDTH_AT_SCALE_1 = 63.5  # mm: a card at scale 1 taken as poker width (not verified)
TILE_WIDTH_AT_SCALE_1 = 50.8  # mm: a tile at scale 1 taken as 2 units wide (not verified)
GAP = 1.0  # units between objects in a row
TABLE_HEIGHT = 1.5  # posY: just above the table; TTS drops objects onto it
WHITE = {"r": 1.0, "g": 1.0, "b": 1.0}
# the rotation (x, y, z degrees) that puts face 1 ... 6 of TTS's d6 on top, as published saves of a d6 give
# them (docs/digital.md: not verified in TTS itself)
D6_ROTATIONS = [(-90.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, -90.0), (0.0, 0.0, 90.0), (0.0, 0.0, -180.0), (90.0, 0.0, 0.0)]


def face_values(fields) -> list[str]:
    """A die's six face labels: its `faces` field when it lists six, else 1 to 6."""
    faces = fields.get("faces")
    if isinstance(faces, (list, tuple)) and len(faces) == 6:
        return [str(face) for face in faces]
    return [str(number) for number in range(1, 7)]


def saved_object(game: Game, plan: TtsPlan, url: Callable[[str], str]) -> dict:
    """The saved object: `url(file)` is where TTS finds each image the plan wrote."""
    objects, keys = [], iter(range(1, 10_000))
    decks = [_deck(game, deck, url, keys) for deck in plan.decks]
    dice = [obj for die in plan.dice for obj in _die(game, die, url)]
    tiles = [obj for tile in plan.tiles for obj in _tile(game, tile, url)]
    deck_depth = max((deck.component.size[1] for deck in plan.decks), default=0) / MM_PER_UNIT
    tile_depth = max((tile.component.size[1] for tile in plan.tiles), default=0) / MM_PER_UNIT
    objects += _row(decks, [deck.component.size[0] for deck in plan.decks], z=0.0)
    objects += _row(dice, [MM_PER_UNIT] * len(dice), z=-(deck_depth / 2 + 2 * GAP + 0.5))
    tile_widths = [tile.component.size[0] for tile in plan.tiles for _ in range(tile.card.card.count)]
    objects += _row(tiles, tile_widths, z=deck_depth / 2 + GAP + tile_depth / 2)
    return {
        "SaveName": "", "Date": "", "VersionNumber": "", "GameMode": "", "GameType": "", "GameComplexity": "",
        "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "TabStates": {},
        "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "ObjectStates": objects,
    }


def _row(objects: list[dict], widths_mm: list[float], z: float) -> list[dict]:
    """The objects side by side along x, centred on the table, at depth z."""
    widths = [width / MM_PER_UNIT for width in widths_mm]
    x = -(sum(widths) + GAP * max(0, len(widths) - 1)) / 2
    for obj, width in zip(objects, widths, strict=False):
        obj["Transform"]["posX"] = round(x + width / 2, 3) + 0.0  # + 0.0: no "-0.0" in the file
        obj["Transform"]["posZ"] = round(z, 3) + 0.0
        x += width + GAP
    return objects


def _guid(*parts: str) -> str:
    return hashlib.sha1("/".join(parts).encode()).hexdigest()[:6]


def _base(name: str, guid: str, nickname: str, notes: str, scale: float, face_down: bool = False) -> dict:
    return {
        "GUID": guid, "Name": name,
        "Transform": {"posX": 0.0, "posY": TABLE_HEIGHT, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0,
                      "rotZ": 180.0 if face_down else 0.0, "scaleX": scale, "scaleY": 1.0, "scaleZ": scale},
        "Nickname": nickname, "Description": "", "GMNotes": notes, "ColorDiffuse": dict(WHITE),
        "Locked": False, "Grid": True, "Snap": True, "IgnoreFoW": False, "Autoraise": True, "Sticky": True,
        "Tooltip": True, "GridProjection": False, "LuaScript": "", "LuaScriptState": "", "XmlUI": "",
    }


def _custom_deck(deck: TtsDeck, sheet: Sheet, index: int, url: Callable[[str], str]) -> dict:
    unique = bool(deck.back_sheets)
    return {
        "FaceURL": url(sheet.file),
        "BackURL": url(deck.back_sheets[index].file if unique else str(deck.back_file)),
        "NumWidth": sheet.columns, "NumHeight": sheet.rows,
        # a shared back is what others see of a hidden card; a card's own back could tell it apart,
        # so double-sided cards hide behind the sheet's last slot (the grey card)
        "BackIsHidden": not unique, "UniqueBack": unique, "Type": 0,
    }


def _deck(game: Game, deck: TtsDeck, url: Callable[[str], str], keys) -> dict:
    component = deck.component
    width, height = component.size
    scale = round(width / CARD_WIDTH_AT_SCALE_1, 4)
    sideways = width > height
    custom: dict[str, dict] = {}
    cards = []
    for index, sheet in enumerate(deck.sheets):
        key = next(keys)
        entry = _custom_deck(deck, sheet, index, url)
        custom[str(key)] = entry
        for slot, faces in enumerate(sheet.cards):
            for copy in range(1, faces.card.count + 1):  # every copy is the same picture: the same CardID
                card = _base("Card", _guid(game.id, component.id, str(key), str(slot), str(copy)),
                             _card_name(faces.card), f"{component.id}/{faces.card.id}", scale, face_down=True)
                card.update({"CardID": key * 100 + slot, "SidewaysCard": sideways, "Hands": True,
                             "HideWhenFaceDown": True, "CustomDeck": {str(key): entry}})
                cards.append(card)
    if len(cards) == 1:  # TTS has no deck of one: a lone card lies on the table by itself
        card = cards[0]
        card["Nickname"], card["GUID"] = component.name, _guid(game.id, component.id)
        return card
    obj = _base("DeckCustom", _guid(game.id, component.id), component.name, component.id, scale, face_down=True)
    obj.update({"SidewaysCard": sideways, "Hands": False, "HideWhenFaceDown": True,
                "DeckIDs": [card["CardID"] for card in cards], "CustomDeck": custom, "ContainedObjects": cards})
    return obj


def _card_name(card) -> str:
    for field in ("name", "title", "letter", "word"):
        value = card.fields.get(field)
        if isinstance(value, (str, int)) and str(value):
            return str(value)
    return card.id


def _die(game: Game, die: TtsDie, url: Callable[[str], str]) -> list[dict]:
    """One Custom_Dice per copy of the die."""
    card = die.card.card
    copies = []
    for copy in range(1, card.count + 1):
        obj = _base("Custom_Dice", _guid(game.id, die.component.id, card.id, str(copy)), _card_name(card),
                    f"{die.component.id}/{card.id}", 1.0)
        obj["CustomImage"] = {"ImageURL": url(die.file), "ImageSecondaryURL": "", "ImageScalar": 1.0,
                              "WidthScale": 0.0, "CustomDice": {"Type": 1}}  # 1: a d6
        # what a roll reads: each face's label (A, E, ... WILD) at the rotation that shows it on top
        obj["RotationValues"] = [{"Value": value, "Rotation": dict(zip("xyz", rotation, strict=False))}
                                 for value, rotation in zip(face_values(card.fields), D6_ROTATIONS, strict=False)]
        copies.append(obj)
    return copies


def _tile(game: Game, tile: TtsTile, url: Callable[[str], str]) -> list[dict]:
    """One Custom_Tile per copy of the board or sheet."""
    card = tile.card.card
    scale = round(tile.component.size[0] / TILE_WIDTH_AT_SCALE_1, 4)
    copies = []
    for copy in range(1, card.count + 1):
        obj = _base("Custom_Tile", _guid(game.id, tile.component.id, card.id, str(copy)), _card_name(card),
                    f"{tile.component.id}/{card.id}", scale)
        obj["CustomImage"] = {
            "ImageURL": url(tile.front_file), "ImageSecondaryURL": url(tile.back_file or tile.front_file),
            "ImageScalar": 1.0, "WidthScale": 0.0,
            # Stretch false: the tile takes the picture's proportions rather than a square's
            "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": False, "Stretch": False},
        }
        copies.append(obj)
    return copies
