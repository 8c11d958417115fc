"""--suggest-counts N: nearer the language and more playable, same faces, N cards; bad N refused."""

import json
import re

import pytest

from spellpress.analysis.counts import scaled_counts
from spellpress.cli import main
from tests.conftest import WISE

# common consonants made rare and rare ones common: far from English, clogging hands
SKEW = {"N": 2, "R": 2, "S": 3, "T": 2, "Z": 9, "J": 8, "X": 8, "Q": 8, "V": 9, "W": 8}


def suggest(folder, total, tmp_path, capsys, *extra):
    assert main(["letters", str(folder), "--suggest-counts", str(total), "--json", "--out", str(tmp_path), *extra]) == 0
    return json.loads(capsys.readouterr().out)


def assert_better_with_the_same_faces(report, total):
    suggested = report["suggested_counts"]
    before, after = suggested["before"], suggested["after"]
    assert after["jensen_shannon_bits"] < before["jensen_shannon_bits"]
    assert after["playability"] > before["playability"]
    assert after["cards"] == total == sum(row["after"] for row in suggested["counts"])
    assert [row["card"] for row in suggested["counts"]] == [row["card"] for row in report["cards"]]
    assert all(row["after"] >= 1 for row in suggested["counts"])
    return before, after


@pytest.mark.slow
def test_a_word_to_the_wise_gets_nearer_english_and_more_playable(tmp_path, capsys):
    report = suggest(WISE, 108, tmp_path, capsys)
    assert_better_with_the_same_faces(report, 108)
    assert report["suggested_counts"]["seconds"] < 60


@pytest.mark.slow
def test_a_skewed_deck_is_pulled_back_toward_english(game_copy, tmp_path, capsys):
    folder = game_copy(WISE)
    path = folder / "consonants.yaml"
    text = path.read_text()
    for letter, count in SKEW.items():
        text, n = re.subn(rf"(\{{letter: {letter},[^}}]*count: )\d+", rf"\g<1>{count}", text)
        assert n == 1
    path.write_text(text)
    report = suggest(folder, 100, tmp_path / "out", capsys, "--samples", "1000")
    before, after = assert_better_with_the_same_faces(report, 100)
    assert after["jensen_shannon_bits"] < before["jensen_shannon_bits"] / 5
    assert after["going_out"] > before["going_out"] + 0.1
    counts = {row["card"]: row["after"] for row in report["suggested_counts"]["counts"]}
    assert counts["S"] > counts["Z"] and counts["T"] > counts["X"]


@pytest.mark.slow
def test_before_and_after_are_side_by_side_in_the_terminal_and_the_pdf(tmp_path, capsys):
    from pypdf import PdfReader

    assert main(["letters", str(WISE), "--suggest-counts", "60", "--samples", "300", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"Jensen-Shannon distance \(bits\) +│ [\d.]+ +│ [\d.]+", out)
    assert "game (108 cards)" in out and "suggested (60 cards)" in out
    pdf = PdfReader(tmp_path / "word-to-the-wise" / "word-to-the-wise-letters.pdf")
    text = "\n".join(page.extract_text() for page in pdf.pages)
    assert "Suggested counts for 60 cards" in text and re.search(r"a hand goes out\s+[\d.]+%\s+[\d.]+%", text)


def test_scaled_counts_keep_one_of_each_face_and_the_total():
    assert scaled_counts({"a": 10, "b": 1, "?": 2}, 5) == {"a": 3, "b": 1, "?": 1}
    assert sum(scaled_counts({"a": 7, "b": 5, "c": 1}, 200).values()) == 200


@pytest.mark.parametrize("total, message", [("0", "must be from 1"), ("-4", "must be from 1"),
                                            ("20", "cannot keep one of each of the deck's 21 card faces")])
def test_a_bad_deck_size_is_refused(total, message, tmp_path, capsys):
    try:
        code = main(["letters", str(WISE), "--suggest-counts", total, "--out", str(tmp_path / "o")])
    except SystemExit as stop:   # refused by the argument parser
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert "--suggest-counts" in err and message in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()
