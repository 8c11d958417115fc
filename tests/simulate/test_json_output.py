"""JSON outputs are strict JSON: a number that is not finite becomes null with its reason, never a bare NaN.

Issue 31 item 12: `simulate --json` and `-balance.json` held bare `NaN`, which strict readers refuse.
"""

from __future__ import annotations

import json
import math

import pytest

from spellpress.cli import main
from spellpress.simulate import command as simulate_command
from spellpress.simulate import sweep as sweep_command
from spellpress.write.json_text import REASONS_KEY, finite_json
from tests.conftest import ROOT

TOY = ROOT / "tests" / "fixtures" / "toy-game"


def strict(text: str):
    return json.loads(text, parse_constant=lambda name: pytest.fail(f"bare {name} in the JSON"))


def test_non_finite_numbers_become_null_with_their_reason():
    data = strict(finite_json({"mean": math.nan, "seats": [1.5, math.inf], "spread": {"low": -math.inf, "n": 3}}))
    assert data["mean"] is None and data["seats"] == [1.5, None] and data["spread"] == {"low": None, "n": 3}
    assert set(data[REASONS_KEY]) == {"mean", "seats[1]", "spread.low"}
    assert "nan" in data[REASONS_KEY]["mean"] and "inf" in data[REASONS_KEY]["seats[1]"]


def test_finite_reports_are_written_unchanged():
    report = {"games": 4, "mean": 2.5, "seats": [0.5, 0.5], "name": "x"}
    assert strict(finite_json(report)) == report
    assert strict(finite_json([report])) == [report]


def _with_nan(real):
    def simulate(*args, **kwargs):
        report = real(*args, **kwargs)
        report["mean_score"] = math.nan  # what a statistic of no games, or 0/0, would give
        return report
    return simulate


def test_simulate_json_with_a_nan_statistic_is_valid(capsys, monkeypatch):
    monkeypatch.setattr(simulate_command, "simulate", _with_nan(simulate_command.simulate))
    assert main(["simulate", str(TOY), "--games", "8", "--workers", "1", "--json", "--luck-games", "0"]) == 0
    report = strict(capsys.readouterr().out)
    assert report["mean_score"] is None and "mean_score" in report[REASONS_KEY]


def test_sweep_json_with_a_nan_statistic_is_valid(capsys, monkeypatch, tmp_path):
    real = sweep_command.sweep

    def sweep(*args, **kwargs):
        report = real(*args, **kwargs)
        report["spread_limit_points"] = math.inf
        return report
    monkeypatch.setattr(sweep_command, "sweep", sweep)
    monkeypatch.setattr(sweep_command, "sweep_pdf", lambda report: b"%PDF-1.4\n")  # the PDF is not what is tested
    assert main(["sweep", str(TOY), "--vary", "rules.turns_each=3,4", "--games", "4", "--workers", "1", "--json",
                 "--out", str(tmp_path)]) == 0
    report = strict(capsys.readouterr().out)
    assert report["spread_limit_points"] is None and "spread_limit_points" in report[REASONS_KEY]
