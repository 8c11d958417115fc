"""Card Game Simulator: `build --digital cgs` writes a custom-game folder in the FinolDigital.Cgs.Json
format (its cgs.json schema is in tests/fixtures/cgs-schema/), every card with its picture, and a zip."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from spellpress.cli import main
from spellpress.exporters.cgs import CARD_KINDS, hand_size
from spellpress.load.game import load_game
from spellpress.paths import list_game_folders
from spellpress.units import MM_PER_INCH
from tests.conftest import FIXTURES

SCHEMA = json.loads((FIXTURES / "cgs-schema" / "cgs.json").read_text())
SHIPPED = sorted(list_game_folders())
DECK_LINE = re.compile(r"(?P<count>\d+) \[(?P<id>[^\]]+)\] (?P<name>.+) \((?P<set>[^)]+)\)")
CARD_KEYS = {"id", "name", "set", "backs"}  # cardIdIdentifier, cardNameIdentifier, cardSetIdentifier defaults; backs
PYTHON_TYPES = {"string": str, "integer": int, "boolean": bool, "stringList": str}


def built(folder: Path, out: Path, *extra: str) -> Path:
    assert main(["build", str(folder), "--digital", "cgs", "--out", str(out), *extra]) == 0
    game = load_game(folder)
    top = out / game.id / "cgs"
    folders = [path for path in top.iterdir() if path.is_dir()]
    assert len(folders) == 1
    return folders[0]


def check_format(folder: Path, game_folder: Path) -> None:
    """What CGS reads from the folder, field by field, against the format."""
    import jsonschema

    game = load_game(game_folder)
    spec = json.loads((folder / "cgs.json").read_text())
    jsonschema.Draft4Validator(SCHEMA).validate(spec)
    assert spec["name"] == game.name and (folder / f"{spec['name']}.json").read_bytes() == (folder / "cgs.json").read_bytes()
    assert spec["gameStartHandCount"] == hand_size(game)
    kinds = {prop["name"]: prop["type"] for prop in spec["cardProperties"]}
    sets = json.loads((folder / "AllSets.json").read_text())
    assert all(set(s) == {"code", "name"} and isinstance(s["code"], str) and isinstance(s["name"], str) for s in sets)
    codes = {s["code"] for s in sets}
    components = {c.id: c for c in game.components if c.kind in CARD_KINDS and c.cards}
    assert codes == set(components)
    cards = json.loads((folder / "AllCards.json").read_text())
    backs = {path.stem for path in (folder / "backs").glob("*.png")}
    assert len({card["id"] for card in cards}) == len(cards) == sum(len(c.cards) for c in components.values())
    for card in cards:
        assert all(isinstance(card[key], str) for key in ("id", "name", "set")) and card["set"] in codes
        for back in card.get("backs", []):
            assert back in backs, f"{card['id']}: back {back!r} has no picture"
        for name, value in card.items():
            if name in CARD_KEYS:
                continue
            assert name in kinds, f"{card['id']}: {name} is not a declared card property"
            expected = PYTHON_TYPES[kinds[name]]
            assert isinstance(value, expected) and (expected is bool or not isinstance(value, bool)), (card["id"], name, value)
        # every card's picture, at its component's trim proportions
        component = components[card["set"]]
        with Image.open(folder / "sets" / card["set"] / f"{card['id']}.png") as picture:
            width, height = picture.size
            assert picture.mode == "RGB"
        assert abs(width / height - component.size[0] / component.size[1]) < 2 / min(width, height)
    if (folder / "CardBack.png").exists() or backs:
        assert (folder / "CardBack.png").is_file()
    assert spec["cardSize"]["x"] * MM_PER_INCH == pytest.approx(next(iter(components.values())).size[0], abs=0.01)
    # decks: CGS's txt format, every id known, a component's deck as many cards as it has
    ids = {card["id"]: card["set"] for card in cards}
    for deck in (folder / "decks").glob("*.txt"):
        lines = [DECK_LINE.fullmatch(line) for line in deck.read_text().splitlines()]
        assert lines and all(lines), deck.name
        for line in lines:
            assert ids[line["id"]] == line["set"]
    for component in components.values():
        deck = (folder / "decks" / f"{component.name}.txt").read_text().splitlines()
        assert sum(int(DECK_LINE.fullmatch(line)["count"]) for line in deck) == component.copies
    # the zip holds the folder, file for file
    with zipfile.ZipFile(folder.parent / f"{folder.name}.cgs.zip") as archive:
        names = {name for name in archive.namelist()}
        files = {f"{folder.name}/{path.relative_to(folder).as_posix()}" for path in folder.rglob("*") if path.is_file()}
        assert names == files
        assert all(archive.read(name) == (folder.parent / name).read_bytes() for name in names)


@pytest.mark.slow
@pytest.mark.parametrize("game_folder", SHIPPED, ids=[f.name for f in SHIPPED])
def test_every_shipped_game_makes_a_cgs_game_in_the_format(tmp_path, game_folder):
    check_format(built(game_folder, tmp_path), game_folder)


@pytest.mark.slow
def test_a_hosted_game_names_its_addresses_and_its_folder_after_the_host(tmp_path):
    wise = next(f for f in SHIPPED if f.name == "word-to-the-wise")
    folder = built(wise, tmp_path, "--digital-url", "https://example.org/games/wise/")
    assert folder.name == "A Word to the Wise@example.org"
    spec = json.loads((folder / "cgs.json").read_text())
    assert spec["autoUpdateUrl"] == "https://example.org/games/wise/cgs.json"
    assert spec["cardImageUrl"] == "https://example.org/games/wise/sets/{cardSet}/{cardId}.{cardImageFileType}"
    for deck in spec["deckUrls"]:
        assert deck["url"].startswith("https://example.org/games/wise/decks/") and " " not in deck["url"]
        assert (folder / "decks" / f"{deck['name']}.txt").is_file()
    for back in spec["cardBackFaceImageUrls"]:
        assert (folder / "backs" / f"{back['id']}.png").is_file()
    assert [deck["name"] for deck in spec["gameStartDecks"]] == ["Consonant cards"]  # the letter deck
    assert {p["name"]: p["type"] for p in spec["cardProperties"]}.items() >= {"letter": "string", "points": "integer"}.items()
    check_format(folder, wise)


@pytest.mark.parametrize("argv, message", [
    (["--digital-url", "https://example.org/x"],
     "--digital-url: is where a Card Game Simulator game is hosted: add --digital cgs"),
    (["--digital", "cgs", "--digital-url", "ftp://example.org/x"], "expected an address such as https://example.org/my-game"),
])
def test_digital_url_is_for_a_hosted_cgs_game_only(tmp_path, capsys, argv, message):
    wise = next(f for f in SHIPPED if f.name == "word-to-the-wise")
    assert main(["build", str(wise), "--out", str(tmp_path), *argv]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "word-to-the-wise").exists()
