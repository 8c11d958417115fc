"""A row per card face (digraphs and wilds included) in the terminal, the JSON and the PDF."""

import json
import re
import shutil

import pytest
from pypdf import PdfReader

from spellpress.cli import main
from tests.conftest import ROOT

RUMMY = ROOT / "cards" / "word-rummy"
SMALL_DECK = """id,letter,points,count
a,A,1,4
e,E,1,4
i,I,1,3
o,O,1,3
s,S,1,3
t,T,1,3
n,N,1,3
r,R,2,2
qu,QU,8,1
th,TH,4,2
er,ER,3,2
wild,*,0,1
"""
DIGRAPHS = ("QU", "TH", "ER")


@pytest.fixture(scope="module")
def digraph_game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games") / "digraph-deck"
    shutil.copytree(RUMMY, folder)
    (folder / "letters.csv").write_text(SMALL_DECK)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("hand: 7 ", "hand: 4 "))
    return folder


@pytest.fixture(scope="module")
def analysed(digraph_game, tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    args = ["letters", str(digraph_game), "--samples", "600", "--seed", "3", "--out", str(out)]
    return args, out / "digraph-deck"


@pytest.mark.slow
def test_each_digraph_and_the_wild_have_their_own_row_in_the_json(analysed, capsys):
    args, out = analysed
    assert main(args + ["--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = {row["card"]: row for row in report["cards"]}
    assert set(rows) == set("AEIOSTNR") | set(DIGRAPHS) | {"wild"}
    for face, count, printed in (("QU", 1, 8), ("TH", 2, 4), ("ER", 2, 3)):
        assert rows[face]["kind"] == "digraph"
        assert (rows[face]["count"], rows[face]["printed"]) == (count, printed)
        assert 1 <= rows[face]["suggested"] <= 2   # the letters' printed range is 1-2
        assert 0 <= rows[face]["dead_rate"] <= 1
    assert rows["wild"]["kind"] == "wild" and rows["wild"]["count"] == 1 and rows["wild"]["suggested"] is None
    # the letter table splits digraphs: E is 4 E cards and 2 ER cards, U only the QU card
    letters = {row["letter"]: row["count"] for row in report["frequency"]}
    assert letters["E"] == 6 and letters["U"] == 1 and letters["H"] == 2 and letters["Q"] == 1
    assert "split into their letters" in report["frequency_note"]
    assert sum(row["count"] for row in report["cards"]) == report["deck"]["cards"] == 31


def test_going_out_by_hand_size_is_exact_for_small_hands(analysed, capsys):
    args, _ = analysed
    assert main(args + ["--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    going = report["going_out_by_hand"]
    assert [row["hand"] for row in going] == [2, 3, 4]
    assert all(row["method"] == "exact" and "ci95" not in row and 0 < row["p"] < 1 for row in going)
    assert report["playability"]["going_out"]["p"] == going[-1]["p"]


def test_each_digraph_has_a_row_in_the_terminal_tables(analysed, capsys):
    args, _ = analysed
    assert main(args) == 0
    out = capsys.readouterr().out
    for face in DIGRAPHS:
        assert re.search(rf"│ {face} +│ digraph +│", out), face
    assert re.search(r"│ wild +│ wild +│ 1 ", out)
    assert "Going out by hand size" in out and "split into their letters" in out


def test_each_digraph_has_a_row_in_the_pdf(analysed, capsys):
    args, out = analysed
    assert main(args) == 0
    capsys.readouterr()
    text = "\n".join(page.extract_text() for page in PdfReader(out / "digraph-deck-letters.pdf").pages)
    for face in DIGRAPHS:
        assert re.search(rf"^{face}\s+digraph\s+\d", text, re.M), face
    assert re.search(r"^wild\s+wild\s+1\s", text, re.M)
    assert "Going out" in text and "split into their letters" in text


@pytest.mark.slow
def test_a_hand_of_three_from_a_thirty_face_deck_is_exact(tmp_path, capsys):
    # 4,801 distinct 3-card hands: more than the old fixed limit of 3,000, fewer than max(20,000, samples)
    assert main(["letters", str(RUMMY), "--hand", "3", "--samples", "200", "--json", "--out", str(tmp_path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["playability"]["method"] == "exact" and report["playability"]["hands"] == 4801
    assert "ci95" not in report["playability"]["word"]
    assert [row["method"] for row in report["going_out_by_hand"]] == ["exact", "exact"]
