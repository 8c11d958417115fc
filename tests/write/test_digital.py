"""Digital tables: Tabletop Simulator sheets and saved object, Tabletopia pictures (docs/digital.md)."""

from __future__ import annotations

import functools
import json
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlparse

import numpy as np
import pytest
from PIL import Image

from spellpress.cli import main
from spellpress.paths import list_game_folders
from spellpress.write.fit import fit_dpi, trimmed_cell
from spellpress.write.pixels import trimmed
from spellpress.write.tts_plan import MAX_COLUMNS, MAX_ROWS, sheet_grid
from tests.conftest import WISE

SHIPPED = sorted(folder for folder in list_game_folders())
OBJECT_NAMES = {"DeckCustom", "Card", "Custom_Dice", "Custom_Tile"}
GREY = (128, 128, 128)


def save_of(result) -> dict:
    return json.loads(next(p for p in result.files if p.parent.name == "tts" and p.suffix == ".json").read_text())


def image_at(url: str) -> Image.Image:
    """The image a file:/// URL of the save names (it must exist: that is what TTS will open)."""
    parsed = urlparse(url)
    assert parsed.scheme == "file", url
    return Image.open(Path(unquote(parsed.path)))


def cards_in(save: dict) -> list[dict]:
    """Every object that stands for one copy of a card, die or sheet."""
    found = []
    for obj in save["ObjectStates"]:
        found += obj["ContainedObjects"] if obj["Name"] == "DeckCustom" else [obj]
    return found


# -- geometry --------------------------------------------------------------------------------
@pytest.mark.parametrize("slots", range(1, MAX_COLUMNS * MAX_ROWS + 1))
def test_a_sheet_grid_holds_its_cards_within_10_by_7_with_no_empty_row(slots):
    columns, rows = sheet_grid(slots, 63, 88)
    assert 1 <= columns <= MAX_COLUMNS and 1 <= rows <= MAX_ROWS
    assert columns * rows >= slots > columns * (rows - 1)  # no row left empty


def test_a_small_deck_is_not_ten_wide_and_a_full_one_is_ten_by_seven():
    assert sheet_grid(3, 63, 88)[0] < MAX_COLUMNS  # two cards and the hidden one
    assert sheet_grid(70, 63, 88) == (10, 7)
    wide, narrow = sheet_grid(12, 88, 63), sheet_grid(12, 63, 88)  # landscape cards stack in fewer columns
    assert wide[0] <= narrow[0]


@pytest.mark.parametrize("size", [(63, 88), (88, 63), (41, 63), (180, 250), (20, 20)])
@pytest.mark.parametrize("max_px", [512, 1000, 4096])
def test_cards_are_scaled_so_a_sheet_fits_the_limit(size, max_px):
    for slots in (1, 3, 17, 70):
        columns, rows = sheet_grid(slots, *size)
        dpi = fit_dpi(columns, rows, size, 3.0, max_px)
        width, height = trimmed_cell(size, 3.0, dpi)
        assert columns * width <= max_px and rows * height <= max_px
        assert dpi == 300 or columns * trimmed_cell(size, 3.0, dpi + 1)[0] > max_px \
            or rows * trimmed_cell(size, 3.0, dpi + 1)[1] > max_px  # and no smaller than it must be


# -- the saved object of every shipped game --------------------------------------------------
@pytest.fixture(scope="module", params=[pytest.param(folder, marks=pytest.mark.slow) for folder in SHIPPED],  # a TTS build each
                ids=[folder.name for folder in SHIPPED])
def shipped(request, build_game):
    _, manifest, result = build_game(request.param, tts=True)
    return manifest, result, save_of(result)


def test_the_save_has_the_saved_object_fields_with_their_types(shipped):
    _, _, save = shipped
    for key, kind in {"SaveName": str, "GameMode": str, "Date": str, "Table": str, "Sky": str, "Note": str,
                      "LuaScript": str, "LuaScriptState": str, "XmlUI": str, "TabStates": dict, "Tags": list,
                      "Gravity": float, "PlayArea": float, "ObjectStates": list}.items():
        assert isinstance(save[key], kind), key
    for obj in save["ObjectStates"]:
        assert obj["Name"] in OBJECT_NAMES
        assert isinstance(obj["GUID"], str) and len(obj["GUID"]) == 6
        assert set(obj["Transform"]) == {f"{a}{b}" for a in ("pos", "rot", "scale") for b in "XYZ"}
        assert all(isinstance(value, float) for value in obj["Transform"].values())
        assert isinstance(obj["Nickname"], str) and isinstance(obj["Locked"], bool)
        if obj["Name"] in ("DeckCustom", "Card"):
            assert isinstance(obj["SidewaysCard"], bool)
            for key, entry in obj["CustomDeck"].items():
                assert key.isdigit() and int(key) >= 1
                assert {name: type(value) for name, value in entry.items()} == {
                    "FaceURL": str, "BackURL": str, "NumWidth": int, "NumHeight": int, "BackIsHidden": bool,
                    "UniqueBack": bool, "Type": int}
        if obj["Name"] == "DeckCustom":
            assert all(isinstance(card_id, int) for card_id in obj["DeckIDs"])
            assert all(card["Name"] == "Card" and isinstance(card["CardID"], int) for card in obj["ContainedObjects"])
        if obj["Name"] == "Custom_Dice":
            assert obj["CustomImage"]["CustomDice"] == {"Type": 1} and isinstance(obj["CustomImage"]["ImageURL"], str)
        if obj["Name"] == "Custom_Tile":
            tile = obj["CustomImage"]["CustomTile"]
            assert isinstance(tile["Type"], int) and isinstance(tile["Stretch"], bool)


def test_card_ids_are_the_deck_key_times_100_plus_the_slot(shipped):
    _, _, save = shipped
    for obj in save["ObjectStates"]:
        if obj["Name"] not in ("DeckCustom", "Card"):
            continue
        cards = obj["ContainedObjects"] if obj["Name"] == "DeckCustom" else [obj]
        if obj["Name"] == "DeckCustom":
            assert obj["DeckIDs"] == [card["CardID"] for card in cards]
        for card in cards:
            key, slot = divmod(card["CardID"], 100)
            entry = obj["CustomDeck"][str(key)]
            assert card["CustomDeck"] == {str(key): entry}
            assert slot < entry["NumWidth"] * entry["NumHeight"] - 1  # the last slot is the hidden card's
        cards_of_slot: dict[int, set] = {}
        for card in cards:
            cards_of_slot.setdefault(card["CardID"], set()).add(card["GMNotes"])
        assert all(len(names) == 1 for names in cards_of_slot.values())  # a slot shows one card, all its copies
        assert len(cards_of_slot) == len({card["GMNotes"] for card in cards})  # and each card has one slot


def test_a_sheet_holds_each_distinct_face_once():
    from spellpress.build import BuildOptions, plan
    from spellpress.load.game import load_game
    from spellpress.write.tts_plan import TtsOptions, plan_tts

    game = load_game(WISE)
    laid, _, _ = plan(game, BuildOptions())
    deck = next(d for d in plan_tts(game, laid, TtsOptions()).decks if d.component.id == "consonants")
    on_sheets = [f.card.id for sheet in deck.sheets for f in sheet.cards]
    assert sorted(on_sheets) == sorted(c.id for c in game.component("consonants").cards)  # 21 faces, not 108 copies
    assert len(deck.sheets) == 1 and deck.dpi == 274  # was 2 sheets at 164 dpi with every copy


def test_every_card_of_the_game_is_on_the_table_exactly_count_times(shipped):
    manifest, _, save = shipped
    expected = Counter({f"{component['id']}/{card['id']}": card["count"]
                        for component in manifest["components"] for card in component["cards"]})
    assert Counter(card["GMNotes"] for card in cards_in(save)) == expected


def test_every_image_exists_is_rgb_and_at_most_4096_px(shipped):
    _, _, save = shipped
    urls = set()
    for obj in save["ObjectStates"]:
        for entry in obj.get("CustomDeck", {}).values():
            urls |= {entry["FaceURL"], entry["BackURL"]}
        image = obj.get("CustomImage", {})
        urls |= {image[key] for key in ("ImageURL", "ImageSecondaryURL") if image.get(key)}
    for url in urls:
        image = image_at(url)
        assert image.mode == "RGB" and max(image.size) <= 4096, (url, image.size)
    for entry in (e for obj in save["ObjectStates"] for e in obj.get("CustomDeck", {}).values()):
        width, height = image_at(entry["FaceURL"]).size
        assert width % entry["NumWidth"] == 0 and height % entry["NumHeight"] == 0  # whole cells


def test_every_object_has_its_own_guid(shipped):
    _, _, save = shipped
    guids = [obj["GUID"] for obj in save["ObjectStates"]] + [card["GUID"] for card in cards_in(save)]
    assert len(set(guids)) == len(set(map(id, [*save["ObjectStates"], *cards_in(save)])))


def test_decks_lie_apart_on_the_table(shipped):
    _, _, save = shipped
    spots = [(round(o["Transform"]["posX"], 2), round(o["Transform"]["posZ"], 2)) for o in save["ObjectStates"]]
    assert len(set(spots)) == len(spots)


# -- pixels: each CardID's cell holds that card ------------------------------------------------
def cells_of(sheet: Image.Image, entry: dict) -> list[np.ndarray]:
    width, height = sheet.width // entry["NumWidth"], sheet.height // entry["NumHeight"]
    pixels = np.asarray(sheet.convert("RGB")).astype(int)
    return [pixels[row * height : (row + 1) * height, column * width : (column + 1) * width]
            for row in range(entry["NumHeight"]) for column in range(entry["NumWidth"])]


@pytest.mark.parametrize("game", ["word-to-the-wise", "evocabulary"])
@pytest.mark.slow
def test_each_card_ids_cell_shows_that_cards_face_and_the_hidden_card_is_last(game, build_game):
    folder = next(f for f in SHIPPED if f.name == game)
    _, manifest, result = build_game(folder, tts=True, png=True)
    out = result.files[0].parent
    bleed_px = round(manifest["bleed_mm"] / 25.4 * 300)
    expected_of = functools.cache(lambda path, cell: trimmed(path.read_bytes(), bleed_px, cell).astype(int))
    checked = 0
    for obj in save_of(result)["ObjectStates"]:
        if obj["Name"] != "DeckCustom":
            continue
        sheets = {key: (cells_of(image_at(e["FaceURL"]), e),
                        cells_of(image_at(e["BackURL"]), e) if e["UniqueBack"] else None, e)
                  for key, e in obj["CustomDeck"].items()}
        for card in obj["ContainedObjects"]:
            key, slot = divmod(card["CardID"], 100)
            faces, backs, _ = sheets[str(key)]
            component, card_id = card["GMNotes"].split("/")
            cell = faces[slot]
            for side, cells in (("front", faces), ("back", backs)):
                if cells is None:
                    continue
                expected = expected_of(out / "png" / component / f"{card_id}-{side}.png", (cell.shape[1], cell.shape[0]))
                assert np.abs(cells[slot] - expected).mean() < 6, (card["GMNotes"], side)
                checked += 1
        for faces, _, entry in sheets.values():
            # the last slot: the shared back when BackIsHidden, else the plain grey card
            if entry["BackIsHidden"]:
                back = np.asarray(image_at(entry["BackURL"]).convert("RGB")).astype(int)
                assert np.abs(faces[-1] - back).mean() < 2
            else:
                assert (faces[-1] == GREY).all()
    assert checked > 100


@pytest.mark.slow
def test_a_wrong_card_in_a_cell_is_told_apart(build_game):
    """The tolerance above separates cards: a neighbour's cell differs by far more."""
    _, manifest, result = build_game(WISE, tts=True, png=True)
    deck = next(o for o in save_of(result)["ObjectStates"] if o["Nickname"] == "Consonant cards")
    entry = deck["CustomDeck"]["1"]
    cells = cells_of(image_at(entry["FaceURL"]), entry)
    first, other = deck["ContainedObjects"][0], next(c for c in deck["ContainedObjects"]
                                                     if c["GMNotes"] != deck["ContainedObjects"][0]["GMNotes"])
    assert np.abs(cells[first["CardID"] % 100] - cells[other["CardID"] % 100]).mean() > 6


@pytest.mark.slow
def test_a_die_template_without_face_boxes_comes_as_a_tile_of_its_net(game_copy, tmp_path):
    from spellpress.build import BuildOptions, build
    from spellpress.paths import SHARED_TEMPLATES

    folder = game_copy()
    net = (SHARED_TEMPLATES / "die-net.yaml").read_text().replace("  face", "  side")
    (folder / "templates" / "plain-net.yaml").write_text(net)
    dice = folder / "dice.yaml"
    dice.write_text(dice.read_text().replace("template: die-net", "template: plain-net"))
    save = save_of(build(folder, BuildOptions(out=tmp_path / "out", tts=True)))
    dice_objects = [o for o in save["ObjectStates"] if o["GMNotes"].startswith("dice/")]
    assert [o["Name"] for o in dice_objects] == ["Custom_Tile", "Custom_Tile"]
    assert image_at(dice_objects[0]["CustomImage"]["ImageURL"]).size[0] > 0


# -- options -----------------------------------------------------------------------------------
def test_a_smaller_limit_jpeg_and_a_hosted_url(tmp_path, capsys):
    assert main(["build", str(WISE), "--tts", "--tts-max-px", "1024", "--tts-format", "jpg",
                 "--tts-url", "https://example.org/wise/", "--out", str(tmp_path)]) == 0
    tts = tmp_path / "word-to-the-wise" / "tts"
    save = json.loads((tts / "word-to-the-wise.json").read_text())
    entry = save["ObjectStates"][0]["CustomDeck"]["1"]
    assert entry["FaceURL"] == "https://example.org/wise/consonants-sheet1-21cards.jpg"  # 21 distinct cards
    for path in tts.glob("*.jpg"):
        image = Image.open(path)
        assert image.format == "JPEG" and image.mode == "RGB" and max(image.size) <= 1024
    assert not list(tts.glob("*.png"))


def test_a_bad_pixel_limit_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["build", "word-to-the-wise", "--tts", "--tts-max-px", "lots"])
    assert stop.value.code == 2 and "--tts-max-px" in capsys.readouterr().err


# -- Tabletopia ------------------------------------------------------------------------------
@pytest.mark.slow
def test_tabletopia_has_one_picture_per_side_all_of_a_component_one_size(build_game):
    folder = next(f for f in SHIPPED if f.name == "evocabulary")
    _, manifest, result = build_game(folder, tabletopia=True)
    pictures = [p for p in result.files if "tabletopia" in p.parts]
    by_component: dict[str, set] = {}
    for path in pictures:
        image = Image.open(path)
        assert image.mode == "RGB" and max(image.size) <= 4000
        by_component.setdefault(path.parent.name, set()).add(image.size)
    assert all(len(sizes) == 1 for sizes in by_component.values())
    for component in manifest["components"]:
        names = {p.name for p in pictures if p.parent.name == component["id"]}
        fronts = {f"{card['id']}-front.png" for card in component["cards"]}
        assert fronts <= names
        backs = names - fronts
        assert backs in (set(), {"back.png"}, {f"{card['id']}-back.png" for card in component["cards"]})


# -- issue 38 item 7: digital tables keep their faces -------------------------------------------
def laid_out(folder):
    from spellpress.build import BuildOptions, plan
    from spellpress.load.game import load_game

    game = load_game(folder)
    return game, plan(game, BuildOptions())[0]


def test_a_die_rolls_its_face_labels_not_1_to_6():
    from spellpress.write.tts_plan import TtsOptions, plan_tts
    from spellpress.write.tts_save import D6_ROTATIONS, saved_object

    game, laid = laid_out(WISE)
    save = saved_object(game, plan_tts(game, laid, TtsOptions()), lambda name: f"file:///{name}")
    dice = [obj for obj in save["ObjectStates"] if obj["Name"] == "Custom_Dice"]
    assert len(dice) == 2
    faces = {card.id: list(card.fields["faces"]) for card in game.component("dice").cards}
    for die in dice:
        values = die["RotationValues"]
        assert [v["Value"] for v in values] == faces[die["GMNotes"].split("/")[1]]  # A, E, I, O, U, WILD
        assert [tuple(v["Rotation"][axis] for axis in "xyz") for v in values] == D6_ROTATIONS
        assert all(isinstance(v["Rotation"][axis], float) for v in values for axis in "xyz")
    assert len({tuple(r) for r in D6_ROTATIONS}) == 6  # six different faces up


def test_small_tiles_and_tokens_get_512_px_on_their_longer_side():
    from spellpress.write.tabletopia import plan_tabletopia
    from spellpress.write.tts_plan import TtsOptions, plan_tts

    game, laid = laid_out(next(f for f in SHIPPED if f.name == "magic-spell"))
    small = {c.id for c in game.components if c.kind in ("tile", "token")}
    assert small == {"ingredients", "spirit"}
    for deck in plan_tts(game, laid, TtsOptions()).decks:
        if deck.component.id in small:
            assert max(deck.cell) >= 512, (deck.component.id, deck.cell)  # were 200-250 px at 300 dpi
        else:
            assert deck.dpi <= 300
    for pictures in plan_tabletopia(game, laid):
        if pictures.component.id in small:
            assert max(pictures.cell) >= 512, (pictures.component.id, pictures.cell)


@pytest.mark.slow
def test_tabletopia_gets_a_die_as_its_six_faces(build_game):
    _, manifest, result = build_game(WISE, tabletopia=True, png=True)
    out = result.files[0].parent
    faces = sorted(p.name for p in (out / "tabletopia" / "dice").iterdir())
    assert faces == sorted(f"vowel-die-{n}-face{k}.png" for n in (1, 2) for k in range(1, 7))
    first = Image.open(out / "tabletopia" / "dice" / "vowel-die-1-face1.png")
    assert first.mode == "RGB" and first.size[0] == first.size[1] >= 512
    # the face is the net's face1 box (A on vowel die 1), not the flat net with its tabs
    net = np.asarray(Image.open(out / "png" / "dice" / "vowel-die-1-front.png").convert("RGB")).astype(int)
    bleed = round(manifest["bleed_mm"] / 25.4 * 300)
    x, y, side = (round(v / 25.4 * 300) for v in (27, 7.5, 20))
    crop = Image.fromarray(net[bleed + y : bleed + y + side, bleed + x : bleed + x + side].astype(np.uint8))
    expected = np.asarray(crop.resize(first.size, Image.Resampling.LANCZOS)).astype(int)
    assert np.abs(np.asarray(first).astype(int) - expected).mean() < 6
    other = np.asarray(Image.open(out / "tabletopia" / "dice" / "vowel-die-1-face2.png")).astype(int)
    assert np.abs(other - expected).mean() > 6  # E is not A
