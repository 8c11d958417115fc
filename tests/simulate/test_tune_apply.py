"""`spellpress tune --apply N`: only the intended values change, comments and format kept, `check` passes."""

from __future__ import annotations

import csv
import difflib
import json
import shutil

import pytest

from spellpress.build import check
from spellpress.cli import main
from spellpress.errors import UserError
from spellpress.load.game import load_game
from spellpress.tune.apply import apply, new_texts
from tests.conftest import FIXTURES, ROOT
from tests.load.workbooks import write_xlsx


def changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    """(removed, added) line pairs and lone additions, from a line diff."""
    removed, added = [], []
    for line in difflib.ndiff(before.splitlines(), after.splitlines()):
        if line.startswith("- "):
            removed.append(line[2:])
        elif line.startswith("+ "):
            added.append(line[2:])
    return list(zip(removed, added, strict=False)) + [("", extra) for extra in added[len(removed):]]


def copied(tmp_path, game: str):
    folder = tmp_path / game
    shutil.copytree(ROOT / "cards" / game, folder)
    return folder


def test_a_commented_game_yaml_and_a_csv_change_only_their_values(tmp_path):
    folder = copied(tmp_path, "word-rummy")
    before = {name: (folder / name).read_text() for name in ("game.yaml", "letters.csv", "letters.yaml")}
    game = load_game(folder)
    apply(game, (("rules.rounds", 5), ("rules.next_starter", "trailing"), ("cards.letters.z.points", 8),
                 ("cards.letters.e.count", 12)))
    after = {name: (folder / name).read_text() for name in before}
    assert after["letters.yaml"] == before["letters.yaml"]
    assert changed_lines(before["game.yaml"], after["game.yaml"]) == [
        ("  rounds: 6               # hands of 4, 5, 6, 7, 8, 9 cards",
         "  rounds: 5               # hands of 4, 5, 6, 7, 8, 9 cards"),
        ("", "  next_starter: trailing")]
    assert changed_lines(before["letters.csv"], after["letters.csv"]) == [("e,E,1,11", "e,E,1,12"), ("z,Z,7,1", "z,Z,8,1")]
    changed = check(folder)  # what `spellpress check` runs
    assert changed.spec.rules["rounds"] == 5 and changed.spec.rules["next_starter"] == "trailing"
    rows = {row["id"]: row for row in csv.DictReader((folder / "letters.csv").open())}
    assert rows["z"]["points"] == "8" and rows["e"]["count"] == "12" and rows["a"] == {"id": "a", "letter": "A", "points": "2",
                                                                                       "count": "9"}
    assert main(["check", str(folder)]) == 0


def test_block_and_flow_cards_keep_their_style_and_a_missing_count_is_added(tmp_path):
    folder = copied(tmp_path, "magic-spell")
    spells = (folder / "spells.yaml").read_text()
    game = load_game(folder)
    apply(game, (("cards.spells.sycophant.cost", 2), ("cards.spells.sycophant.credits", 3)))
    assert changed_lines(spells, (folder / "spells.yaml").read_text()) == [("    credits: 4", "    credits: 3"),
                                                                          ("    cost: 0", "    cost: 2")]
    toy = tmp_path / "toy"
    shutil.copytree(FIXTURES / "toy-game", toy)
    numbers = (toy / "numbers.yaml").read_text()
    game = load_game(toy)
    texts = new_texts(game, (("cards.numbers.Five.body", 'Worth "7".'), ("cards.numbers.nine.value", 8)))
    (path, (_, after)), = texts.items()
    assert path.name == "numbers.yaml" and changed_lines(numbers, after) == [
        ('  - {title: Five, body: "Worth 5.", value: 5, count: 3}',
         '  - {title: Five, body: "Worth \\"7\\".", value: 5, count: 3}'),
        ('  - {title: Nine, body: "Worth 9.", value: 9, count: 1}', '  - {title: Nine, body: "Worth 9.", value: 8, count: 1}')]


def test_a_change_check_rejects_writes_nothing_and_names_the_file(tmp_path):
    folder = copied(tmp_path, "magic-spell")
    before = (folder / "spells.yaml").read_bytes()
    with pytest.raises(UserError) as caught:
        apply(load_game(folder), (("cards.spells.pilfer.count", 2),))
    assert "after --apply" in str(caught.value) and str(folder / "spells.yaml") in str(caught.value.problems[0].location.path)
    assert (folder / "spells.yaml").read_bytes() == before
    assert not list(folder.glob("*.tmp*")) and not list(folder.glob(".*spellpress*"))


def test_a_workbook_is_refused_with_the_cells_to_change(tmp_path):
    folder = copied(tmp_path, "word-rummy")
    rows = list(csv.reader((folder / "letters.csv").open()))
    write_xlsx(folder / "letters.xlsx", {"Sheet1": [[int(c) if c.isdigit() else c for c in row] for row in rows]})
    (folder / "letters.yaml").write_text((folder / "letters.yaml").read_text().replace("letters.csv", "letters.xlsx"))
    (folder / "letters.csv").unlink()
    game = load_game(folder)
    with pytest.raises(UserError) as caught:
        apply(game, (("cards.letters.z.points", 8),))
    message = str(caught.value)
    assert "letters.xlsx: --apply writes YAML and CSV files only" in message and "column points = 8" in message


def test_apply_writes_the_proposal_of_the_last_tune(tmp_path, capsys):
    toy = tmp_path / "toy-game"
    shutil.copytree(FIXTURES / "toy-game", toy)
    before = {name: (toy / name).read_text() for name in ("game.yaml", "numbers.yaml")}
    out = tmp_path / "out"
    assert main(["tune", str(toy), "--vary", "rules.turns_each=2..7", "--vary", "cards.numbers.*.value=-2..+3",
                 "--max-changes", "2", "--players", "3", "--games", "120", "--min-games", "60", "--trials", "6",
                 "--verify", "2", "--out", str(out), "--workers", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    wanted = dict(map(tuple, report["proposals"][1]["variant"]))
    assert main(["tune", str(toy), "--apply", "2", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    game = load_game(toy)
    for key, value in wanted.items():
        head, *path = key.split(".")
        if head == "rules":
            assert game.spec.rules[path[0]] == value
        else:
            card = next(c for c in game.component(path[0]).cards if c.id == path[1])
            assert card[path[2]] == value
    lines = sum(len(changed_lines(before[name], (toy / name).read_text())) for name in before)
    assert lines == len({key.split(".")[2] if key.startswith("cards.") else "rules" for key in wanted})
    assert printed.startswith("--- a/toy-game/") and "applied proposal 2" in printed
    assert main(["tune", str(toy), "--apply", "9", "--out", str(out)]) == 2
    assert "the last tune has 2 proposals" in capsys.readouterr().err


def test_a_comment_that_mentions_the_old_value_is_flagged():
    from spellpress.tune.apply import stale_comments

    game = load_game(ROOT / "cards" / "word-rummy")
    variant = (("rules.rounds", 5), ("rules.go_out_bonus", 3), ("rules.min_word_length", 4), ("cards.letters.e.count", 12))
    notes = stale_comments(game, new_texts(game, variant))
    # rounds: 6  # hands of 4, 5, 6, 7, 8, 9 cards;  min_word_length: 3  # words of 3 letters or more
    assert notes == ["word-rummy/game.yaml:30: comment mentions 6, now 5", "word-rummy/game.yaml:34: comment mentions 3, now 4"]
    assert stale_comments(game, new_texts(game, (("rules.rounds", 16),
                                                 ))) == ["word-rummy/game.yaml:30: comment mentions 6, now 16"]
