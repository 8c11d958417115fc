"""`tune --apply` on files laid out in every way the loader accepts: the card the loader found is the one
written, every other byte is kept (line endings, BOM, quoting, mode), and what cannot be written
faithfully is refused with exit 2 at its file:line, nothing written (issue 43)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess

import pytest

from spellpress.cli import main
from spellpress.load.game import load_game
from spellpress.tune import apply as tune_apply
from spellpress.tune.apply import new_texts, unified_diff
from tests.conftest import FIXTURES

HEAD = "name: Number cards\ntemplate: text-card\nfields: {title: str, body: str, value: int}\n"
SHEET_HEAD = "name: Number cards\ntemplate: text-card\nfields: {title: str, body: str, value: int}\ncards_from: numbers.csv\n"


def toy(tmp_path, numbers: str | bytes, sheet: str | bytes | None = None):
    folder = tmp_path / "toy"
    shutil.copytree(FIXTURES / "toy-game", folder)
    write = (lambda p, d: p.write_bytes(d)) if isinstance(numbers, bytes) else (lambda p, d: p.write_text(d, newline=""))
    write(folder / "numbers.yaml", numbers)
    if sheet is not None:
        (folder / "numbers.csv").write_bytes(sheet if isinstance(sheet, bytes) else sheet.encode())
    return folder


def tuned(tmp_path, folder, variant) -> list[str]:
    """A tune JSON proposing `variant`, and the --apply command line that writes it."""
    out = tmp_path / "out"
    (out / "toy").mkdir(parents=True, exist_ok=True)
    report = {"game": "toy", "proposals": [{"rank": 1, "variant": [list(pair) for pair in variant]}]}
    (out / "toy" / "toy-tune.json").write_text(json.dumps(report))
    return ["tune", str(folder), "--apply", "1", "--out", str(out)]


def values(folder) -> dict:
    return {c.id: dict(c.fields, count=c.count) for c in load_game(folder).component("numbers").cards}


def only_changed(before: dict, after: dict, card: str, field: str, value) -> None:
    expected = {k: dict(v) for k, v in before.items()}
    expected[card][field] = value
    assert after == expected


FLOW_ONE_LINE = HEAD + """cards: [
  {id: a, title: One, body: "Worth 1.", value: 1, count: 6}, {id: e, title: Two, body: "Worth 2.", value: 2, count: 5},
  {id: f, title: Five, body: "Worth 5.", value: 5, count: 3},
]
"""


def test_two_flow_cards_on_one_line_varying_the_second_changes_only_it(tmp_path, capsys):
    folder = toy(tmp_path, FLOW_ONE_LINE)
    before = values(folder)
    assert main(tuned(tmp_path, folder, [("cards.numbers.e.value", 7)])) == 0
    only_changed(before, values(folder), "e", "value", 7)
    assert (folder / "numbers.yaml").read_text() == FLOW_ONE_LINE.replace("Worth 2.\", value: 2", "Worth 2.\", value: 7")
    patch = capsys.readouterr().out
    one = "{id: a, title: One, body: \"Worth 1.\", value: 1, count: 6}"
    assert f"-  {one}, {{id: e, title: Two, body: \"Worth 2.\", value: 2," in patch
    assert f"+  {one}, {{id: e, title: Two, body: \"Worth 2.\", value: 7," in patch


def test_a_multi_line_csv_cell_does_not_shift_the_row_written(tmp_path, capsys):
    sheet = 'id,title,body,value,count\na,One,"Worth\n1.",1,6\ne,Two,Worth 2.,2,5\nf,Five,Worth 5.,5,3\n'
    folder = toy(tmp_path, SHEET_HEAD, sheet)
    before = values(folder)
    assert main(tuned(tmp_path, folder, [("cards.numbers.f.value", 8)])) == 0
    only_changed(before, values(folder), "f", "value", 8)
    assert (folder / "numbers.csv").read_text() == sheet.replace("f,Five,Worth 5.,5,3", "f,Five,Worth 5.,8,3")
    patch = capsys.readouterr().out
    assert "\n-f,Five,Worth 5.,5,3\n+f,Five,Worth 5.,8,3\n" in patch and patch.count("\n-") == 1


def test_a_comment_ending_in_u2028_does_not_shift_the_card_written(tmp_path, capsys):
    numbers = HEAD.replace("fields:", "# a comment\u2028\nfields:") + """cards:
  - {id: a, title: One, body: "Worth 1.", value: 1, count: 6}
  - {id: e, title: Two, body: "Worth 2.", value: 2, count: 5}
  - {id: f, title: Five, body: "Worth 5.", value: 5, count: 3}
"""
    folder = toy(tmp_path, numbers)
    before = values(folder)
    assert main(tuned(tmp_path, folder, [("cards.numbers.e.value", 7)])) == 0
    only_changed(before, values(folder), "e", "value", 7)
    assert (folder / "numbers.yaml").read_text(encoding="utf-8") == numbers.replace("value: 2", "value: 7")
    patch = capsys.readouterr().out
    assert ('\n-  - {id: e, title: Two, body: "Worth 2.", value: 2, count: 5}\n'
            '+  - {id: e, title: Two, body: "Worth 2.", value: 7, count: 5}\n') in patch


def test_the_printed_patch_applies_to_the_file_as_it_was(tmp_path):
    numbers = (HEAD.replace("fields:", "# a comment\u2028\n# a NEL\x85\nfields:") + "cards:\n"
               "  - {id: a, title: One, body: \"Worth 1.\", value: 1, count: 6}\n"
               "  - id: e\n    title: Two\n    body: 'Worth 2.'\n    value: 2\n").replace("\n", "\r\n")
    folder = toy(tmp_path, numbers)
    game = load_game(folder)
    texts = new_texts(game, (("cards.numbers.e.value", 7), ("cards.numbers.e.body", "Worth 7."),
                             ("cards.numbers.a.count", 2)))
    patch = tmp_path / "change.patch"
    patch.write_bytes(unified_diff(game, texts).encode())
    subprocess.run(["git", "apply", "--unsafe-paths", "-p2", "--directory", "toy", str(patch)], cwd=tmp_path, check=True)
    (after,) = (after for _, after in texts.values())
    assert (folder / "numbers.yaml").read_bytes() == after.encode()
    assert after == numbers.replace("value: 2", "value: 7").replace("'Worth 2.'", "'Worth 7.'").replace("count: 6", "count: 2")


def test_crlf_line_endings_are_kept_and_a_missing_key_gets_one_too(tmp_path):
    numbers = (HEAD + "cards:\n  - id: a\n    title: One\n    body: Worth 1.\n    value: 1  # the lowest\n"
               "  - {id: e, title: Two, body: \"Worth 2.\", value: 2}\n").replace("\n", "\r\n")
    folder = toy(tmp_path, numbers)
    assert main(tuned(tmp_path, folder, [("cards.numbers.a.count", 4), ("cards.numbers.e.count", 2)])) == 0
    written = (folder / "numbers.yaml").read_bytes()
    assert written == numbers.replace("value: 1  # the lowest\r\n", "value: 1  # the lowest\r\n    count: 4\r\n").replace(
        'value: 2}', 'value: 2, count: 2}').encode()


def test_a_csv_keeps_its_bom_line_endings_and_the_edited_rows_quoting(tmp_path):
    sheet = ('\ufeff"id","title","body","value","count"\r\n"a","One","Worth 1.","1","6"\r\n'
             '"e","Two","Worth 2.","2","5"\r\n').encode()
    folder = toy(tmp_path, SHEET_HEAD, sheet)
    assert main(tuned(tmp_path, folder, [("cards.numbers.e.value", 7)])) == 0
    assert (folder / "numbers.csv").read_bytes() == sheet.replace(b'"2","5"', b'"7","5"')


def test_a_read_only_file_is_refused_and_left_as_it_was(tmp_path, capsys):
    folder = toy(tmp_path, FLOW_ONE_LINE)
    (folder / "numbers.yaml").chmod(0o444)
    assert main(tuned(tmp_path, folder, [("cards.numbers.e.value", 7)])) == 2
    err = capsys.readouterr().err
    assert "numbers.yaml: the file is read-only" in err and "Traceback" not in err
    assert (folder / "numbers.yaml").read_text() == FLOW_ONE_LINE
    assert stat.S_IMODE((folder / "numbers.yaml").stat().st_mode) == 0o444


def test_the_files_mode_is_kept(tmp_path):
    folder = toy(tmp_path, FLOW_ONE_LINE)
    (folder / "numbers.yaml").chmod(0o640)
    assert main(tuned(tmp_path, folder, [("cards.numbers.e.value", 7)])) == 0
    assert stat.S_IMODE((folder / "numbers.yaml").stat().st_mode) == 0o640


def test_an_edit_saved_during_the_check_is_not_overwritten(tmp_path, capsys, monkeypatch):
    folder = toy(tmp_path, FLOW_ONE_LINE)
    checked = tune_apply.checked_in_scratch
    users_edit = FLOW_ONE_LINE.replace("Worth 5.", "Worth five.")

    def check_while_the_user_saves(game, texts):
        checked(game, texts)
        (folder / "numbers.yaml").write_text(users_edit)

    monkeypatch.setattr(tune_apply, "checked_in_scratch", check_while_the_user_saves)
    assert main(tuned(tmp_path, folder, [("cards.numbers.e.value", 7)])) == 2
    err = capsys.readouterr().err
    assert "numbers.yaml: the file changed while --apply was checking the game; nothing was written" in err
    assert (folder / "numbers.yaml").read_text() == users_edit
    assert not [p for p in os.listdir(folder) if "staging" in p]


@pytest.mark.parametrize("cards, key, line", [
    ("  - {id: a, title: One, body: \"Worth 1.\", value: &v 1}\n  - {id: e, title: Two, body: \"Worth 2.\", value: *v}\n",
     "cards.numbers.e.value", 5),
    ("  - {id: a, title: One, body: \"Worth 1.\", value: &v 1}\n  - {id: e, title: Two, body: \"Worth 2.\", value: *v}\n",
     "cards.numbers.a.value", 5),
    ("  - &card {id: a, title: One, body: \"Worth 1.\", value: 1}\n", "cards.numbers.a.value", 5),
    ("  - id: a\n    title: One\n    body: |\n      Worth 1.\n    value: 1\n", "cards.numbers.a.body", 7),
])
def test_an_anchor_an_alias_or_a_block_of_text_is_refused_at_its_line(tmp_path, capsys, cards, key, line):
    numbers = HEAD + "cards:\n" + cards
    folder = toy(tmp_path, numbers)
    value = "Worth 3." if key.endswith("body") else 3
    assert main(tuned(tmp_path, folder, [(key, value)])) == 2
    err = capsys.readouterr().err
    assert f"numbers.yaml:{line}:" in err and "change it by hand" in err and "Traceback" not in err
    assert (folder / "numbers.yaml").read_text() == numbers


def test_a_google_sheets_snapshot_is_refused_with_the_cells_to_change(tmp_path, capsys):
    sheet = "title,body,value,count\nOne,Worth 1.,1,6\nTwo,Worth 2.,2,5\nFive,Worth 5.,5,3\nNine,Worth 9.,9,1\n"
    folder = toy(tmp_path, SHEET_HEAD.replace("numbers.csv", "numbers.sheet.csv"))
    (folder / "numbers.sheet.csv").write_text(sheet)
    (folder / "numbers.sheet.json").write_text("{}")  # what `spellpress pull` writes beside the snapshot
    assert main(tuned(tmp_path, folder, [("cards.numbers.Two.value", 3)])) == 2
    err = capsys.readouterr().err
    assert "numbers.sheet.csv: a snapshot of a Google Sheet" in err and "row 3 column value = 3" in err
    assert (folder / "numbers.sheet.csv").read_text() == sheet


@pytest.mark.parametrize("card, written", [
    ('  - {id: e, title: Two, body: "Worth 2.", value: 2  # the second\n    }\n',
     '  - {id: e, title: Two, body: "Worth 2.", value: 2, count: 4  # the second\n    }\n'),
    ('  - {id: e, title: Two, body: "Worth 2.", value: 2,}\n',
     '  - {id: e, title: Two, body: "Worth 2.", value: 2, count: 4,}\n'),
    ("  - id: e\n    title: Two\n    value: 2\n    body: |\n      Worth 2.\n",
     "  - count: 4\n    id: e\n    title: Two\n    value: 2\n    body: |\n      Worth 2.\n"),
])
def test_a_missing_count_goes_where_it_reads_as_written(tmp_path, card, written):
    folder = toy(tmp_path, HEAD + "cards:\n" + card)
    before = values(folder)
    assert main(tuned(tmp_path, folder, [("cards.numbers.e.count", 4)])) == 0
    assert (folder / "numbers.yaml").read_text() == HEAD + "cards:\n" + written
    only_changed(before, values(folder), "e", "count", 4)
