"""A table of user mistakes: each exits 2, names file:line:col and what was expected, writes nothing."""

import os

import pytest

from spellpress.cli import main
from tests.conftest import ROOT, WISE

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(7)
)


def replace(old, new):
    def edit(text):
        assert old in text, old
        return text.replace(old, new, 1)
    edit.old = old
    return edit


def line_of(text: str, fragment: str) -> int:
    return text[: text.index(fragment)].count("\n") + 1


FIRST = "{letter: N, points: 1, count: 12}"  # the first card of consonants.yaml
SECOND = "{letter: R, points: 1, count: 12}"


def append(extra):
    return lambda text: text + extra


CASES = [
    # (file, edit, "file:line:col" expected, words expected in the message)
    ("game.yaml", replace("players: {min: 2, max: 8}", "players: {min: 2, max: 8"), "game.yaml:4:", "YAML syntax error"),
    ("game.yaml", replace("minutes: [15, 30]", "minutes: [15, 30]\nname: Again"), "game.yaml:5:1", "duplicate key 'name'"),
    ("game.yaml", replace("minutes: [15, 30]", "minutes: [15, 30]\ncolour: blue"), "game.yaml:5:1", "unknown key 'colour'"),
    ("game.yaml", replace("players: {min: 2, max: 8}", "players: {min: two, max: 8}"), "game.yaml:3:16", "min"),
    ("game.yaml", replace("  paper: a4", "  paper: a5"), "game.yaml:8:10", "'a5' is not allowed"),
    ("game.yaml", replace("  bleed: 3mm", "  bleed: 3 miles"), "game.yaml:9:10", "expected a length"),
    ("consonants.yaml", replace(FIRST, "{letter: N, points: 1, count: -1}"), "consonants.yaml:{line}:35",
     "count must be a whole number, 0 (left out for now) or more"),
    ("consonants.yaml", replace(FIRST, "{letter: N, points: one, count: 12}"), "consonants.yaml:{line}:25",
     "field 'points' must be int"),
    ("consonants.yaml", replace(FIRST, "{letter: N, points: 1, colour: red}"), "consonants.yaml:{line}:28",
     "unknown field 'colour'"),
    ("rules-card.yaml", append("  - {id: rules-summary, title: Again, body: Twice}\n"), "rules-card.yaml:{end}:10",
     "card id 'rules-summary' is already used"),
    ("consonants.yaml", replace("template: consonant-card", "template: no-such-card"), "consonants.yaml:{line}:11",
     "template 'no-such-card' not found"),
    ("consonants.yaml", replace("back: deck", "back: mystery"), "consonants.yaml:{line}:7", "unknown back 'mystery'"),
    ("game.yaml", replace("  - consonants.yaml", "  - ../../../etc/passwd"), "game.yaml:22:5", "leaves the game folder"),
    ("game.yaml", replace("  - consonants.yaml", "  - missing.yaml"), "game.yaml:22:5", "does not exist"),
    ("game.yaml", append("fonts: {Fancy: fonts/missing.ttf}\n"), "game.yaml:{end}:16", "font 'fonts/missing.ttf' does not exist"),
    ("game.yaml", append("icons: {star: /etc/hosts}\n"), "game.yaml:{end}:15", "must be relative"),
    ("consonants.yaml", append(BOMB), "consonants.yaml:", "alias bomb"),
    ("templates/consonant-card.yaml",
     append("  hack: {kind: text, x: 5mm, y: 5mm, w: 20mm, h: 5mm, text: \"{{ letter.__class__.__mro__ }}\"}\n"),
     "consonants.yaml:{first}:5", "not allowed"),
    ("templates/consonant-card.yaml",
     append("  long: {kind: text, x: 5mm, y: 5mm, w: 10mm, h: 4mm, size: 12, min_size: 10, text: \"far too much text for this "
            "box\"}\n"), "consonants.yaml:{first}:5", "box 'long'"),
    ("templates/consonant-card.yaml", append("  edge: {kind: icon, x: 0.5mm, y: 5mm, w: 5mm, h: 5mm, icon: owl}\n"),
     "consonants.yaml:{first}:5", "leaves the safe zone"),
    ("templates/consonant-card.yaml", append("  ghost: {kind: icon, x: 5mm, y: 5mm, w: 5mm, h: 5mm, icon: no-such-icon}\n"),
     "consonants.yaml:{first}:5", "unknown icon 'no-such-icon'"),
    ("templates/consonant-card.yaml", append("  typo: {kind: text, x: 5mm, y: 5mm, w: 20mm, h: 5mm, text: \"{{ leter }}\"}\n"),
     "consonants.yaml:{first}:5", "'leter' is undefined"),
    ("templates/consonant-card.yaml", append("  odd: {kind: text, x: 5mm, y: 5mm, w: 20mm, h: 5mm, text: hi, colour: red}\n"),
     "consonant-card.yaml:{end}:64", "unknown key 'colour'"),
    ("templates/consonant-card.yaml", append("  odd: {kind: sparkle}\n"), "consonant-card.yaml:{end}:15", "kind must be one of"),
    ("templates/consonant-card.yaml", append("  ink: {kind: text, x: 5mm, y: 5mm, w: 20mm, h: 5mm, text: hi, color: none}\n"),
     "consonants.yaml:{first}:5", "box 'ink'"),
    ("templates/consonant-card.yaml", append("  ink: {kind: icon, x: 5mm, y: 5mm, w: 5mm, h: 5mm, icon: owl, color: none}\n"),
     "consonants.yaml:{first}:5", "color: expected a colour as #rrggbb or #rrggbbaa (six or eight hex digits), got 'none'"),
    ("templates/consonant-card.yaml", append("  bad: {kind: text, text: \"{{ letter \"}\n"), "consonant-card.yaml:{end}:27",
     "template expression error"),
]


@pytest.mark.parametrize("file, edit, where, words", CASES, ids=[f"{c[0]}:{c[3]}" for c in CASES])
def test_mistake_exits_2_with_its_location(game_copy, tmp_path, capsys, monkeypatch, file, edit, where, words):
    folder = game_copy(WISE)
    target = folder / file
    original = target.read_text()
    target.write_text(edit(original))
    where = where.replace("{end}", str(original.count("\n") + 1))
    if hasattr(edit, "old"):
        where = where.replace("{line}", str(line_of(original, edit.old)))
    consonants = (WISE / "consonants.yaml").read_text()
    where = where.replace("{first}", str(line_of(consonants, FIRST)))
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    code = main(["build", str(folder.relative_to(tmp_path)), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert where in err, err
    assert words in err, err
    assert "Traceback" not in err
    assert not out.exists(), "a failed build must write nothing"


def test_all_errors_of_a_run_are_reported_together(game_copy, tmp_path, capsys, monkeypatch):
    folder = game_copy(WISE)
    consonants = folder / "consonants.yaml"
    text = consonants.read_text()
    first, second = line_of(text, FIRST), line_of(text, SECOND)
    text = text.replace(FIRST, "{letter: N, points: 1, count: -1}")
    text = text.replace(SECOND, "{letter: R, points: x, count: 12}")
    consonants.write_text(text)
    monkeypatch.chdir(tmp_path)
    assert main(["check", str(folder.relative_to(tmp_path))]) == 2
    err = capsys.readouterr().err
    assert f"consonants.yaml:{first}:" in err and f"consonants.yaml:{second}:" in err
    assert "2 errors" in err


def test_paths_are_shown_relative_to_the_working_folder(game_copy, tmp_path, capsys, monkeypatch):
    folder = game_copy(WISE)
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text() + "oops: 1\n")
    monkeypatch.chdir(folder)
    assert main(["check", "."]) == 2
    assert capsys.readouterr().err.startswith("error: game.yaml:")


def test_an_unknown_game_is_a_user_error(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["build", "no-such-game", "--out", str(tmp_path / "o")]) == 2
    assert "no game here" in capsys.readouterr().err


def test_a_bad_option_is_a_user_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["build", "--bleed", "lots"])
    assert exit_info.value.code == 2


def test_an_interrupted_write_leaves_no_file(tmp_path):
    from spellpress.write.atomic import atomic_path

    target = tmp_path / "deck.pdf"
    with pytest.raises(RuntimeError):
        with atomic_path(target) as temporary:
            temporary.write_bytes(b"half a pdf")
            raise RuntimeError("disk full")
    assert not target.exists()
    assert os.listdir(tmp_path) == []


def test_one_template_mistake_on_every_card_is_one_error_line(tmp_path, capsys):
    from spellpress.scaffold.new import new_game

    folder = tmp_path / "g"
    new_game(folder, "poker")
    template = folder / "templates" / "my-card.yaml"
    template.write_text(template.read_text().replace('text: "{{ points }}"', 'text: "{{ points.value }}"'))
    assert main(["check", str(folder)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and lines[1] == "1 error; nothing written.", lines
    assert "box 'points'" in lines[0]
    assert "(on 3 faces: card 'first' of 'cards', card 'second' of 'cards', card 'third' of 'cards')" in lines[0]


@pytest.mark.parametrize("edit, expected", [
    (("game.yaml", 'color: "#1f2d4d"', 'color: "#2a174"'),
     "game.yaml:15:13: back of 'cards': template 'deck-back', box 'background' (shipped templates/deck-back.yaml:5:15): "
     "color: expected a colour as #rrggbb or #rrggbbaa (six or eight hex digits), or none, got '#2a174'"),  # where it is written
    (("templates/my-card.yaml", 'text: "{{ points }}"', 'text: "{{ stats.ward }}"'),
     "box 'points' (templates/my-card.yaml:5:5): this map has no key 'ward' (its keys: 'hp')"),
    (("templates/my-card.yaml", 'text: "{{ points }}"', 'text: "{{ pionts }}"'),
     "'pionts' is undefined: not a field of this card (did you mean 'points'?) (it has: body, card_height"),
    (("templates/my-card.yaml", 'text: "{{ points }}"', 'text: "{{ title.size }}"'),
     "the value here is text, which has no 'size' (on 3 faces"),
])
def test_mistakes_are_told_in_the_designers_terms(tmp_path, capsys, monkeypatch, edit, expected):
    from spellpress.scaffold.new import new_game

    folder = tmp_path / "g"
    new_game(folder, "poker")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace("fields: {title: str, body: str, points: int}",
                                               "fields: {title: str, body: str, points: int, stats: map?}")
                     .replace("    points: 1\n", "    points: 1\n    stats: {hp: 1}\n"))
    name, old, new = edit
    path = folder / name
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new))
    monkeypatch.chdir(tmp_path / "g")
    assert main(["check", "."]) == 2
    err = capsys.readouterr().err
    assert expected in err
    assert "^(#" not in err and "FrozenDict" not in err and "site-packages" not in err


def test_a_safe_zone_mistake_in_a_template_is_one_error_line(tmp_path, capsys):
    from spellpress.scaffold.new import new_game

    folder = tmp_path / "g"
    new_game(folder, "poker")
    template = folder / "templates" / "my-card.yaml"
    template.write_text(template.read_text().replace('x: "{{ card_width - 14 }}"', 'x: "{{ card_width - 9 }}"'))
    assert main(["check", str(folder)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and lines[1] == "1 error; nothing written.", lines
    assert "leaves the safe zone" in lines[0] and "(on 3 faces: card 'first' of 'cards'" in lines[0]
    assert "the figures are the first face's" in lines[0]  # each card's digits reach a little differently


@pytest.mark.parametrize("box, words", [
    ('  background: {color: "#f6f1e1"}', '  background: {color: "#f6f1e"}', ),
    ("  quill:", "  pic: {kind: image, x: 5mm, y: 5mm, w: 5mm, h: 5mm, src: no-such.png}\n  quill:"),
], ids=["colour", "image"])
def test_a_mistake_in_a_template_is_told_at_the_template_first_then_the_card(game_copy, tmp_path, capsys, monkeypatch, box,
                                                                             words):
    """issue 43: a template's own mistake (nothing in it comes from the card) was told at the first card's CSV cell,
    the template's line second, in parentheses."""
    folder = game_copy(ROOT / "cards" / "word-rummy")
    template = folder / "templates" / "rummy-letter.yaml"
    text = template.read_text()
    template.write_text(text.replace(box, words, 1))
    line = line_of(text, box)
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"error: word-rummy/templates/rummy-letter.yaml:{line}:"), lines[0]
    assert "word-rummy/letters.csv:2:A" in lines[0]
    assert "(on 30 faces: card 'a' of 'letters' at word-rummy/letters.csv:2:A" in lines[0]
