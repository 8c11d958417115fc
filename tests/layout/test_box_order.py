"""Template boxes: `when:` guards everything else of its box, `z:` decides what draws over what."""

from __future__ import annotations

import pytest

from spellpress.build import check
from spellpress.errors import UserError
from spellpress.layout.deck import layout_game
from spellpress.layout.ops import Fill, Rect, Text
from spellpress.load.game import load_game
from spellpress.scaffold.new import new_game

FLAVOR_BOX = """  flavor:
    kind: text
    when: "{{ flavor is defined }}"
    x: 6mm
    y: 60mm
    w: 50mm
    h: 8mm
    text: "{{ flavor.upper() }}"
"""


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / "g"
    new_game(folder, "poker")
    return folder


def test_when_false_leaves_the_rest_of_the_box_unevaluated(game):
    template = game / "templates" / "my-card.yaml"
    template.write_text(template.read_text() + FLAVOR_BOX)
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace("fields: {title: str, body: str, points: int}",
                                               "fields: {title: str, body: str, points: int, flavor: str?}")
                     .replace("    points: 3\n", "    points: 3\n    flavor: smoke and ash\n"))
    laid = layout_game(load_game(game), 0.0)
    texts = {f.card.id: [op.text for op in f.front.ops if isinstance(op, Text)] for f in laid}
    assert any("SMOKE" in text for text in texts["third"])
    assert not any("SMOKE" in text for text in texts["first"] + texts["second"])


def test_when_that_is_not_true_or_false_is_an_error(game):
    template = game / "templates" / "my-card.yaml"
    template.write_text(template.read_text() + FLAVOR_BOX.replace("{{ flavor is defined }}", "{{ title }}"))
    with pytest.raises(UserError, match="when: expected true or false, got 'First card'"):
        check(game)


def _ops_of_first_front(game):
    return next(f for f in layout_game(load_game(game), 0.0) if f.card.id == "first").front.ops


def test_z_puts_a_child_box_under_the_inherited_ones(game):
    template = game / "templates" / "my-card.yaml"
    under = "  wash:\n    kind: shape\n    x: 0\n    y: 0\n    fill: \"#ff000080\"\n    z: -1\n"
    template.write_text(template.read_text() + under.replace("    z: -1\n", ""))
    ops = _ops_of_first_front(game)
    assert isinstance(ops[0], Fill)  # the inherited background first, the child's box last
    assert isinstance(ops[-1], Rect) and ops[-1].fill[0] == 1.0
    template.write_text(template.read_text().replace("    fill: \"#ff000080\"\n", "    fill: \"#ff000080\"\n    z: -1\n"))
    ops = _ops_of_first_front(game)
    assert isinstance(ops[0], Rect) and ops[0].fill[0] == 1.0  # now under everything, background included
    assert isinstance(ops[1], Fill)


def test_z_must_be_a_plain_number(game):
    template = game / "templates" / "my-card.yaml"
    template.write_text(template.read_text().replace("    font: EBGaramond-Bold\n", "    font: EBGaramond-Bold\n    z: top\n"))
    with pytest.raises(UserError,
                       match=r"my-card.yaml:\d+:\d+: box 'points': z must be a number \(higher draws over lower\), got 'top'"):
        check(game)
