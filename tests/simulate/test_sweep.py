"""`spellpress sweep`: a grid of rules and card variants, validated, on a process pool or Dask."""

import json

import pytest
from pypdf import PdfReader

from spellpress.cli import main
from spellpress.load.game import load_game
from spellpress.simulate.variants import apply_variant, grid, parse_vary
from tests.conftest import FIXTURES, ROOT

TOY = str(FIXTURES / "toy-game")


def test_variants_change_rules_and_card_fields_in_memory_only():
    game = load_game(FIXTURES / "toy-game")
    changed = apply_variant(game, (("rules.turns_each", 6), ("cards.numbers.nine.count", 3), ("cards.numbers.Five.value", 7)))
    assert changed.spec.rules["turns_each"] == 6 and game.spec.rules["turns_each"] == 4
    nine = next(c for c in changed.component("numbers").cards if c["title"] == "Nine")
    five = next(c for c in changed.component("numbers").cards if c["title"] == "Five")
    assert nine.count == 3 and five["value"] == 7
    assert next(c for c in game.component("numbers").cards if c["title"] == "Nine").count == 1


def test_the_grid_is_every_combination():
    axes = parse_vary(["rules.a=1,2", "cards.x.y.count=3,4,5"])
    assert axes == [("rules.a", [1, 2]), ("cards.x.y.count", [3, 4, 5])]
    variants = grid(axes)
    assert len(variants) == 6 and variants[0] == (("rules.a", 1), ("cards.x.y.count", 3))
    assert variants[-1] == (("rules.a", 2), ("cards.x.y.count", 5))


def test_a_card_is_found_by_its_letter(tmp_path):
    game = load_game(ROOT / "cards" / "word-to-the-wise")
    changed = apply_variant(game, (("cards.consonants.q.count", 3),))
    q = [c for c in changed.component("consonants").cards if c["letter"] == "Q"]
    assert len(q) == 1 and q[0].count == 3


@pytest.mark.slow
def test_sweep_json_is_the_same_on_a_process_pool_and_a_dask_cluster(tmp_path, capsys):
    args = ["sweep", TOY, "--vary", "rules.turns_each=3,5", "--vary", "cards.numbers.nine.count=1,4",
            "--games", "60", "--players", "3", "--seed", "9", "--json", "--out", str(tmp_path)]
    assert main([*args, "--workers", "2"]) == 0
    pool = json.loads(capsys.readouterr().out)
    assert [row["variant"] for row in pool["variants"]] == [
        {"rules.turns_each": 3, "cards.numbers.nine.count": 1}, {"rules.turns_each": 3, "cards.numbers.nine.count": 4},
        {"rules.turns_each": 5, "cards.numbers.nine.count": 1}, {"rules.turns_each": 5, "cards.numbers.nine.count": 4}]
    lengths = [row["length_mean"] for row in pool["variants"]]
    assert lengths[0] == lengths[1] == 3 * 3 and lengths[2] == 5 * 3  # turns_each x players
    for row in pool["variants"]:
        assert row["over_limit"] == (row["seat_spread_points"] > 3)
        assert len(row["seats"]) == 3 and "lead_changes" in row["game_metrics"]
    pdf = PdfReader(tmp_path / "toy-game" / "toy-game-sweep.pdf")
    text = "".join(page.extract_text() for page in pdf.pages)
    assert "turns_each=5, nine.count=4" in text and "Seat win rates" in text.replace("SEAT WIN RATES", "Seat win rates")
    pytest.importorskip("dask.distributed")
    assert main([*args, "--workers", "2", "--dask", "local"]) == 0
    assert json.loads(capsys.readouterr().out) == pool


@pytest.mark.parametrize("vary, words", [
    ("rules.nope=1,2", "no rules key 'nope'"),
    ("cards.cards.nine.count=1", "no component 'cards'"),
    ("cards.numbers.ten.count=1", "no card 'ten' in numbers"),
    ("cards.numbers.nine.colour=1", "has no field 'colour'"),
    ("cards.numbers.nine.value=heavy", "expected int"),
    ("cards.numbers.nine.count=-1", "a count is a whole number from 1 to 1,000"),
    # issue 31: accepted past the YAML's limits, and an engine varied but never used
    ("cards.numbers.nine.count=0,5000", "a count is a whole number from 1 to 1,000, as in the YAML, got 0"),
    ("rules.engine=word-rummy,evocabulary", "rules.engine cannot be varied"),
    ("health=20,25", "a key starts with rules."),
    ("rules.turns_each", "expected KEY=V1,V2"),
])
def test_a_bad_variant_is_a_clear_error_before_any_game(tmp_path, capsys, vary, words):
    assert main(["sweep", TOY, "--vary", vary, "--games", "5", "--workers", "1", "--out", str(tmp_path)]) == 2
    assert words in capsys.readouterr().err
    assert not (tmp_path / "toy-game").exists()


def test_a_variant_the_engine_settings_reject_exits_2(tmp_path, capsys):
    assert main(["sweep", "evocabulary", "--vary", "rules.spell_max_wilds=1,5", "--games", "2", "--workers", "1",
                 "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "variant spell_max_wilds=5" in err.replace("rules.spell_max_wilds", "spell_max_wilds") and "game.yaml" in err
