"""`spellpress simulate` and `spellpress report` on the toy game."""

import json

import pytest
from pypdf import PdfReader

from spellpress.cli import main
from tests.conftest import FIXTURES
from tests.write.test_pdf import fonts_of

TOY = str(FIXTURES / "toy-game")


def test_simulate_prints_json_with_seat_rates_and_a_verdict(capsys):
    assert main(["simulate", TOY, "--games", "200", "--players", "2", "--workers", "1", "--seed", "3", "--json", "--check"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 200 and report["players"] == 2
    assert len(report["seats"]) == 2
    assert report["stalls"] == 0
    assert "luck" in report and report["luck"]["games"] == 40
    assert isinstance(report["balanced"], bool)


def test_simulate_is_reproducible(capsys):
    args = ["simulate", TOY, "--games", "100", "--workers", "1", "--seed", "5", "--json", "--luck-games", "0"]
    main(args)
    first = capsys.readouterr().out
    main(args)
    assert capsys.readouterr().out == first


def test_simulate_table_output(capsys):
    assert main(["simulate", TOY, "--games", "60", "--players", "3", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "Seats" in out and "Verdict" in out and "Stalls: 0" in out


@pytest.mark.parametrize("args, words", [
    (["--players", "9"], "takes 2 to 4 players"),
    (["--games", "0"], "must be at least 1"),
    (["--skill", "2"], "between 0 and 1"),
    (["--option", "nonsense"], "expected KEY=VALUE"),
])
def test_simulate_refuses_bad_arguments(capsys, args, words):
    assert main(["simulate", TOY, "--workers", "1", *args]) == 2
    assert words in capsys.readouterr().err


def test_a_game_without_an_engine_is_a_user_error(capsys):
    assert main(["simulate", str(FIXTURES / "duplex-game"), "--workers", "1"]) == 2
    assert "no rules engine" in capsys.readouterr().err


def test_report_writes_a_pdf_with_charts(tmp_path, capsys):
    assert main(["report", TOY, "--games", "100", "--workers", "1", "--out", str(tmp_path)]) == 0
    pdf = tmp_path / "toy-game" / "toy-game-balance.pdf"
    reader = PdfReader(pdf)
    text = "".join(page.extract_text() for page in reader.pages)
    for players in (2, 3, 4):
        assert f"{players} players" in text
    assert "seat 1" in text and "Win rate per seat" in text
    fonts = fonts_of(reader)
    assert fonts and all(fonts.values()), fonts
