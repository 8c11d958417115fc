"""The game-icons.net library: any of its names works as an icon, builds credit what they used."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pypdf
import pytest
from PIL import Image

from spellpress import icon_library
from spellpress.build import BuildOptions, build
from spellpress.errors import UserError
from spellpress.scaffold.new import new_game

STAFF_RED = (0x7A, 0x2E, 0x2E)
ART_BOX = """  art:
    kind: icon
    x: 4mm
    y: "{{ card_height - 14 }}"
    w: 9mm
    h: 9mm
    icon: wizard-staff
    color: "#7a2e2e"
"""


def test_the_library_holds_the_whole_set_with_authors():
    names = icon_library.names()
    assert len(names) > 4000
    assert {"fire-ray", "crossed-swords", "wizard-staff", "owl"} <= set(names)
    assert icon_library.author("fire-ray") == "Lorc" and icon_library.author("rolling-dices") == "Delapouite"
    assert icon_library.has("eskimo") and icon_library.svg_text("eskimo") == icon_library.svg_text("person-in-blizzard")
    assert not icon_library.has("no-such-icon") and not icon_library.has(None)


def test_search_finds_names_holding_every_word_whole_words_first():
    found = icon_library.search(["fire"])
    assert found[0] == "fire" and "fire-ray" in found and "campfire" in found
    assert all("fire" in name for name in found)
    assert icon_library.search(["fire", "ray"]) == ["fire-ray"]
    assert icon_library.search(["zzqq"]) == []


def _game_with_library_icons(tmp_path):
    folder = tmp_path / "lib"
    new_game(folder, "poker")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace("Inline icons sit on the line: :star-swirl:",
                                               "Library icons: :fire-ray: and :crossed-swords:"))
    template = folder / "templates" / "my-card.yaml"
    template.write_text(template.read_text() + ART_BOX)
    return folder, template


def test_a_card_draws_library_icons_and_the_build_credits_them(tmp_path):
    folder, template = _game_with_library_icons(tmp_path)
    out = tmp_path / "out"
    result = build(folder, BuildOptions(out=out, png=True, workers=1))
    credits = (out / "lib" / "icon-credits.md").read_text()
    rows = [line for line in credits.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert [row.split("|")[1].strip() for row in rows] == ["crossed-swords", "fire-ray", "wizard-staff"]
    assert "CC BY 3.0" in credits and "| wizard-staff | Lorc | https://game-icons.net/1x1/lorc/wizard-staff.html |" in credits
    assert out / "lib" / "icon-credits.md" in result.files

    def staff_pixels() -> int:
        pixels = np.asarray(Image.open(out / "lib" / "png" / "cards" / "first-front.png").convert("RGB")).astype(int)
        return int((np.abs(pixels - STAFF_RED).sum(axis=2) < 30).sum())

    drawn = staff_pixels()
    assert drawn > 2000  # a 9 mm icon at 300 dpi is about 1,100 px square; the staff covers a fair part
    template.write_text(template.read_text().replace(ART_BOX, ""))
    build(folder, BuildOptions(out=out, png=True, workers=1))
    assert staff_pixels() == 0


def test_an_unknown_icon_is_refused_with_the_closest_library_name(tmp_path):
    folder, template = _game_with_library_icons(tmp_path)
    template.write_text(template.read_text().replace("icon: wizard-staff", "icon: wizzard-staff"))
    with pytest.raises(UserError) as caught:
        build(folder, BuildOptions(out=tmp_path / "out"))
    message = str(caught.value)
    assert "unknown icon 'wizzard-staff' (did you mean 'wizard-staff'?)" in message
    assert "spellpress icons WORD" in message
    assert not (tmp_path / "out" / "lib").exists()


def test_the_icons_command_lists_and_writes_a_contact_sheet(tmp_path):
    done = subprocess.run([sys.executable, "-m", "spellpress", "icons", "fire", "--out", str(tmp_path)],
                          capture_output=True, text=True, check=True)
    count = len(icon_library.search(["fire"]))
    assert f"{count} icons with 'fire'" in done.stdout and "fire-ray" in done.stdout
    pdf = pypdf.PdfReader(tmp_path / "icons" / "icons-fire.pdf")
    assert len(pdf.pages) == -(-count // 80)
    text = pdf.pages[0].extract_text()
    assert "fire-ray" in text and "campfire" in text
    # A4 at 150 dpi (pdfium rounds the width up)
    assert Image.open(tmp_path / "icons" / "icons-fire.png").size in {(1240, 1754), (1241, 1754)}


def test_the_templates_command_lists_the_shared_templates(tmp_path):
    done = subprocess.run([sys.executable, "-m", "spellpress", "templates", "--out", str(tmp_path)],
                          capture_output=True, text=True, check=True)  # its contact sheet goes to the test's folder
    for name in ("base-card", "deck-back", "die-net", "letter-card", "text-card"):
        assert f"\n{name}" in "\n" + done.stdout
    assert "letter-card (extends base-card)" in done.stdout


def test_the_docs_command_lists_and_prints_the_manual_pages():
    listed = subprocess.run([sys.executable, "-m", "spellpress", "docs"], capture_output=True, text=True, check=True)
    for page in ("cli", "yaml", "tutorial", "rules", "letters"):
        assert f"  {page} " in listed.stdout
    shown = subprocess.run([sys.executable, "-m", "spellpress", "docs", "tutorial"], capture_output=True, text=True, check=True)
    assert shown.stdout.startswith("# Tutorial")
    wrong = subprocess.run([sys.executable, "-m", "spellpress", "docs", "yml"], capture_output=True, text=True)
    assert wrong.returncode == 2 and "did you mean 'yaml'?" in wrong.stderr
