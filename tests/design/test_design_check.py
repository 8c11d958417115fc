"""The design check (`spellpress check`): each kind of finding on the fixture game's card that carries
it and on no other, warnings that name the template's line and the cards, --strict as exit 2, and the
shipped games clean."""

from __future__ import annotations

import shutil

import pytest

from spellpress.cli import main
from spellpress.design.check import design_problems
from spellpress.design.faces import faces
from spellpress.design.rules import check_faces
from spellpress.load.game import load_game
from spellpress.paths import list_game_folders
from tests.conftest import FIXTURES

GAME = FIXTURES / "design-game"

# card -> (the box the finding is reported at, words of its message)
EXPECTED = {
    "overlap": ("cover", "draws its icon over the text of box 'title'"),
    "edge": ("astride", "lies across the edge of box 'coin'"),
    "contrast": ("faint", "contrast of 2.81:1, under 4.5:1"),
    "small": ("tiny", "5.5 pt, under 6 pt"),
    "turned": ("points", "'9' printed upside down reads as '6'"),
    "shrunk": ("letter", "shrunk to 34.5 pt to fit, far below the 46.25 pt"),
    "border": ("edge", "within 0.91 mm of the trim"),
    "sliver": ("band", "stops 0.32 mm short of the edge of box 'frame'"),
}
AT_SHOP_SIZE = ("strip", "stops 0.32 mm short of the edge of box 'frame'")  # a fixed 57 mm strip in a 57.5 mm frame


@pytest.fixture(scope="module")
def findings():
    return check_faces(faces(load_game(GAME)))


@pytest.mark.parametrize("card", sorted(EXPECTED))
def test_each_fault_is_found_on_its_card_at_its_box(findings, card):
    box, words = EXPECTED[card]
    on_card = [(f.box.name, f.message) for f in findings if f.face.card == card]
    assert len(on_card) == 1, on_card
    assert on_card[0][0] == box
    assert words in on_card[0][1]


def test_the_clean_cards_have_no_finding(findings):
    assert {f.face.card for f in findings} == set(EXPECTED)


def test_a_finding_at_a_print_shops_size_only_names_the_size():
    problems = [str(p) for p in design_problems(load_game(GAME)) if "card 'shop-sliver'" in str(p)]
    assert len(problems) == 1
    assert "faults.yaml:16:" in problems[0] and AT_SHOP_SIZE[1] in problems[0]
    assert "design (at 63.5 x 88.9 mm, the size of drivethrucards, gamecrafter, makeplayingcards)" in problems[0]


def test_a_finding_at_the_games_size_is_not_said_again_at_a_shops():
    problems = [str(p) for p in design_problems(load_game(GAME)) if "card 'border'" in str(p)]
    assert len(problems) == 1 and "design:" in problems[0]


def test_check_warns_at_the_template_line_and_passes(capsys):
    assert main(["check", str(GAME)]) == 0
    out, err = capsys.readouterr()
    assert "9 design warnings" in out
    warnings = err.splitlines()
    assert len(warnings) == 9
    assert any(line.startswith("warning: ") and "faults.yaml:9:" in line and "card 'overlap'" in line for line in warnings)


def test_strict_makes_them_errors(capsys):
    assert main(["check", "--strict", str(GAME)]) == 2
    err = capsys.readouterr().err
    assert err.count("': design") == 9 and "9 errors; nothing written" in err


def test_one_line_names_every_card_a_finding_is_on(tmp_path, capsys):
    game = tmp_path / "design-game"
    shutil.copytree(GAME, game)
    template = game / "templates" / "faults.yaml"
    template.write_text(template.read_text().replace("""when: "{{ fault == 'contrast' }}", """, ""))
    problems = [str(p) for p in design_problems(load_game(game)) if "contrast" in p.message]
    assert len(problems) == 1
    assert "faults.yaml:11:" in problems[0] and "(on 11 faces: card 'clean' of 'cards'" in problems[0]


@pytest.mark.slow
@pytest.mark.parametrize("folder", list_game_folders(), ids=lambda folder: folder.name)
def test_the_shipped_games_pass_the_design_check(folder):
    assert [str(p) for p in design_problems(load_game(folder))] == []


def test_a_box_may_allow_a_finding_it_makes_on_purpose(tmp_path, capsys):
    game = tmp_path / "design-game"
    shutil.copytree(GAME, game)
    template = game / "templates" / "faults.yaml"
    text = template.read_text()
    template.write_text(text.replace("icon: star-swirl, color: \"#222222\"}\n  astride",
                                     "icon: star-swirl, color: \"#222222\", allow: [collision]}\n  astride"))
    found = {f.face.card for f in check_faces(faces(load_game(game)))}
    assert found == set(EXPECTED) - {"overlap"}
    template.write_text(text.replace("icon: star-swirl, color: \"#222222\"}\n  astride",
                                     "icon: star-swirl, color: \"#222222\", allow: [colision]}\n  astride"))
    assert main(["check", str(game)]) == 2
    assert "'collision'" in capsys.readouterr().err
