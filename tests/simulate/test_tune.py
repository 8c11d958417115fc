"""`spellpress tune`: the search space, the targets' verdicts, common random numbers, pruning,
the same proposals on a pool and on Dask, and a resumed study equal to an uninterrupted one."""

from __future__ import annotations

import json

import pytest

from spellpress.cli import main
from spellpress.errors import UserError
from spellpress.load.game import load_game
from spellpress.rules.plugins import rules_for
from spellpress.tune.space import parse_space, suggest
from spellpress.tune.targets import Target, overall, parse_targets, verdict
from tests.conftest import FIXTURES, ROOT

TOY = str(FIXTURES / "toy-game")
SMALL = ["--players", "3", "--games", "180", "--min-games", "60", "--verify", "2", "--verify-games", "120", "--seed", "4"]


def _toy():
    game = load_game(FIXTURES / "toy-game")
    return game, rules_for(game)


def test_lists_ranges_changes_and_families_are_read_against_the_game():
    game, rules = _toy()
    space = parse_space(game, rules, ["rules.turns_each=2..8", "cards.numbers.Five.value=-1..+2",
                                      "cards.numbers.nine.count=1,2,3", "cards.numbers.*.value=-2..+2"], max_changes=2)
    turns, five, nine = space.dimensions
    assert (turns.low, turns.high, turns.relative, turns.current) == (2, 8, False, 4)
    assert (five.low, five.high, five.relative, five.current) == (-1, 2, True, 5) and five.value(2) == 7
    assert nine.choices == (1, 2, 3) and nine.current == 1
    family = space.families[0]
    assert space.max_changes == 2 and [m.current for m in family.members] == [1, 2, 5, 9]
    assert space.size() == 7 * 4 * 3 * 5**4


@pytest.mark.parametrize("vary, message", [
    (["rules.turns_each=8..2"], "runs backwards"),
    (["rules.turns_each=1.5..3"], "whole-number range"),
    (["rules.nope=1..3"], "no rules key 'nope'"),
    (["cards.numbers.*.colour=1..2"], "no card of numbers has a value in field 'colour'"),
    (["cards.*.one.value=1..2"], "a family is cards.COMPONENT.*.FIELD"),
    (["cards.numbers.Five.body=1..3"], "a range needs a number"),
])
def test_a_bad_vary_is_refused_with_the_key_named(vary, message):
    game, rules = _toy()
    with pytest.raises(UserError) as caught:
        parse_space(game, rules, vary, None)
    assert message in str(caught.value)


def test_a_family_never_changes_more_cards_than_max_changes():
    import optuna

    game, rules = _toy()
    space = parse_space(game, rules, ["cards.numbers.*.value=-3..+3", "cards.numbers.*.count=1..4"], max_changes=2)
    study = optuna.create_study(sampler=optuna.samplers.RandomSampler(seed=3))
    changed_counts, fields = set(), set()
    for _ in range(300):
        variant = suggest(study.ask(), space)
        cards = {key.split(".")[2] for key, _ in variant}
        assert len(cards) <= 2  # the two families together
        changed_counts.add(len(cards))
        fields.update(key.split(".")[3] for key, _ in variant)
    assert changed_counts == {0, 1, 2} and fields == {"value", "count"}  # the limit is reached, never passed


def test_targets_parse_and_bad_ones_exit_2():
    targets = parse_targets(["seats=2.5", "length=10..14", "going_out=0.55..0.65@8", "points_rank=0.97"])
    assert [(t.name, t.low, t.high, t.hand) for t in targets] == [
        ("seats", -2.5, 2.5, None), ("length", 10, 14, None), ("going_out", 0.55, 0.65, 8), ("points_rank", 0.97, 1.0, None)]
    assert parse_targets([]) == (Target("seats", -3, 3),)
    for bad in (["seats=-1"], ["length=9..3"], ["going_out=55..65"], ["luck=3"], ["seats=3", "seats=2"]):
        with pytest.raises(UserError):
            parse_targets(bad)


def _seats(*rows):
    return {"judged_by": "seats", "seats": [{"win_rate": w, "ci95": [lo, hi], "fair_share": 0.25} for w, lo, hi in rows]}


def test_the_verdict_is_three_way_on_the_intervals():
    target = Target("seats", -3, 3)
    inside = _seats((0.25, 0.23, 0.27), (0.26, 0.24, 0.275), (0.24, 0.225, 0.26), (0.25, 0.23, 0.27))
    outside = _seats((0.33, 0.29, 0.37), (0.22, 0.19, 0.26), (0.22, 0.19, 0.26), (0.23, 0.20, 0.27))
    straddles = _seats((0.27, 0.23, 0.31), (0.25, 0.21, 0.29), (0.24, 0.20, 0.28), (0.24, 0.20, 0.28))
    assert verdict(target, inside)["verdict"] == "held" and overall([verdict(target, inside)]) == "balanced"
    assert verdict(target, outside)["verdict"] == "missed" and verdict(target, outside)["outside"] == ["seat 1"]
    assert overall([verdict(target, outside)]) == "not balanced"
    assert verdict(target, straddles)["verdict"] == "undecided" and overall([verdict(target, straddles)]) == "undecided"
    assert overall([verdict(target, inside)], stalls=1) == "not balanced"


def _tune(tmp_path, capsys, *extra):
    code = main(["tune", TOY, "--vary", "rules.turns_each=2..7", "--vary", "cards.numbers.*.value=-2..+3",
                 "--max-changes", "2", *SMALL, "--out", str(tmp_path), "--json", *extra])
    captured = capsys.readouterr()
    return code, (json.loads(captured.out) if code == 0 else captured.out + captured.err)


@pytest.mark.slow
def test_common_random_numbers_every_candidate_plays_the_same_games(tmp_path, capsys):
    """A change the rules never read (a card's text) leaves every figure exactly as the game's own;
    a change they read moves them."""
    assert main(["tune", TOY, "--vary", "cards.numbers.One.body=a,b,c,d", *SMALL, "--trials", "4", "--eta", "2",
                 "--out", str(tmp_path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    played = [row for row in report["history"] if row["repeat_of"] is None]
    assert len(played) >= 3 and len({row["value"] for row in played}) == 1
    verified = [report["baseline"], *(row["verified"] for row in report["proposals"])]
    assert all(row["figures"] == verified[0]["figures"] for row in verified)
    assert main(["tune", TOY, "--vary", "rules.turns_each=2,3", *SMALL, "--trials", "3", "--out", str(tmp_path / "b"),
                 "--json"]) == 0
    other = json.loads(capsys.readouterr().out)
    played = [row for row in other["history"] if row["repeat_of"] is None]
    assert len(played) == 2 and len({row["value"] for row in played}) == 2


@pytest.mark.slow
def test_pruned_candidates_stop_after_the_first_rung(tmp_path, capsys):
    # a length target: turns_each moves the length far beyond its interval, so the first rung tells candidates
    # apart (a seat's +/-12 points at 60 games would not: a close call plays on, test_tune_power.py)
    code, report = _tune(tmp_path, capsys, "--trials", "14", "--target", "length=10..14")
    assert code == 0 and report["rungs"] == [60, 180]
    states = {row["state"] for row in report["history"]}
    assert states == {"complete", "pruned"}
    for row in report["history"]:
        if row["repeat_of"] is None and not row["infeasible"]:
            assert row["games"] == (180 if row["state"] == "complete" else 60)
    full = 14 * 180
    assert report["spent"]["games"] < full * 0.7  # halving saves games over playing every candidate in full
    assert len(report["proposals"]) == 2
    for row in report["proposals"]:
        assert row["verified"]["verdict"] in ("balanced", "not balanced", "undecided")
        assert len(row["verified"]["figures"]["seats"]) == 3
    assert report["baseline"]["variant"] == []
    from spellpress.tune.command import _within_noise

    assert _within_noise(report) is None  # a length has no noise here: the search told the candidates apart
    code, report = _tune(tmp_path / "seats", capsys, "--trials", "6")
    assert report["proposals"][0]["search_uncertainty"] > 1  # a seat at 180 games: +/-12 points against +/-3
    assert "could not tell proposal 1 from the game as it is" in _within_noise(report)
    other = report["baseline"]["other"]
    assert other["length"] == report["baseline"]["figures"]["length"]["mean"] and other["stalled games"] == 0
    edges = [100 * (s["win_rate"] - s["fair_share"]) for s in report["baseline"]["figures"]["seats"]]
    assert other["seat spread (points)"] == pytest.approx(max(edges) - min(edges))
    assert (tmp_path / "toy-game" / "toy-game-tune.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.slow
def test_the_same_seed_gives_the_same_proposals_on_a_pool_and_on_dask(tmp_path, capsys):
    pytest.importorskip("dask.distributed")
    code, pool = _tune(tmp_path / "pool", capsys, "--trials", "8", "--workers", "2")
    assert code == 0
    code, dask = _tune(tmp_path / "dask", capsys, "--trials", "8", "--workers", "2", "--dask", "local")
    assert code == 0
    assert dask == pool
    code, again = _tune(tmp_path / "one", capsys, "--trials", "8", "--workers", "1")
    assert again == pool


@pytest.mark.slow
def test_an_interrupted_study_resumes_to_the_same_proposals(tmp_path, capsys, monkeypatch):
    code, whole = _tune(tmp_path / "whole", capsys, "--trials", "10", "--workers", "1")
    assert code == 0
    from spellpress.tune import study as tune_study

    real, calls = tune_study.run_chunks, []

    def interrupted(*args, **kwargs):  # Ctrl-C in the middle of the 7th rung played
        calls.append(1)
        if len(calls) == 7:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(tune_study, "run_chunks", interrupted)
    code, text = _tune(tmp_path / "split", capsys, "--trials", "10", "--workers", "1")
    assert code == 130 and "interrupted" in text and not (tmp_path / "split" / "toy-game" / "toy-game-tune.json").exists()
    monkeypatch.setattr(tune_study, "run_chunks", real)
    code, resumed = _tune(tmp_path / "split", capsys, "--trials", "10", "--workers", "1")
    assert code == 0
    assert resumed["proposals"] == whole["proposals"] and resumed["baseline"] == whole["baseline"]
    assert sum(resumed["spent"]["trials"].values()) == 11 and resumed["spent"]["trials"]["fail"] == 1
    assert [(r["variant"], r["value"]) for r in resumed["history"]] == [(r["variant"], r["value"]) for r in whole["history"]]


@pytest.mark.slow
def test_a_study_made_with_other_options_is_not_resumed(tmp_path, capsys):
    assert _tune(tmp_path, capsys, "--trials", "3")[0] == 0
    code, text = _tune(tmp_path, capsys, "--trials", "3", "--eta", "2")
    assert code == 2 and "this study was made with other options" in text
    assert _tune(tmp_path, capsys, "--trials", "3", "--eta", "2", "--fresh")[0] == 0


def test_constraints_keep_counts_printable_and_the_deck_size_fixed(tmp_path, capsys):
    code = main(["tune", TOY, "--vary", "cards.numbers.*.count=-3..+3", *SMALL, "--trials", "12",
                 "--fixed-deck", "numbers", "--out", str(tmp_path), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    game, _ = _toy()
    counts = {card.id: card.count for card in game.component("numbers").cards}
    for row in report["history"]:
        changed = {key.split(".")[2]: value for key, value in row["variant"]}
        total = sum({**counts, **changed}.values())
        if row["infeasible"]:
            assert total != sum(counts.values()) or min(changed.values()) < 1
        else:
            assert total == sum(counts.values()) and all(v >= 1 for v in changed.values())
    assert report["spent"]["infeasible"] > 0


@pytest.mark.slow
def test_ctrl_c_keeps_the_study_prints_the_best_and_leaves_no_worker(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.simulate.test_interrupt import group_members

    out = tmp_path / "out"
    command = [sys.executable, "-m", "spellpress", "tune", TOY, "--vary", "rules.turns_each=2,3,5", "--players", "3",
               "--games", "3000000", "--min-games", "300", "--eta", "10", "--trials", "50", "--workers", "2", "--out", str(out)]
    run = subprocess.Popen(command, start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 120
        while len(group_members(run.pid)) < 3 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.05)
        time.sleep(4)  # a few first rungs have finished; a long rung is playing
        assert run.poll() is None, run.communicate()
        sent = time.monotonic()
        os.killpg(run.pid, signal.SIGINT)
        stdout, stderr = run.communicate(timeout=60)
        stopped = time.monotonic() - sent
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 130 and stopped < 10, stderr
    assert "Traceback" not in stderr, stderr
    assert "interrupted: the study is kept in" in stdout and "Best candidates so far" in stdout
    assert "turns_each=" in stdout  # the best candidates by the games they had played
    assert (out / "toy-game" / "toy-game-tune.study").exists() and not (out / "toy-game" / "toy-game-tune.json").exists()
    time.sleep(0.5)
    assert group_members(run.pid) == []


def test_a_field_that_is_not_negative_in_the_game_stays_so(tmp_path, capsys):
    assert main(["tune", TOY, "--vary", "cards.numbers.One.value=-3..+0", *SMALL, "--trials", "8",
                 "--out", str(tmp_path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for row in report["history"]:
        value = dict(map(tuple, row["variant"])).get("cards.numbers.One.value", 1)
        assert bool(row["infeasible"]) == (value < 0)
        if value < 0:
            assert "is negative, where the game has 1" in row["infeasible"][0] and row["games"] == 0
    assert 0 < report["spent"]["infeasible"] < len(report["history"])


def test_a_cards_target_first_tries_single_changes_to_the_worst_cards(tmp_path, capsys):
    assert main(["tune", TOY, "--vary", "cards.numbers.*.value=-2..+2", "--max-changes", "2", "--target", "cards=2",
                 *SMALL, "--trials", "12", "--out", str(tmp_path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    baseline, *later = report["history"]
    assert baseline["variant"] == [] and len(baseline["worst_cards"]) == 2
    game, _ = _toy()
    cards = game.component("numbers").cards
    expected = []
    for played in baseline["worst_cards"]:
        card = next(c for c in cards if c.id == played.split(":", 1)[1])
        expected += [[[f"cards.numbers.{card.id}.value", card["value"] + change]] for change in (-2, -1, 1, 2)]
    assert [row["variant"] for row in later[:8]] == expected
