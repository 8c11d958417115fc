"""A game reads only its own folder and the shared files: SVG references and linked templates cannot escape."""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest

from spellpress.cli import main
from tests.conftest import WISE

# a 1x1 red PNG: if it ever reached a PDF, the file's bytes would be embedded
SECRET_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
)
SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">\n'


def svg(body: str) -> str:
    return SVG_HEAD + '<rect width="10" height="10"/>\n' + body + "</svg>\n"


def game_with_icon(game_copy, tmp_path: Path, icon_text: str | bytes) -> Path:
    """A Word to the Wise whose consonant cards draw a game icon `icons/mark.svg` with the given text."""
    secret = tmp_path / "secret"
    secret.mkdir(exist_ok=True)
    (secret / "secret.png").write_bytes(SECRET_PNG)
    (secret / "other.svg").write_text(svg('<circle id="c" cx="5" cy="5" r="4"/>\n'))
    folder = game_copy(WISE)
    (folder / "icons").mkdir(exist_ok=True)
    icon = folder / "icons" / "mark.svg"
    icon.write_bytes(icon_text if isinstance(icon_text, bytes) else icon_text.encode())
    game = folder / "game.yaml"
    game.write_text(game.read_text() + "icons: {mark: icons/mark.svg}\n")
    template = folder / "templates" / "consonant-card.yaml"
    template.write_text(template.read_text().replace("icon: owl,", "icon: mark,"))
    return folder


def run_build(folder: Path, tmp_path: Path, monkeypatch, capsys) -> tuple[int, str, Path]:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    code = main(["build", str(folder.relative_to(tmp_path)), "--out", str(out)])
    return code, capsys.readouterr().err, out


def files_under(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []


OUTSIDE_REFERENCES = [
    ('<image xlink:href="../../secret/secret.png" width="10" height="10"/>\n', "leaves the game folder"),
    ('<use xlink:href="../../secret/other.svg#c"/>\n', "leaves the game folder"),
    ('<image href="../../secret/secret.png" width="10" height="10"/>\n', "leaves the game folder"),
    ('<image xlink:href="/etc/hosts" width="10" height="10"/>\n', "only files inside the game folder"),
    ('<image xlink:href="file:///etc/hosts" width="10" height="10"/>\n', "only files inside the game folder"),
    ('<rect width="2" height="2" style="fill: url(../../secret/other.svg#c)"/>\n', "leaves the game folder"),
    ('<rect width="2" height="2" fill="url(\'../../secret/other.svg#c\')"/>\n', "leaves the game folder"),
    ('<style>@import url(../../secret/x.css);</style>\n', "@import is not allowed"),
]


@pytest.mark.parametrize("body, words", OUTSIDE_REFERENCES, ids=[words + ":" + body[:20] for body, words in OUTSIDE_REFERENCES])
def test_an_icon_that_references_a_file_outside_the_game_is_refused(game_copy, tmp_path, monkeypatch, capsys, body, words):
    folder = game_with_icon(game_copy, tmp_path, svg(body))
    code, err, out = run_build(folder, tmp_path, monkeypatch, capsys)
    assert code == 2, err
    assert "Traceback" not in err
    assert f"icons/mark.svg:{2 + 1}:1:" in err  # the line of the reference (after the <svg> and <rect> lines)
    assert words in err
    assert files_under(out) == []


def test_an_icon_may_reference_files_inside_its_game(game_copy, tmp_path, monkeypatch, capsys):
    folder = game_with_icon(game_copy, tmp_path, svg('<use xlink:href="shape.svg#c"/>\n<use xlink:href="#c"/>\n'))
    (folder / "icons" / "shape.svg").write_text(svg('<circle id="c" cx="5" cy="5" r="4"/>\n'))
    code, err, out = run_build(folder, tmp_path, monkeypatch, capsys)
    assert code == 0, err
    assert list(out.rglob("*.pdf"))


def test_an_icon_linked_to_an_svg_outside_the_game_is_refused(game_copy, tmp_path, monkeypatch, capsys):
    folder = game_with_icon(game_copy, tmp_path, svg(""))
    icon = folder / "icons" / "mark.svg"
    icon.unlink()
    icon.symlink_to(tmp_path / "secret" / "other.svg")
    code, err, out = run_build(folder, tmp_path, monkeypatch, capsys)
    assert code == 2, err
    assert "leaves the game folder" in err and "Traceback" not in err
    assert files_under(out) == []


@pytest.mark.parametrize(
    "content, words",
    [(b"", "not a readable SVG"), (SECRET_PNG, "not a readable SVG"), (b"<html><body/></html>", "expected <svg>"),
     (SVG_HEAD.encode() + b"<rect", "not a readable SVG")],
    ids=["empty", "png", "html", "truncated"],
)
def test_an_icon_that_is_not_svg_is_a_user_error(game_copy, tmp_path, monkeypatch, capsys, content, words):
    folder = game_with_icon(game_copy, tmp_path, content)
    code, err, out = run_build(folder, tmp_path, monkeypatch, capsys)
    assert code == 2, err
    assert "icons/mark.svg" in err and words in err and "Traceback" not in err
    assert files_under(out) == []


def link_template(folder: Path, target: Path) -> None:
    template = folder / "templates" / "consonant-card.yaml"
    template.unlink()
    template.symlink_to(target)


def test_a_template_linked_outside_the_game_is_refused(game_copy, tmp_path, monkeypatch, capsys):
    folder = game_copy(WISE)
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text((WISE / "templates" / "consonant-card.yaml").read_text())
    link_template(folder, outside)
    code, err, out = run_build(folder, tmp_path, monkeypatch, capsys)
    assert code == 2, err
    assert "template 'consonant-card'" in err and "leaves the game folder" in err and "Traceback" not in err
    assert files_under(out) == []


@pytest.mark.skipif(not os.path.exists("/etc/passwd"), reason="needs /etc/passwd")
def test_a_template_linked_to_a_system_file_is_refused(game_copy, tmp_path, monkeypatch, capsys):
    folder = game_copy(WISE)
    link_template(folder, Path("/etc/passwd"))
    code, err, out = run_build(folder, tmp_path, monkeypatch, capsys)
    assert code == 2, err
    assert "leaves the game folder" in err and "root:" not in err
    assert files_under(out) == []


def test_a_linked_templates_folder_outside_the_game_is_refused(game_copy, tmp_path, monkeypatch, capsys):
    folder = game_copy(WISE)
    outside = tmp_path / "outside-templates"
    (folder / "templates").rename(outside)
    (folder / "templates").symlink_to(outside, target_is_directory=True)
    code, err, out = run_build(folder, tmp_path, monkeypatch, capsys)
    assert code == 2, err
    assert "leaves the game folder" in err
    assert files_under(out) == []


def test_a_template_linked_inside_the_game_is_fine(game_copy, tmp_path, monkeypatch, capsys):
    folder = game_copy(WISE)
    kept = folder / "templates" / "kept.yaml"
    (folder / "templates" / "consonant-card.yaml").rename(kept)
    (folder / "templates" / "consonant-card.yaml").symlink_to(kept)
    code, err, out = run_build(folder, tmp_path, monkeypatch, capsys)
    assert code == 0, err


def test_a_font_linked_outside_the_game_is_refused(game_copy, tmp_path, monkeypatch, capsys):
    folder = game_copy(WISE)
    outside = tmp_path / "Outside.ttf"
    outside.write_bytes((Path(__file__).resolve().parents[2] / "fonts" / "Cinzel-Bold.ttf").read_bytes())
    (folder / "fonts").mkdir()
    (folder / "fonts" / "Fancy.ttf").symlink_to(outside)
    game = folder / "game.yaml"
    game.write_text(game.read_text() + "fonts: {Fancy: fonts/Fancy.ttf}\n")
    code, err, out = run_build(folder, tmp_path, monkeypatch, capsys)
    assert code == 2, err
    assert "leaves the game folder" in err
    assert files_under(out) == []


def png_header(width: int, height: int) -> bytes:
    from tests.model.test_limits import png_header as header

    return header(width, height)


# files an icon references are read by svglib as well: each is checked like the icon itself
REFERENCED_FILES = [
    ("svg-escapes", '<use xlink:href="shape.svg#c"/>\n',
     {"shape.svg": svg('<g id="c"><image xlink:href="../../secret/secret.png" width="10" height="10"/></g>\n')},
     "icons/shape.svg:3:1: icon references '../../secret/secret.png', which leaves the game folder"),
    ("svg-too-big", '<use xlink:href="shape.svg#c"/>\n',
     {"shape.svg": svg('<g id="c">' + '<rect width="1" height="1"/>' * 30_000 + "</g>\n")},
     "icons/shape.svg: icon has 30,003 elements; an icon may have at most 20,000"),
    ("image-bomb", '<image xlink:href="bomb.png" width="10" height="10"/>\n', {"bomb.png": png_header(30000, 30000)},
     "icons/mark.svg:3:1: icon references 'bomb.png': image 'bomb.png' has 900,000,000 pixels; at most 60,000,000"),
    ("embedded-bomb", '<image xlink:href="data:image/png;base64,' + base64.b64encode(png_header(30000, 30000)).decode()
     + '" width="10" height="10"/>\n', {}, "icons/mark.svg:3:1: icon: image 'data:image/png;base64,...' has 900,000,000 pixels"),
    ("image-truncated", '<image xlink:href="cut.png" width="10" height="10"/>\n', {"cut.png": SECRET_PNG[:40]},
     "icons/mark.svg:3:1: icon references 'cut.png': image 'cut.png' cannot be read"),
    ("missing", '<use xlink:href="gone.svg#c"/>\n', {}, "icons/mark.svg:3:1: icon references 'gone.svg#c', which does not exist"),
    ("pipe", '<image xlink:href="pipe.png" width="10" height="10"/>\n', {"pipe.png": None},
     "icons/mark.svg:3:1: icon references 'pipe.png', which is not a regular file (a pipe or a device?)"),
]


@pytest.mark.parametrize("body, files, words", [c[1:] for c in REFERENCED_FILES], ids=[c[0] for c in REFERENCED_FILES])
def test_a_file_an_icon_references_is_checked_like_the_icon(game_copy, tmp_path, monkeypatch, capsys, body, files, words):
    folder = game_with_icon(game_copy, tmp_path, svg(body))
    for name, data in files.items():
        if data is None:
            os.mkfifo(folder / "icons" / name)  # svglib would wait on it for ever
        else:
            (folder / "icons" / name).write_bytes(data if isinstance(data, bytes) else data.encode())
    code, err, out = run_build(folder, tmp_path, monkeypatch, capsys)
    assert code == 2, err
    assert words in err and "Traceback" not in err, err
    assert files_under(out) == []


def test_icons_that_reference_each_other_in_a_cycle_still_print(game_copy, tmp_path, monkeypatch, capsys):
    folder = game_with_icon(game_copy, tmp_path, svg('<g id="c"><use xlink:href="other.svg#c"/></g>\n'))
    (folder / "icons" / "other.svg").write_text(svg('<g id="c"><use xlink:href="mark.svg#c"/></g>\n'))
    code, err, out = run_build(folder, tmp_path, monkeypatch, capsys)
    assert code == 0, err
