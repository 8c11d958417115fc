"""The example engine of docs/rules.md, copied into a game folder outside the repository,
is checked, simulated and reported like any shipped game."""

from __future__ import annotations

import json
import re
import shutil

import pytest
import yaml
from pypdf import PdfReader

from spellpress.cli import main
from spellpress.load.game import load_game
from spellpress.rules.plugins import rules_for
from spellpress.scaffold.new import starter_engine
from spellpress.simulate.play import play_game
from tests.conftest import FIXTURES, ROOT

DOCS = ROOT / "docs" / "rules.md"


def example_engine() -> str:
    text = DOCS.read_text()
    block = re.search(r"<!-- example-engine: begin -->\n```python\n(.*?)```\n<!-- example-engine: end -->", text, re.S)
    assert block, "docs/rules.md lost its example engine"
    return block.group(1)


def test_the_example_is_the_starter_engine_that_new_writes():
    assert example_engine() == starter_engine()


@pytest.fixture
def own_game(tmp_path):
    folder = tmp_path / "high-card"
    shutil.copytree(FIXTURES / "toy-game", folder)
    spec = yaml.safe_load((folder / "game.yaml").read_text())
    spec.update(name="High Card", rules={"engine": "rules.py", "hand": 3, "deck": "numbers", "points": "value"})
    (folder / "game.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    (folder / "rules.py").write_text(example_engine())
    assert not folder.resolve().is_relative_to(ROOT)
    return folder


def test_a_game_folder_with_its_own_rules_py_checks_simulates_and_reports(own_game, tmp_path, capsys):
    assert main(["check-engine", str(own_game)]) == 0
    capsys.readouterr()
    assert main(["simulate", str(own_game), "--games", "300", "--players", "3", "--workers", "2", "--seed", "4",
                 "--check", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 300 and report["stalls"] == 0
    assert report["length"]["mean"] == 3  # three rounds: every card of every hand is played
    assert sum(row["win_rate"] for row in report["seats"]) >= 1.0  # ties share the win
    out = tmp_path / "out"
    assert main(["report", str(own_game), "--games", "60", "--workers", "1", "--out", str(out)]) == 0
    pdf = out / "high-card" / "high-card-balance.pdf"
    assert len(PdfReader(pdf).pages) >= 1
    assert [r["players"] for r in json.loads(pdf.with_suffix(".json").read_text())] == [2, 3, 4]


def test_its_settings_are_checked(own_game, capsys):
    spec = yaml.safe_load((own_game / "game.yaml").read_text())
    spec["rules"] = {"engine": "rules.py", "hand": "many", "deck": "nowhere", "points": "value"}
    (own_game / "game.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    assert main(["check-engine", str(own_game)]) == 2
    err = capsys.readouterr().err
    assert re.search(r"game\.yaml:\d+:\d+: rules: hand: Input should be a valid integer", err)
    assert re.search(r"game\.yaml:\d+:\d+: rules: deck names a component 'nowhere'", err)


def test_its_invariant_catches_a_lost_card(own_game):
    game = load_game(own_game)
    rules = rules_for(game)
    seats = [rules.heuristic_player(1.0)] * 2
    play_game(rules, game, seats, 1, check=True)
    module = type(rules.new_state(game, 2))
    original = module.apply

    def losing(self, action):
        original(self, action)
        if action[0] == "play" and self.turns == 1 and self.hands[0]:
            self.hands[0].pop()

    module.apply = losing
    try:
        with pytest.raises(AssertionError, match="lost or duplicated"):
            play_game(rules, game, seats, 1, check=True)
    finally:
        module.apply = original
