"""`spellpress check-engine`: every shipped engine and the `new --rules` starter keep the protocol;
four deliberately broken engines (small rules.py files in temporary game folders) are caught, each
at the line of the method at fault."""

from __future__ import annotations

import inspect
import re
import shutil

import pytest
import yaml

from spellpress.cli import main
from spellpress.scaffold.new import new_game, starter_engine
from spellpress.simulate.conformance import assert_conforms, check_engine
from tests.conftest import FIXTURES, ROOT

SHIPPED = ["evocabulary", "lost-words", "magic-spell", "spelled", "un-mot-au-sage", "word-rummy", "word-to-the-wise"]


@pytest.mark.parametrize("gid", SHIPPED)
@pytest.mark.slow
def test_every_shipped_engine_conforms(gid):
    report = assert_conforms(ROOT / "cards" / gid, heuristic_games=1)
    assert report.positions["chance"] > 0 and report.positions["clone"] > 0 and report.positions["workers"] == 2
    assert report.positions["determinize re-dealt"] > 0  # every shipped game hides cards: they were re-dealt
    assert report.positions["hidden hands re-dealt"] > 0  # ... the opponents' hands among them
    assert len(report.games) >= 2


@pytest.mark.parametrize("gid", SHIPPED)
def test_every_shipped_engine_keeps_the_protocol_in_one_random_game(gid):
    """The quick check `make test-fast` runs for every engine (the full one above is slow): one seeded game of
    random moves, every promise checked at its sampled positions, no workers compared (0.2 to 2 s of CPU)."""
    report = assert_conforms(ROOT / "cards" / gid, random_games=1, heuristic_games=0, worker_games=0, workers=False)
    assert report.positions["legal"] > 0 and report.positions["clone"] > 0 and report.positions["record"] > 0
    assert report.positions["hidden hands re-dealt"] > 0


def starter_game(tmp_path, source: str | None = None):
    """The starter engine (or a broken copy) on a 15-card deck, 3 cards a hand."""
    folder = tmp_path / "high-card"
    shutil.copytree(FIXTURES / "toy-game", folder)
    spec = yaml.safe_load((folder / "game.yaml").read_text())
    spec.update(name="High Card", rules={"engine": "rules.py", "hand": 3, "deck": "numbers", "points": "value"})
    (folder / "game.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    (folder / "rules.py").write_text(starter_engine() if source is None else source)
    return folder


def test_the_new_rules_starter_conforms(tmp_path):
    folder = tmp_path / "new-game"
    new_game(folder, rules=True)
    assert_conforms(folder)
    report = assert_conforms(starter_game(tmp_path))
    assert report.positions["determinize re-dealt"] > 0 and len(report.games) == 4


def broken(old: str, new: str) -> str:
    source = starter_engine()
    assert source.count(old) == 1, f"the starter engine no longer has {old!r}"
    return source.replace(old, new)


def def_line(source: str, name: str) -> int:
    return next(n for n, line in enumerate(source.splitlines(), 1) if line.strip().startswith(f"def {name}("))


BROKEN = {
    "chance": ("chance_outcomes", broken("1 / len(self.deck)", "0.9 / len(self.deck)"), "sum to 0.9"),
    "clone": ("clone", broken("    def returns(self):\n", inspect.cleandoc('''
        def clone(self):
            new = HighCardState.__new__(HighCardState)
            new.__dict__.update(self.__dict__)
            new.deck, new.table, new.scores = list(self.deck), list(self.table), list(self.scores)
            return new  # the hands are the original's own list
        ''').replace("\n", "\n    ").join(["    ", "\n\n    def returns(self):\n"])), "shares hands"),
    "determinize": ("determinize", broken(  # each opponent's best card is never re-dealt: the search knows it
        "        hidden = list(copy.deck) + [card for o in others for card in copy.hands[o]]\n"
        "        hands, copy.deck = redeal(rng, hidden, [len(copy.hands[o]) for o in others])\n"
        "        for o, hand in zip(others, hands, strict=True):\n"
        "            copy.hands[o] = hand\n",
        "        best = {o: sorted(copy.hands[o], key=lambda card: copy.values[card])[-1:] for o in others}\n"
        "        hidden = list(copy.deck) + [card for o in others for card in copy.hands[o] if card not in best[o]]\n"
        "        hands, copy.deck = redeal(rng, hidden, [len(copy.hands[o]) - len(best[o]) for o in others])\n"
        "        for o, hand in zip(others, hands, strict=True):\n"
        "            copy.hands[o] = best[o] + hand\n"),
        "depends on the real hidden cards"),
    "observation": ("observation", broken(  # every hand shown face up: the page would reveal the cards
        "            if other == seat:\n", "            if True:\n"), "shows what the seat cannot see"),
    "legal": ("legal_actions", broken(
        '        return [("play", card) for card in sorted(self.hands[self.seat])]',
        '        import random\n        return [("play", card) for card in random.sample(self.hands[self.seat], '
        'len(self.hands[self.seat]))]'),
        "two different lists"),
    "record": ("legal_actions", broken(  # a move that is no JSON value: every finished game of `play` failed to save
        '        return [("play", card) for card in sorted(self.hands[self.seat])]',
        '        return [(PLAY, card) for card in sorted(self.hands[self.seat])]').replace(
        "class HighCardState(", "import enum\n\n\nPLAY = enum.Enum('Kind', 'PLAY').PLAY\n\n\nclass HighCardState(", 1),
        "a game record (spellpress play) cannot keep"),
}


@pytest.mark.parametrize("check", sorted(BROKEN))
def test_a_broken_engine_fails_its_check_at_the_method_at_fault(tmp_path, check):
    method, source, words = BROKEN[check]
    folder = starter_game(tmp_path, source)
    report = check_engine(folder, workers=False)
    assert not report.ok
    findings = report.failed(check)
    assert findings, f"expected a {check} finding, got {[str(f) for f in report.findings]}"
    assert words in findings[0].message
    where = findings[0].where
    assert where is not None and where.path.name == "rules.py" and where.line == def_line(source, method)
    with pytest.raises(AssertionError, match=re.escape(f"[{check}]")):
        assert_conforms(folder, workers=False)


def test_a_count_of_legal_actions_off_by_one_fails_at_its_method(tmp_path):
    """An engine's cheaper count (the runner's move figures read it) must equal the list's length."""
    source = broken("    def apply(self, action):\n", "    def count_legal_actions(self):\n"
                    "        return len(self.hands[self.seat]) + 1\n\n    def apply(self, action):\n")
    findings = check_engine(starter_game(tmp_path, source), workers=False).failed("legal")
    assert findings and "count_legal_actions() gives" in findings[0].message
    where = findings[0].where
    assert where is not None and where.path.name == "rules.py" and where.line == def_line(source, "count_legal_actions")
    assert_conforms(starter_game(tmp_path / "right", source.replace(") + 1\n", ")\n")), workers=False)


KEEPS_HANDS = broken(  # re-deals the deck but keeps the opponents' real hands: the search plays them face up
    "        hidden = list(copy.deck) + [card for o in others for card in copy.hands[o]]\n"
    "        hands, copy.deck = redeal(rng, hidden, [len(copy.hands[o]) for o in others])\n"
    "        for o, hand in zip(others, hands, strict=True):\n"
    "            copy.hands[o] = hand\n",
    "        copy.deck = redeal(rng, list(copy.deck), [])[1]\n")


def test_a_determinize_that_keeps_the_opponents_hands_fails(tmp_path, capsys):
    folder = starter_game(tmp_path, KEEPS_HANDS)
    report = check_engine(folder, workers=False)
    (finding,) = report.failed("determinize")
    assert "kept every opponent's hidden hand" in finding.message and report.positions["determinize re-dealt"] > 0
    assert finding.where is not None and finding.where.line == def_line(KEEPS_HANDS, "determinize")
    assert main(["check-engine", str(folder), "--no-workers"]) == 2
    assert "kept every opponent's hidden hand" in capsys.readouterr().err


def test_a_check_not_run_says_skipped(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # one table row a line
    assert main(["check-engine", str(starter_game(tmp_path)), "--no-workers"]) == 0
    (row,) = [line for line in capsys.readouterr().out.splitlines() if "worker processes" in line]
    assert "skipped" in row and "ok" not in row.split("same seed")[0]


def test_check_engine_command_exits_2_naming_rules_py_line(tmp_path, capsys):
    method, source, _ = BROKEN["chance"]
    folder = starter_game(tmp_path, source)
    assert main(["check-engine", str(folder), "--no-workers"]) == 2
    captured = capsys.readouterr()
    assert f"rules.py:{def_line(source, method)}:1: [chance]" in captured.err
    assert "FAIL" in captured.out and "Traceback" not in captured.err


def test_check_engine_command_passes_and_refuses_bad_options(tmp_path, capsys):
    folder = starter_game(tmp_path)
    assert main(["check-engine", str(folder), "--players", "3", "--no-workers"]) == 0
    out = capsys.readouterr().out
    assert "keeps the protocol" in out and "FAIL" not in out
    assert main(["check-engine", str(folder), "--players", "9"]) == 2
    assert "not 9" in capsys.readouterr().err


def test_check_engine_help_says_it_runs_game_code(capsys):
    with pytest.raises(SystemExit):
        main(["check-engine", "--help"])
    assert "RUNS THE ENGINE'S PYTHON CODE" in capsys.readouterr().out.replace("\n", " ")
