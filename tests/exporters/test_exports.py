"""PNG per card, Tabletop Simulator sheets, the calibration page, and the command line."""

import json

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader

from spellpress.cli import main
from spellpress.load.game import load_game
from spellpress.paths import list_game_folders
from spellpress.units import mm_to_px
from tests.conftest import DUPLEX, ROOT, WISE


def test_png_per_card_side_at_300_dpi_with_bleed(build_game):
    _, manifest, result = build_game(DUPLEX, png=True)
    pngs = [p for p in result.files if p.suffix == ".png"]
    distinct = sum(len(c["cards"]) for c in manifest["components"])
    assert len(pngs) == 2 * distinct
    front = next(p for p in pngs if p.name == "cards-001-front.png")
    image = Image.open(front)
    assert image.size == (mm_to_px(63 + 6), mm_to_px(88 + 6)) == (815, 1110)
    assert image.info["dpi"][0] == pytest.approx(300, abs=0.5)
    pixels = np.asarray(image.convert("RGB")).astype(int)
    # the bleed is painted too: a corner pixel is the face's red
    assert tuple(pixels[2, 2]) == (255, 0, 0)
    # the marker sits 7 mm in from the trim's top-left, i.e. 10 mm from the bleed corner
    centre = mm_to_px(10)
    assert pixels[centre, centre].sum() < 100


@pytest.mark.slow
def test_tts_sheets_are_at_most_10_by_7_with_the_hidden_card_last(build_game):
    import json

    _, _, result = build_game(WISE, tts=True)
    sheets = sorted(p for p in result.files if "consonants-sheet" in p.name)
    assert [p.name for p in sheets] == ["consonants-sheet1-21cards.png"]  # each of the 21 letters once: copies share it
    save = json.loads(next(p for p in result.files if p.suffix == ".json" and p.parent.name == "tts").read_text())
    decks = [d for o in save["ObjectStates"] for d in [o, *o.get("ContainedObjects", [])] if "CustomDeck" in d]
    (grid,) = {(s["NumWidth"], s["NumHeight"]) for d in decks for s in d["CustomDeck"].values() if "consonants" in s["FaceURL"]}
    columns, rows = grid
    assert columns <= 10 and rows <= 7 and columns * rows >= 22  # the 21 faces and the hidden card
    first = Image.open(sheets[0])
    back = Image.open(next(p for p in result.files if p.name == "consonants-back.png"))
    assert first.width <= 10_000
    card_w, card_h = first.width // columns, first.height // rows
    assert back.size == (card_w, card_h)
    hidden = np.asarray(first.crop(((columns - 1) * card_w, (rows - 1) * card_h, columns * card_w, rows * card_h))
                        .convert("RGB")).astype(int)
    assert np.abs(hidden - np.asarray(back.convert("RGB")).astype(int)).mean() < 2


def test_list_names_every_game(capsys):
    assert main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    games = [load_game(folder) for folder in list_game_folders()]
    shipped = [folder for folder in (ROOT / "cards").iterdir() if (folder / "game.yaml").is_file()]
    assert len(lines) == len(games) == len(shipped) >= 9  # the seven games and two editions, and any added since
    for line, game in zip(lines, games, strict=True):
        assert line.startswith(f"{game.id} ") and f" {game.name} (" in line, line


def test_check_reports_ok(capsys):
    assert main(["check", "word-to-the-wise"]) == 0
    assert "word-to-the-wise: ok" in capsys.readouterr().out


def test_calibration_page_has_front_and_back(tmp_path, capsys):
    assert main(["calibrate", "--paper", "letter", "--out", str(tmp_path)]) == 0
    reader = PdfReader(tmp_path / "calibration-letter-duplex-long.pdf")
    assert len(reader.pages) == 2
    assert "back offset" in reader.pages[0].extract_text()
    assert "+2" in reader.pages[1].extract_text()


def test_build_writes_the_manifest_beside_the_pdf(tmp_path, capsys):
    assert main(["build", "word-to-the-wise", "--paper", "letter", "--backs", "duplex-short", "--out", str(tmp_path)]) == 0
    manifest = json.loads((tmp_path / "word-to-the-wise" / "manifest.json").read_text())
    assert manifest["paper"] == "letter" and manifest["backs"] == "duplex-short"
    assert (tmp_path / "word-to-the-wise" / "word-to-the-wise-letter.pdf").exists()


def test_an_image_box_is_drawn_and_embedded_once(game_copy, tmp_path):
    from spellpress.build import BuildOptions, build
    from tests.conftest import DUPLEX

    folder = game_copy(DUPLEX)
    Image.new("RGB", (40, 20), (0, 200, 0)).save(folder / "green.png")
    template = folder / "templates" / "marker-front.yaml"
    template.write_text(template.read_text() + "  pic: {kind: image, x: 10mm, y: 12mm, w: 16mm, h: 8mm, src: green.png}\n")
    result = build(folder, BuildOptions(out=tmp_path / "out", png=True))
    reader = PdfReader(result.files[0])
    images = set()
    for page in reader.pages:
        for form in (page["/Resources"].get("/XObject") or {}).values():
            inner = form.get_object().get("/Resources", {}).get("/XObject") or {}
            images.update(ref.idnum for ref in inner.values())
    assert len(images) == 1
    png = next(p for p in result.files if p.name == "cards-001-front.png")
    pixel = Image.open(png).convert("RGB").getpixel((mm_to_px(3 + 18), mm_to_px(3 + 16)))
    assert pixel == (0, 200, 0)
