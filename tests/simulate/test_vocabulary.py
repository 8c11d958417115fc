"""--vocabulary: simulated players and letter figures that know only the common words."""

from __future__ import annotations

import json
import random
import shutil

import pypdfium2 as pdfium
import pytest

from spellpress.cli import main
from spellpress.load.game import load_game
from spellpress.rules.plugins import rules_for
from spellpress.rules.protocol import CHANCE, TERMINAL
from spellpress.simulate.runner import Seat, make_player
from spellpress.words.lexicon import VOCABULARIES, shipped_levels
from spellpress.words.vocabulary import with_vocabulary
from tests.conftest import ROOT, WISE

FRENCH = ROOT / "cards" / "un-mot-au-sage"
RUMMY = ROOT / "cards" / "word-rummy"
RARE_TWOS = {"qi", "za", "xu"}


def played_words(vocabulary: str, games: int) -> list[str]:
    """The valid words heuristic players placed in seeded two-player games of A Word to the Wise."""
    game = with_vocabulary(load_game(WISE), vocabulary)
    rules = rules_for(game)
    words = []
    for seed in range(games):
        rng = random.Random(seed)
        state = rules.new_state(game, 2, {})
        players = [make_player(Seat("heuristic", 1.0), rules) for _ in range(2)]
        while state.current_player() != TERMINAL and state.turns < rules.turn_cap:
            seat = state.current_player()
            if seat == CHANCE:
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
            else:
                action = players[seat].act(state, seat, rng)
            state.apply(action)
        words += [placed.word for log in state.logs for placed in log.placed if placed.valid]
    return words


@pytest.mark.slow
def test_a_casual_player_never_plays_qi_za_or_xu():
    levels = shipped_levels()
    casual = played_words("casual", 20)
    everything = played_words("all", 20)
    assert len(casual) > 500
    assert not RARE_TWOS & set(casual)
    assert max(levels[word] for word in casual) <= VOCABULARIES["casual"]
    # the same seeds with every word known do play them: the vocabulary is what keeps them out
    assert RARE_TWOS & set(everything)
    assert sum(levels[word] > VOCABULARIES["casual"] for word in everything) > 100


def simulate_json(capsys, *extra: str) -> dict:
    assert main(["simulate", str(WISE), "--games", "20", "--luck-games", "0", "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow
def test_same_seed_same_result_on_one_and_two_workers(capsys):
    one = simulate_json(capsys, "--vocabulary", "casual", "--workers", "1")
    two = simulate_json(capsys, "--vocabulary", "35", "--workers", "2")
    everything = simulate_json(capsys, "--workers", "1")
    assert one["vocabulary"] == 35 and everything["vocabulary"] is None
    assert one == two  # the worker processes got the vocabulary too
    assert one["seats"] != everything["seats"] and one["figures"] != everything["figures"]


def letters_json(capsys, tmp_path, *extra: str) -> dict:
    assert main(["letters", str(RUMMY), "--samples", "400", "--out", str(tmp_path), "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow
def test_playability_falls_from_all_to_casual_on_word_rummy(capsys, tmp_path):
    everything = letters_json(capsys, tmp_path, "--vocabulary", "all")["playability"]
    casual = letters_json(capsys, tmp_path, "--vocabulary", "casual")["playability"]
    # the same seed deals the same 400 hands: fewer known words can only make fewer hands go out
    assert casual["going_out"]["ci95"][1] < everything["going_out"]["ci95"][0]
    assert casual["word"]["p"] <= everything["word"]["p"]
    assert casual["expected_best_score"]["mean"] < everything["expected_best_score"]["mean"]
    assert sorted(p.name for p in (tmp_path / "word-rummy").iterdir()) == [
        "word-rummy-letters-vocabulary-35.json", "word-rummy-letters-vocabulary-35.pdf",
        "word-rummy-letters.json", "word-rummy-letters.pdf"]
    pdf = pdfium.PdfDocument(tmp_path / "word-rummy" / "word-rummy-letters-vocabulary-35.pdf")
    assert "SCOWL level 35" in pdf[0].get_textpage().get_text_range()


@pytest.mark.parametrize("command", [["simulate", "--games", "5"], ["report", "--games", "5"], ["letters"]])
def test_french_refuses_a_vocabulary(command, capsys, tmp_path):
    name, *rest = command
    out = ["--out", str(tmp_path)] if name != "simulate" else []
    assert main([name, str(FRENCH), *rest, *out, "--vocabulary", "casual"]) == 2
    err = capsys.readouterr().err
    assert "--vocabulary" in err and "'french'" in err and "no commonness levels" in err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_vocabulary_is_refused(capsys):
    assert main(["simulate", str(WISE), "--games", "5", "--vocabulary", "huge"]) == 2
    assert "casual, everyday, expert, all or a SCOWL level" in capsys.readouterr().err


def test_all_clears_a_level_the_game_sets():
    casual = with_vocabulary(load_game(WISE), "casual")
    assert casual.spec.words.vocabulary == 35
    assert with_vocabulary(casual, "all").spec.words.vocabulary is None
    assert with_vocabulary(casual, None) is casual


def test_a_french_game_yaml_with_a_vocabulary_is_refused_where_it_says_so(tmp_path, capsys):
    folder = tmp_path / "un-mot-au-sage"
    shutil.copytree(FRENCH, folder)
    yaml = folder / "game.yaml"
    lines = yaml.read_text(encoding="utf-8").splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith("  language: fr"))
    yaml.write_text("\n".join(lines[:at] + ["  vocabulary: 35"] + lines[at:]) + "\n", encoding="utf-8")
    assert main(["check", str(folder)]) == 2
    err = capsys.readouterr().err
    assert f"game.yaml:{at + 1}:" in err and "commonness levels" in err and "'french'" in err


@pytest.mark.slow
def test_the_balance_report_says_which_words_were_known(tmp_path, capsys):
    assert main(["report", str(WISE), "--players", "2", "--games", "10", "--luck-games", "0", "--workers", "1",
                 "--vocabulary", "everyday", "--out", str(tmp_path)]) == 0
    folder = tmp_path / "word-to-the-wise"
    assert json.loads((folder / "word-to-the-wise-balance.json").read_text())[0]["vocabulary"] == 50
    pdf = pdfium.PdfDocument(folder / "word-to-the-wise-balance.pdf")
    assert "only those up to SCOWL level 50" in pdf[0].get_textpage().get_text_range()
