"""What a simulation's start imports (generator/simulate): the runner names the engines whose words it reads
without importing them, so a game of another engine never compiles A Word to the Wise's modules."""

from __future__ import annotations

import importlib
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
