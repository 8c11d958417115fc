"""`spellpress tune` on input `check` accepts, a tampered tune JSON and a damaged or busy study: a clear
one-line error (exit 2) or the right behaviour, never a traceback after the search (issue 43)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from spellpress.cli import main
from spellpress.errors import display_path
from spellpress.load.game import load_game
from spellpress.tune.apply import new_texts, unified_diff
from tests.conftest import FIXTURES, ROOT

SHEET_GAME = "name: Number cards\ntemplate: text-card\nfields: {title: str, body: str, value: int}\ncards_from: numbers.csv\n"
TINY = ["--vary", "cards.numbers.*.value=-1..+1", "--players", "2", "--games", "20", "--min-games", "20",
        "--trials", "3", "--verify", "1", "--workers", "1"]


def toy(tmp_path, numbers_csv: str | None = None):
    folder = tmp_path / "toy"
    shutil.copytree(FIXTURES / "toy-game", folder)
    if numbers_csv is not None:
        (folder / "numbers.yaml").write_text(SHEET_GAME)
        (folder / "numbers.csv").write_bytes(numbers_csv.encode())
    return folder


# --- games `check` accepts, that tune's patch and --apply crashed on ---------------------------------------------

BLANK_FIRST_LINE = "\ntitle,body,value,count\nOne,Worth 1.,1,6\nTwo,Worth 2.,2,5\nFive,Worth 5.,5,3\nNine,Worth 9.,9,1\n"
MULTI_LINE_CELL = "title,body,value,count\nOne,\"Worth\n1.\",1,6\nTwo,Worth 2.,2,5\nFive,Worth 5.,5,3\nNine,Worth 9.,9,1\n"


@pytest.mark.parametrize("sheet", [BLANK_FIRST_LINE, MULTI_LINE_CELL], ids=["blank first line", "multi-line cell"])
def test_a_sheet_check_accepts_gives_a_patch_of_the_right_row(tmp_path, sheet):
    folder = toy(tmp_path, sheet)
    assert main(["check", str(folder)]) == 0
    game = load_game(folder)
    patch = unified_diff(game, new_texts(game, (("cards.numbers.Five.value", 4),)))
    assert patch.count("\n-") == 1 and "\n-Five,Worth 5.,5,3\n+Five,Worth 5.,4,3\n" in patch


def test_a_tab_after_a_key_is_written_like_any_value(tmp_path):
    folder = toy(tmp_path)
    numbers = (folder / "numbers.yaml").read_text().replace("cards:\n", "cards:\n  - title: Ten\n    body:\tWorth 10.\n"
                                                            "    value:\t10\n    count: 1\n")
    (folder / "numbers.yaml").write_text(numbers)
    assert main(["check", str(folder)]) == 0
    game = load_game(folder)
    (_, after), = new_texts(game, (("cards.numbers.Ten.value", 11),)).values()
    assert after == numbers.replace("value:\t10", "value:\t11")


@pytest.mark.slow
def test_a_whole_tune_of_a_sheet_with_a_multi_line_cell_ends_with_its_patch(tmp_path, capsys):
    folder = toy(tmp_path, "\n" + MULTI_LINE_CELL)
    assert main(["tune", str(folder), *TINY, "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "Proposal 1 as a patch" in out and "+++ b/toy/numbers.csv" in out


@pytest.mark.slow
def test_a_value_apply_cannot_write_is_said_before_the_search(tmp_path, capsys):
    folder = toy(tmp_path)
    numbers = folder / "numbers.yaml"
    numbers.write_text(numbers.read_text().replace("value: 5,", "value: &five 5,").replace("value: 9,", "value: *five,"))
    assert main(["tune", str(folder), *TINY, "--trials", "1", "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    warned = [line for line in err.splitlines() if line.startswith("warning: ")]  # after the budget lines
    assert len(warned) == 1 and "numbers.yaml:7:" in warned[0] and "anchor" in warned[0]
    assert "cannot be written with --apply" in err


# --- --apply and the tune JSON ------------------------------------------------------------------------------------

GOOD = {"game": "toy", "proposals": [{"rank": 1, "variant": [["cards.numbers.Two.value", 3]],
                                      "verified": {"verdict": "holds"}}]}


def apply_with(tmp_path, capsys, report, folder=None) -> tuple[int, str]:
    folder = folder or toy(tmp_path)
    saved = tmp_path / "out" / "toy" / "toy-tune.json"
    saved.parent.mkdir(parents=True, exist_ok=True)
    saved.write_bytes(report if isinstance(report, bytes) else json.dumps(report).encode())
    capsys.readouterr()
    code = main(["tune", str(folder), "--apply", "1", "--out", str(tmp_path / "out")])
    return code, capsys.readouterr().err


def test_apply_after_a_component_file_was_renamed(tmp_path, capsys):
    folder = toy(tmp_path)
    (folder / "numbers.yaml").rename(folder / "digits.yaml")
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text().replace("numbers.yaml", "digits.yaml"))
    code, err = apply_with(tmp_path, capsys, GOOD, folder)
    assert code == 2 and "toy-tune.json: proposals[0].variant[0][0]: cards.numbers.Two.value: the game has no " \
                          "component 'numbers' now (components: digits)" in err and "Traceback" not in err


def variant(*pairs):
    return {**GOOD, "proposals": [{"rank": 1, "variant": [list(p) for p in pairs]}]}


TAMPERED = [  # (what, the file's content, the field the error names; None: a valid file, applied)
    ("empty", b"", "toy-tune.json:1:1"),
    ("cut short", json.dumps(GOOD)[:40].encode(), "toy-tune.json:1:"),
    ("not UTF-8", b"\xff\xfe{}", "not UTF-8"),
    ("NaN", json.dumps(variant(["cards.numbers.Two.value", float("nan")])).encode(), "NaN is not a number"),
    ("a 5,000-digit number", b'{"game": "toy", "proposals": [{"variant": [["cards.numbers.Two.value", 1' + b"0" * 5000 + b"]]}]}",
     "toy-tune.json"),
    ("nested deep", b"[" * 100_000 + b"]" * 100_000, "toy-tune.json"),
    ("a list", b"[]", "the file: expected a JSON object"),
    ("no game", {"proposals": GOOD["proposals"]}, "game: this tune is of None"),
    ("game a number", {**GOOD, "game": 3}, "game: this tune is of 3"),
    ("no proposals", {"game": "toy"}, "proposals: expected a list"),
    ("proposals a map", {**GOOD, "proposals": {"a": 1}}, "proposals: expected a list"),
    ("no proposal", {**GOOD, "proposals": []}, "proposals: the last tune has no proposals"),
    ("proposal a string", {**GOOD, "proposals": ["x"]}, "proposals[0]: expected an object"),
    ("no variant", {**GOOD, "proposals": [{}]}, "proposals[0].variant: expected a list"),
    ("variant a string", {**GOOD, "proposals": [{"variant": "x"}]}, "proposals[0].variant: expected a list"),
    ("pair of one", variant(["cards.numbers.Two.value"]), "proposals[0].variant[0]: expected [KEY, VALUE]"),
    ("key a number", variant([3, 3]), "proposals[0].variant[0]: expected [KEY, VALUE]"),
    ("pair a map", {**GOOD, "proposals": [{"variant": [{"a": 1}]}]}, "proposals[0].variant[0]: expected [KEY, VALUE]"),
    ("value a list", variant(["cards.numbers.Two.value", [3]]), "proposals[0].variant[0][1]: expected a number"),
    ("value null", variant(["cards.numbers.Two.value", None]), "proposals[0].variant[0][1]: expected a number"),
    ("value text", variant(["cards.numbers.Two.value", "three"]), "proposals[0].variant: cards.numbers.Two.value: expected int"),
    ("value true", variant(["cards.numbers.Two.value", True]), "proposals[0].variant: cards.numbers.Two.value: expected int"),
    ("value a float", variant(["cards.numbers.Two.value", 2.5]), "proposals[0].variant: cards.numbers.Two.value: expected int"),
    ("a lone surrogate", variant(["cards.numbers.Two.title", "\ud800"]),
     "proposals[0].variant[0][1]: the text has a lone surrogate"),
    ("count 0", variant(["cards.numbers.Two.count", 0]), "proposals[0].variant: cards.numbers.Two.count: a count is"),
    ("count huge", variant(["cards.numbers.Two.count", 10**30]), "proposals[0].variant: cards.numbers.Two.count: a count is"),
    ("no such card", variant(["cards.numbers.Seven.value", 3]), "proposals[0].variant[0][0]: cards.numbers.Seven.value: no card"),
    ("no such field", variant(["cards.numbers.Two.colour", 3]), "proposals[0].variant: cards.numbers.Two.colour: card"),
    ("key too short", variant(["cards.numbers", 3]), "proposals[0].variant[0][0]: expected rules.KEY or cards."),
    ("key of nothing", variant(["words.x", 3]), "proposals[0].variant[0][0]: expected rules.KEY or cards."),
    ("key empty parts", variant(["cards...", 3]), "proposals[0].variant[0][0]: expected rules.KEY or cards."),
    ("a key twice", variant(["cards.numbers.Two.value", 3], ["cards.numbers.Two.value", 4]), "a key is given twice"),
    ("rules value text", variant(["rules.turns_each", "many"]), "proposals[0].variant: rules.turns_each: expected int"),
    ("verified a number", {**GOOD, "proposals": [{**GOOD["proposals"][0], "verified": 3}]}, None),
    ("verdict a list", {**GOOD, "proposals": [{**GOOD["proposals"][0], "verified": {"verdict": []}}]}, None),
    ("untouched", GOOD, None),
]


@pytest.mark.parametrize("report, field", [pytest.param(r, f, id=what) for what, r, f in TAMPERED])
def test_a_tampered_tune_json_is_an_error_naming_the_file_and_field(tmp_path, capsys, report, field):
    code, err = apply_with(tmp_path, capsys, report)
    assert "Traceback" not in err
    if field is None:
        assert code == 0 and load_game(tmp_path / "toy").component("numbers").cards[1]["value"] == 3
        return
    assert code == 2 and "toy-tune.json" in err and field in err and len(err.strip().splitlines()) == 2, err
    assert (tmp_path / "toy" / "numbers.yaml").read_bytes() == (FIXTURES / "toy-game" / "numbers.yaml").read_bytes()


# --- the study journal --------------------------------------------------------------------------------------------

def study_of(tmp_path):
    return tmp_path / "out" / "toy" / "toy-tune.study"


def tune_toy(tmp_path, folder, *extra) -> int:
    return main(["tune", str(folder), *TINY, *extra, "--out", str(tmp_path / "out")])


def whole_journal(path) -> bool:
    data = path.read_bytes()
    return data.endswith(b"\n") and all(isinstance(json.loads(line), dict) for line in data.splitlines())


@pytest.mark.slow
def small_study(path):
    """A journal of three finished trials, as Optuna writes it."""
    import optuna
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(study_name="s", storage=JournalStorage(JournalFileBackend(str(path))))
    study.optimize(lambda trial: trial.suggest_int("x", 0, 9), n_trials=3)


def trials_in(path) -> int:
    import optuna
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend

    return len(optuna.load_study(study_name="s", storage=JournalStorage(JournalFileBackend(str(path)))).trials)


def test_mending_drops_a_torn_last_entry_and_keeps_the_rest(tmp_path, capsys):
    from spellpress.tune.journal import mended

    study = tmp_path / "s.study"
    small_study(study)
    whole = study.read_bytes()
    study.write_bytes(whole + b'{"op_code": 6, "worker_id": "x", "tri')
    mended(study)
    assert study.read_bytes() == whole and trials_in(study) == 3
    assert f"warning: {display_path(study)}: the study's last entry was cut short" in capsys.readouterr().err
    lines = whole.splitlines(keepends=True)
    study.write_bytes(b"".join(lines[:-1]) + b'{"op_code": 6, "wor' + lines[-1])  # a later run wrote after it
    mended(study)
    assert study.read_bytes() == whole and trials_in(study) == 3


def test_a_second_run_of_a_study_is_refused_while_the_first_holds_it(tmp_path):
    from spellpress.errors import UserError
    from spellpress.tune.journal import one_run

    study = tmp_path / "s.study"
    with one_run(study):
        with pytest.raises(UserError) as caught:
            with one_run(study):
                pass
        assert f"another tune of this study is running (process {os.getpid()})" in str(caught.value)
    with one_run(study):  # released with its run
        pass


@pytest.mark.slow
def test_a_torn_last_entry_is_dropped_with_a_warning_and_the_study_resumes(tmp_path, capsys):
    folder = toy(tmp_path)
    assert tune_toy(tmp_path, folder) == 0
    study = study_of(tmp_path)
    with study.open("ab") as journal:
        journal.write(b'{"op_code": 6, "worker_id": "x", "trial_id": 2, "sta')  # a full disk
    capsys.readouterr()
    assert tune_toy(tmp_path, folder, "--trials", "5") == 0
    err = capsys.readouterr().err
    assert f"warning: {display_path(study)}: the study's last entry was cut short" in err
    assert whole_journal(study)
    assert tune_toy(tmp_path, folder, "--trials", "6") == 0 and "study" not in capsys.readouterr().err  # mended once


@pytest.mark.slow
def test_a_torn_entry_that_later_runs_wrote_after_is_mended(tmp_path, capsys):
    folder = toy(tmp_path)
    assert tune_toy(tmp_path, folder) == 0
    study = study_of(tmp_path)
    lines = study.read_bytes().splitlines(keepends=True)
    lines[-2] = b'{"op_code": 6, "worker_id": "x", "tri' + lines[-2]
    study.write_bytes(b"".join(lines))
    assert tune_toy(tmp_path, folder, "--trials", "4") == 0
    assert "last entry was cut short" in capsys.readouterr().err and whole_journal(study)


@pytest.mark.slow
def test_a_journal_damaged_in_the_middle_names_its_line_and_fresh(tmp_path, capsys):
    folder = toy(tmp_path)
    assert tune_toy(tmp_path, folder) == 0
    study = study_of(tmp_path)
    lines = study.read_bytes().splitlines(keepends=True)
    lines.insert(3, b"garbage\n")
    study.write_bytes(b"".join(lines))
    capsys.readouterr()
    assert tune_toy(tmp_path, folder, "--trials", "4") == 2
    err = capsys.readouterr().err
    assert "toy-tune.study:4:1: the study journal is damaged at this line; start the study over with --fresh" in err
    assert tune_toy(tmp_path, folder, "--trials", "4", "--fresh") == 0


@pytest.mark.slow
def test_a_lock_a_killed_run_left_is_removed_not_waited_on(tmp_path, capsys):
    folder = toy(tmp_path)
    assert tune_toy(tmp_path, folder) == 0
    study = study_of(tmp_path)
    os.symlink(study, f"{study}.lock")  # as Optuna's journal lock is left by a kill -9 mid-write
    capsys.readouterr()
    started = time.monotonic()
    assert tune_toy(tmp_path, folder, "--trials", "4") == 0
    assert time.monotonic() - started < 20  # Optuna's own grace period is 30 s
    assert "removed the journal lock a killed run left" in capsys.readouterr().err


@pytest.mark.slow
def test_a_second_tune_of_the_same_study_is_refused_at_once(tmp_path, capsys):
    folder = toy(tmp_path)
    study = study_of(tmp_path)
    first = subprocess.Popen([sys.executable, "-m", "spellpress", "tune", str(folder), *TINY, "--trials", "400",
                              "--out", str(tmp_path / "out")], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not (study.exists() and study.stat().st_size) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert first.poll() is None, first.stderr.read() if first.stderr else ""
        started = time.monotonic()
        assert tune_toy(tmp_path, folder) == 2
        assert time.monotonic() - started < 5
        err = capsys.readouterr().err
        assert f"another tune of this study is running (process {first.pid})" in err and "Traceback" not in err
    finally:
        first.send_signal(signal.SIGINT)
        first.wait(timeout=60)


@pytest.mark.slow
def test_a_study_resumes_at_once_after_its_run_was_killed(tmp_path, capsys):
    folder = toy(tmp_path)
    study = study_of(tmp_path)
    first = subprocess.Popen([sys.executable, "-m", "spellpress", "tune", str(folder), *TINY, "--trials", "400",
                              "--out", str(tmp_path / "out")], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while (not study.exists() or study.stat().st_size < 2000) and time.monotonic() < deadline:
        time.sleep(0.05)
    first.kill()  # SIGKILL: no cleanup of its own
    first.wait(timeout=30)
    started = time.monotonic()
    assert tune_toy(tmp_path, folder, "--trials", "6") == 0
    assert time.monotonic() - started < 20 and "Traceback" not in capsys.readouterr().err


# --- a game that cannot be tried as it is (issue 40) --------------------------------------------------------------

def rummy_dealing(tmp_path, hand_start: int):
    folder = tmp_path / "rummy"
    shutil.copytree(ROOT / "cards" / "word-rummy", folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("  hand_start: 4\n", f"  hand_start: {hand_start}\n"))
    return folder


def test_a_game_the_engine_refuses_outside_vary_stops_at_once_with_the_reason(tmp_path, capsys):
    folder = rummy_dealing(tmp_path, 40)
    started = time.monotonic()
    code = main(["tune", str(folder), "--vary", "rules.go_out_bonus=0..5", "--players", "4", "--trials", "300",
                 "--workers", "1", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and time.monotonic() - started < 10
    assert "game.yaml:32:" in err and "the last round deals 45 cards; at most 30" in err
    assert "the game as it is cannot be played" in err and "variant :" not in err and "Traceback" not in err
    assert not (tmp_path / "out" / "rummy" / "rummy-tune.study").exists()


def test_a_refusal_that_a_varied_key_may_mend_lets_the_search_run(tmp_path):
    from spellpress.rules.plugins import rules_for
    from spellpress.tune.command import plan_for
    from spellpress.tune.options import TuneOptions
    from spellpress.tune.study import untriable

    folder = rummy_dealing(tmp_path, 40)
    game = load_game(folder)
    rules = rules_for(game)
    from spellpress.cli import parser

    args = parser().parse_args(["tune", str(folder), "--vary", "rules.hand_start=3..5"])
    assert untriable(game, rules, plan_for(game, rules, TuneOptions.from_args(args)), args.vary) == []
    args.vary = ["rules.go_out_bonus=0..5"]
    problems = untriable(game, rules, plan_for(game, rules, TuneOptions.from_args(args)), args.vary)
    assert [p.location.line for p in problems] == [31, 32]


@pytest.mark.slow
def test_why_candidates_could_not_be_played_is_printed(tmp_path, capsys):
    folder = toy(tmp_path)
    assert main(["tune", str(folder), *TINY, "--vary", "cards.numbers.One.value=-3..+0", "--trials", "6",
                 "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "candidates could not be played; most often" in out and "is negative, where the game has 1" in out
