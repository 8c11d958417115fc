"""What a simulation's start imports (generator/simulate): the runner names the engines whose words it reads
without importing them, so a game of another engine never compiles A Word to the Wise's modules."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

from spellpress.simulate.word_records import READERS


def test_each_word_reader_names_a_state_class_that_exists():
    for name in READERS:
        module, _, qualname = name.rpartition(".")
        kind = getattr(importlib.import_module(module), qualname)
        assert isinstance(kind, type) and hasattr(kind, "apply"), name


def test_the_words_of_a_wise_game_are_read():
    from spellpress.simulate.word_records import scored_words

    class Placed:
        seat, word, value, valid = 1, "owl", 4, True

    class Log:
        placed = (Placed(),)

    wise_state = importlib.import_module("spellpress.rules.word_to_the_wise.state").WiseState
    state = wise_state.__new__(wise_state)
    state.__dict__["logs"] = (Log(),)
    assert scored_words(state) == [(1, "owl", 4.0)]
    assert scored_words(object()) is None


@pytest.mark.slow
def test_the_runner_imports_no_rules_engine():
    code = ("import sys, spellpress.simulate.runner\n"
            "print(sorted(m for m in sys.modules if m.startswith('spellpress.rules.') and m.count('.') >= 3))")
    engines = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert engines.strip() == "[]"


def test_a_run_plays_the_rules_without_reading_the_templates(game_copy, tmp_path, capsys, monkeypatch):
    """The runner loads a game without its card templates (nothing a game plays draws a card), so it does not
    import the template and expression code; `spellpress simulate` still refuses a broken template (exit 2),
    as it checks the whole game before the run."""
    from spellpress.cli import main
    from spellpress.load.game import load_game
    from spellpress.simulate.runner import RunSpec, run

    folder = game_copy()
    consonants = folder / "consonants.yaml"
    consonants.write_text(consonants.read_text().replace("template: consonant-card", "template: no-such-card", 1))
    rules_only = load_game(folder, templates=False)
    assert rules_only.templates == {} and rules_only.component("consonants").cards
    result = run(RunSpec(str(folder), 2, 1, seed=1), workers=1, keep_records=True)
    assert len(result.records) == 1 and result.records[0].outcome.scores
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", folder.name, "--games", "2", "--players", "2"]) == 2
    assert "template 'no-such-card' not found" in capsys.readouterr().err


@pytest.mark.slow
def test_a_wise_game_from_a_warm_cache_reads_no_word_list_nor_templates(tmp_path):
    """A fresh process's first game of A Word to the Wise (French) with its tables on disk: the word list is not
    read (the tables are found by a digest of the file), and neither templates, Jinja nor the word finder
    are imported (issue 39's cold start)."""
    code = ("import json, sys\n"
            "from spellpress.simulate.runner import RunSpec, run\n"
            "import spellpress.words.lexicon as lexicon\n"
            "read, shipped = [], lexicon.shipped_words\n"
            "lexicon.shipped_words = lambda name=lexicon.SHIPPED: read.append(name) or shipped(name)\n"
            "run(RunSpec(sys.argv[1], 4, 1, seed=1), workers=1)\n"
            "print(json.dumps([sorted(set(read)),\n"
            "                  sorted(m for m in ('jinja2', 'spellpress.load.templates', 'spellpress.words.finder')\n"
            "                         if m in sys.modules)]))\n")
    from tests.conftest import ROOT

    env = {**__import__("os").environ, "SPELLPRESS_WORD_CACHE": str(tmp_path / "tables")}
    first, again = (subprocess.run([sys.executable, "-c", code, str(ROOT / "cards" / "un-mot-au-sage")], env=env,
                                   check=True, capture_output=True, text=True).stdout for _ in range(2))
    # a first-ever run reads the French list to build its tables; the English one is read for the tally's
    # word levels (generator/simulate/vocabulary_dependence.py)
    assert json.loads(first) == [["english", "french"], []]
    assert json.loads(again) == [["english"], []]
