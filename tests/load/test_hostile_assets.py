"""Icons, images and fonts that `check` passed and `build` could not use (issue 43): each is refused by
both, at its file (and line where it has one), exit 2, quickly, with no traceback and nothing written."""

from __future__ import annotations

import io
import random
import shutil
import time
from pathlib import Path

import pytest

from spellpress.cli import main
from tests.conftest import ROOT
from tests.load.test_escapes import SVG_HEAD, game_with_icon

GARAMOND = ROOT / "fonts" / "EBGaramond-Regular.ttf"


def nested_uses(levels: int, fan_out: int = 10) -> str:
    """About 1.8 KB that svglib expands to fan_out ** levels copies of one path (80 s and 261 MB at 7 levels)."""
    groups = "".join(f'<g id="l{i}">' + f'<use xlink:href="#l{i - 1}"/>' * fan_out + "</g>\n" for i in range(1, levels + 1))
    return SVG_HEAD + f'<defs><path id="l0" d="M1 1 L9 9 L1 9 Z"/>\n{groups}</defs>\n<use xlink:href="#l{levels}"/>\n</svg>\n'


def truncated_jpeg() -> bytes:
    from PIL import Image

    picture = Image.effect_noise((400, 300), 60).convert("RGB")
    buffer = io.BytesIO()
    picture.save(buffer, "JPEG", quality=90)
    return buffer.getvalue()[: len(buffer.getvalue()) // 2]


def damaged_glyphs() -> bytes:
    """EB Garamond with its glyph outlines overwritten in part: the tables still parse, the glyphs do not."""
    from reportlab.pdfbase.ttfonts import TTFontFile

    data = bytearray(GARAMOND.read_bytes())
    glyf = TTFontFile(str(GARAMOND), validate=0).table["glyf"]
    noise = random.Random(1)
    for at in range(glyf["offset"], glyf["offset"] + glyf["length"], 7):
        data[at] = noise.randrange(256)
    return bytes(data)


ICONS = [
    # (id, the icon's text, where the error points (line of the icon), words)
    ("nested-use", nested_uses(7), "icons/mark.svg:", "<use> elements expand to"),
    ("viewbox-1e308", SVG_HEAD.replace('viewBox="0 0 10 10"', 'viewBox="0 0 1e308 1e308"') + "</svg>\n",
     "icons/mark.svg:1:1", "viewBox: the number 1e308 is beyond"),
    ("path-nan", SVG_HEAD + '<path d="M1 1 L9 9 L1 nan Z"/>\n</svg>\n', "icons/mark.svg:2:1", "d: 'nan' is not a number"),
    ("circle-1e308", SVG_HEAD + '<circle cx="5" cy="5" r="1e308"/>\n</svg>\n', "icons/mark.svg:2:1", "r: the number 1e308"),
    ("path-1e400", SVG_HEAD + '<path d="M1 1 L9 9 L1 1e400 Z"/>\n</svg>\n', "icons/mark.svg:2:1", "d: the number 1e400"),
    ("scale-nan", SVG_HEAD + '<g transform="scale(NaN)"><rect width="5" height="5"/></g>\n</svg>\n', "icons/mark.svg:2:1",
     "transform: 'NaN' is not a number"),
]


@pytest.mark.parametrize("case", ICONS, ids=[c[0] for c in ICONS])
@pytest.mark.parametrize("command", ["check", "build"])
def test_an_icon_build_cannot_draw_is_refused_by_check_and_build(game_copy, tmp_path, capsys, monkeypatch, case, command):
    name, text, where, words = case
    folder = game_with_icon(game_copy, tmp_path, text)
    assert_refused(folder, tmp_path, capsys, monkeypatch, command, where, words)


def test_an_image_cut_short_is_refused_in_an_image_box_and_in_an_icon(game_copy, tmp_path, capsys, monkeypatch):
    folder = game_with_icon(game_copy, tmp_path, SVG_HEAD + '<image xlink:href="photo.jpg" width="10" height="10"/>\n</svg>\n')
    (folder / "icons" / "photo.jpg").write_bytes(truncated_jpeg())
    assert_refused(folder, tmp_path, capsys, monkeypatch, "check", "icons/mark.svg:2:1", "'photo.jpg' cannot be read")
    shutil.rmtree(folder)
    folder = game_with_icon(game_copy, tmp_path, SVG_HEAD + "</svg>\n")
    (folder / "photo.jpg").write_bytes(truncated_jpeg())
    template = folder / "templates" / "consonant-card.yaml"
    template.write_text(template.read_text() + "  pic: {kind: image, x: 5mm, y: 5mm, w: 10mm, h: 10mm, src: photo.jpg}\n")
    assert_refused(folder, tmp_path, capsys, monkeypatch, "build", "templates/consonant-card.yaml:",
                   "image 'photo.jpg' cannot be read: image file is truncated")


@pytest.mark.parametrize("command", ["check", "build"])
def test_a_font_with_damaged_glyphs_is_refused(game_copy, tmp_path, capsys, monkeypatch, command):
    folder = game_with_icon(game_copy, tmp_path, SVG_HEAD + "</svg>\n")
    (folder / "Damaged.ttf").write_bytes(damaged_glyphs())
    game = folder / "game.yaml"
    game.write_text(game.read_text() + "fonts: {Fancy: Damaged.ttf}\n")
    template = folder / "templates" / "consonant-card.yaml"
    template.write_text(template.read_text() + "  z: {kind: text, x: 5mm, y: 5mm, w: 20mm, h: 5mm, text: Hello, font: Fancy}\n")
    assert_refused(folder, tmp_path, capsys, monkeypatch, command, "game.yaml:", "font 'Damaged.ttf' has damaged glyph")


def assert_refused(folder: Path, tmp_path: Path, capsys, monkeypatch, command: str, where: str, words: str) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    started = time.monotonic()
    code = main([command, folder.name] + (["--out", str(out)] if command == "build" else []))
    elapsed = time.monotonic() - started
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err and "hit a bug" not in err
    assert where in err and words in err, err
    assert not out.exists()
    assert elapsed < 20, f"{elapsed:.1f} s"


@pytest.mark.slow
def test_uses_are_counted_as_svglib_expands_them(game_copy, tmp_path, capsys, monkeypatch):
    """10 + 100 + 1,000 copies (and the top <use>) are drawn; one level more is 11,111, refused with its count."""
    folder = game_with_icon(game_copy, tmp_path, nested_uses(3))
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 0, capsys.readouterr().err
    (folder / "icons" / "mark.svg").write_text(nested_uses(4))
    assert main(["check", folder.name]) == 2
    assert "its <use> elements expand to 11,111 copies (<use> expansions; at most 2,000)" in capsys.readouterr().err
