"""The safe zone judges what a box prints (glyph outlines, an icon's paths, an image's opaque
pixels), not its rectangle; every box that leaves it is reported in the same run."""

from __future__ import annotations

import pytest
from PIL import Image

from spellpress.cli import main
from tests.conftest import WISE

TEMPLATE = "templates/consonant-card.yaml"


def check_with(game_copy, tmp_path, capsys, monkeypatch, boxes: str) -> tuple[int, str]:
    folder = game_copy(WISE)
    template = folder / TEMPLATE
    template.write_text(template.read_text() + boxes)
    Image.new("RGBA", (100, 100), (0, 0, 0, 0)).save(folder / "ring.png")  # drawn on below
    picture = Image.open(folder / "ring.png")
    picture.paste((200, 30, 30, 255), (40, 40, 60, 60))  # opaque only in the middle fifth
    picture.save(folder / "ring.png")
    monkeypatch.chdir(tmp_path)
    code = main(["check", str(folder.relative_to(tmp_path))])
    return code, capsys.readouterr().err


def test_a_box_may_reach_into_the_safe_band_when_its_ink_does_not(game_copy, tmp_path, capsys, monkeypatch):
    # each box's rectangle starts 0.5-2 mm from the trim (inside the 3 mm band); what it draws does not
    code, err = check_with(game_copy, tmp_path, capsys, monkeypatch,
                           '  wide: {kind: text, x: 0.5mm, y: 40mm, w: "{{ card_width - 1 }}", h: 8mm, text: "hi", '
                           'size: 10, align: center}\n'
                           "  badge: {kind: icon, x: 2mm, y: 20mm, w: 10mm, h: 10mm, icon: owl}\n"  # owl's paths: 1.28 mm in
                           "  art: {kind: image, src: ring.png, x: 0.5mm, y: 60mm, w: 10mm, h: 10mm}\n")
    assert code == 0, err


@pytest.mark.parametrize("box, side", [
    ('  edge: {kind: text, x: 0.5mm, y: 40mm, w: 30mm, h: 8mm, text: "Hi", size: 10}\n', "left"),
    ("  badge: {kind: icon, x: 1.5mm, y: 20mm, w: 10mm, h: 10mm, icon: owl}\n", "left"),  # ink 2.78 mm in
    ('  art: {kind: image, src: ring.png, x: "{{ card_width - 7 }}", y: 60mm, w: 10mm, h: 10mm, safe: true}\n', "right"),
])
def test_ink_in_the_safe_band_is_an_error(game_copy, tmp_path, capsys, monkeypatch, box, side):
    code, err = check_with(game_copy, tmp_path, capsys, monkeypatch, box)
    assert code == 2, err
    assert "leaves the safe zone (3 mm inside the trim)" in err and f"at its {side}" in err, err
    assert "Traceback" not in err


def test_every_box_that_leaves_the_safe_zone_is_reported_in_one_run(game_copy, tmp_path, capsys, monkeypatch):
    code, err = check_with(game_copy, tmp_path, capsys, monkeypatch,
                           '  one: {kind: text, x: 0.5mm, y: 40mm, w: 30mm, h: 8mm, text: "Hi", size: 10}\n'
                           "  two: {kind: icon, x: 1.5mm, y: 20mm, w: 10mm, h: 10mm, icon: owl}\n")
    assert code == 2
    assert "box 'one'" in err and "box 'two'" in err, err
