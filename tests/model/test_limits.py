"""Hostile and clumsy input: each case exits 2 with its file:line:column and a number, fast, writing nothing."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spellpress.cli import main
from spellpress.model.expressions import ExpressionError, render
from spellpress.model.limits import MAX_CARDS_PER_GAME, MAX_COPIES_PER_CARD, MAX_IMAGE_PIXELS, MAX_RANGE_ITEMS
from tests.conftest import ROOT, WISE

FIRST = "{letter: N, points: 1, count: 12}"  # the first card of consonants.yaml
TEMPLATE = "templates/consonant-card.yaml"


def replace(old, new):
    return lambda text: text.replace(old, new, 1) if old in text else pytest.fail(f"{old!r} not found")


def append(extra):
    return lambda text: text + extra


def box(values: str):
    return append(f"  z: {{{values}}}\n")


def text_box(expression: str):
    return box(f"kind: text, x: 5mm, y: 5mm, w: 20mm, h: 5mm, text: \"{expression}\"")


CASES = [
    # (id, file, edit, command, where the error points, words of the message)
    ("count-10M", "consonants.yaml", replace(FIRST, "{letter: N, points: 1, count: 10000000}"), "check",
     "consonants.yaml:12:35", f"at most {MAX_COPIES_PER_CARD:,} copies"),
    ("cards-per-game", "consonants.yaml", replace("count: 12}", "count: 1000}").__call__, "check", "game.yaml", None),
    ("x-nan", TEMPLATE, box("kind: fill, x: .nan, color: '#000000'"), "build", "consonants.yaml:", "finite length"),
    ("w-inf", TEMPLATE, box("kind: shape, x: 1mm, y: 1mm, w: .inf, h: 2mm"), "build", "consonants.yaml:", "finite length"),
    ("x-1e300", TEMPLATE, box("kind: shape, x: 1e300, y: 1mm, w: 1mm, h: 2mm"), "build", "consonants.yaml:", "at most 10 m"),
    ("dash-zeros", TEMPLATE, box("kind: shape, x: 5mm, y: 5mm, w: 5mm, h: 5mm, dash: [0, 0]"), "build", "consonants.yaml:",
     "dash pattern"),
    ("line-fill", TEMPLATE, box("kind: shape, shape: line, x: 5mm, y: 5mm, w: 5mm, h: 0, fill: '#000000'"), "build",
     "consonants.yaml:",
     "a line has no fill"),
    ("stroke-negative", TEMPLATE, box("kind: shape, x: 5mm, y: 5mm, w: 5mm, h: 5mm, stroke_width: -5"), "build",
     "consonants.yaml:", "greater than or equal to 0"),
    ("radius-negative", TEMPLATE, box("kind: shape, x: 5mm, y: 5mm, w: 5mm, h: 5mm, radius: -50"), "build", "consonants.yaml:",
     "greater than or equal to 0"),
    ("width-negative", TEMPLATE, box("kind: shape, x: 5mm, y: 5mm, w: -5mm, h: 5mm"), "build", "consonants.yaml:",
     "greater than or equal to 0"),
    ("back-offset-inf", "game.yaml", replace("  backs: duplex-long", "  backs: duplex-long\n  back_offset: [.inf, 0]"), "build",
     "game.yaml:11:", "finite length"),
    ("back-offset-off-paper", "game.yaml", replace("  backs: duplex-long", "  backs: duplex-long\n  back_offset: [300, 0]"),
     "build",
     "game.yaml", "moves backs off"),
    ("bleed-px@0", "game.yaml", replace("  bleed: 3mm", "  bleed: 3px@0"), "build", "game.yaml:9:10", "at least 1 dpi"),
    ("yaml-600-deep", "consonants.yaml", append("deep: " + "[" * 600 + "]" * 600 + "\n"), "check", "consonants.yaml:",
     "levels deep"),
    ("yaml-500-deep-block", "consonants.yaml", append("deep:\n" + "".join(" " * (i + 1) + "-\n" for i in range(500))), "check",
     "consonants.yaml:", "nest more than 64 levels deep"),
    ("yaml-500-deep-mapping", "consonants.yaml", append("deep: " + "{a: " * 500 + "1" + "}" * 500 + "\n"), "check",
     "consonants.yaml:", "nest more than 64 levels deep"),
    ("expr-huge-string", TEMPLATE, text_box("{{ 'a' * 10**7 }}"), "build", "consonants.yaml:", "characters or items"),
    ("expr-150-parens", TEMPLATE, text_box("{{ " + "(" * 150 + "1" + ")" * 150 + " }}"), "build", "consonant-card.yaml:",
     "nests too deeply"),
    ("expr-3000-minus", TEMPLATE, text_box("{{ " + "-" * 3000 + "1 }}"), "build", "consonant-card.yaml:", "nests too deeply"),
    ("expr-nested-ranges", TEMPLATE, text_box("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"),
     "build", "consonants.yaml:", f"more than {MAX_RANGE_ITEMS:,} items"),
    ("expr-lipsum", TEMPLATE, text_box("{{ lipsum(100000) }}"), "build", "consonants.yaml:", "range() or lipsum()"),
    ("cyrillic-letter", "consonants.yaml", replace(FIRST, "{letter: Ж, points: 1, count: 12}"), "build",
     "consonants.yaml:12:5", "cannot draw 'Ж' (U+0416)"),
    ("emoji-in-text", "rules-card.yaml", replace("title: A Word to the Wise", "title: A Word 🦉 to the Wise"), "build",
     "rules-card.yaml:", "U+1F989"),
    # EB Garamond printed nothing for these
    ("cjk-in-body", "rules-card.yaml", replace("**Deal** 5 consonants each.", "Deal 5 consonants each (言葉)."), "build",
     "rules-card.yaml:8:5: card 'rules-summary'", ("box 'body'",
                                                   "font 'EBGaramond-Regular' cannot draw '言' (U+8A00), '葉' (U+8449)")),
    ("count-100k", "consonants.yaml", replace(FIRST, "{letter: N, points: 1, count: 100000}"), "build",
     "consonants.yaml:12:35", "got 100,000"),  # built 22,248 pages
    # took 65 s
    ("expr-a-times-10**6", TEMPLATE, text_box("{{ 'a' * 10**6 }}"), "build", "consonants.yaml:", "20,000 characters"),
    ("back-offset-a-kilometre", "game.yaml", replace("  backs: duplex-long", "  backs: duplex-long\n  back_offset: [1000000, 0]"),
     "build", "game.yaml:11:17", "at most 10 m"),
    ("font-not-truetype", "game.yaml", append("fonts: {Fancy: bad.ttf}\n"), "check", "game.yaml:", "is not a TrueType font file"),
    ("font-empty", "game.yaml", append("fonts: {Fancy: empty.ttf}\n"), "check", "game.yaml:", "(it is empty)"),
    ("font-truncated", "game.yaml", append("fonts: {Fancy: cut.ttf}\n"), "check", "game.yaml:", "is cut short"),
    # issue 31: a control character was the parser's own marker (IndexError); 19,990 brackets took 32 s
    ("text-control-char", "rules-card.yaml", replace("title: A Word to the Wise", 'title: "A*b\\u0002c"'), "check",
     "rules-card.yaml:8:5", "cannot draw '\x02' (U+0002)"),
    ("brackets-19000", "rules-card.yaml", replace("**Deal** 5 consonants each.", "[" * 19_000 + "*"), "check",
     "rules-card.yaml:8:5", "does not fit"),
    # issue 31: pydantic's and Python's own words leaked ("str: Input should be a valid string", a regular expression)
    ("name-not-text", "game.yaml", replace("name: A Word to the Wise", "name: [a, b]"), "check", "game.yaml:2:7",
     "name: expected text, got ['a', 'b']"),
    ("colour-not-hex", "game.yaml", replace('color: "#1f2d4d"', 'color: "#zz2d4d"'), "check", "game.yaml:19:13",
     "color: expected a colour as #rrggbb or #rrggbbaa (six or eight hex digits), or none, got '#zz2d4d'"),
    ("text-over-20000", "rules-card.yaml", replace("**Deal** 5 consonants each.", "word " * 5_000), "check",
     "rules-card.yaml:8:5", "the text made here (the template with the card's fields) is 25,"),
]


def prepare(folder: Path) -> None:
    (folder / "bad.ttf").write_bytes(b"<html>not a font</html>")
    (folder / "empty.ttf").write_bytes(b"")
    (folder / "cut.ttf").write_bytes((ROOT / "fonts" / "EBGaramond-Regular.ttf").read_bytes()[:300_000])


def many_cards(text: str) -> str:
    """Every consonant card printed 1,000 times: more cards than a game may have."""
    import re

    return re.sub(r"count: \d+}", "count: 1000}", text)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_hostile_input_exits_2_quickly_with_its_location(game_copy, tmp_path, capsys, monkeypatch, case):
    name, file, edit, command, where, words = case
    folder = game_copy(WISE)
    prepare(folder)
    target = folder / file
    target.write_text(many_cards(target.read_text()) if name == "cards-per-game" else edit(target.read_text()))
    if name == "cards-per-game":
        words = f"at most {MAX_CARDS_PER_GAME:,}"
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    started = time.monotonic()
    args = [command, folder.name] + (["--out", str(out)] if command == "build" else [])
    code = main(args)
    elapsed = time.monotonic() - started
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    assert where in err, err
    assert all(part in err for part in (words if isinstance(words, tuple) else (words,))), err
    assert not out.exists() or not any(p.is_file() for p in out.rglob("*"))
    assert elapsed < 30, f"{name} took {elapsed:.1f} s"


@pytest.mark.parametrize("argv, words", [
    (["build", "word-to-the-wise", "--bleed", "3px@0"], "at least 1 dpi"),
    (["build", "word-to-the-wise", "--back-offset", "1e999,0"], "finite length"),
    (["simulate", "word-to-the-wise", "--workers", "-1"], "must be from 1"),
    (["letters", "word-to-the-wise", "--hand", "0"], "must be from 1 to 12"),
    (["letters", "word-to-the-wise", "--hand", "20"], "must be from 1 to 12"),
])
def test_bad_options_are_usage_errors(capsys, argv, words):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert words in capsys.readouterr().err


def test_an_option_that_would_be_ignored_is_refused(tmp_path, capsys):
    """--profile without --color cmyk built RGB sheets and said nothing."""
    assert main(["build", "word-to-the-wise", "--profile", "my.icc", "--out", str(tmp_path / "out")]) == 2
    assert "--profile: a profile is for CMYK sheets: add --color cmyk" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_words_hand_in_game_yaml_is_bounded_like_the_option(game_copy, tmp_path, capsys, monkeypatch):
    folder = game_copy(WISE)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("  hand: 5", "  hand: 20"))
    monkeypatch.chdir(tmp_path)
    assert main(["check", folder.name]) == 2
    assert "less than or equal to 12" in capsys.readouterr().err


def test_an_expression_that_loops_without_output_is_stopped_by_time():
    started = time.monotonic()
    with pytest.raises(ExpressionError, match="ran longer than"):
        # 9000**3 empty iterations: hours on any machine, so only the timer can end it
        render("{% set s = 'a' * 9000 %}{% for a in s %}{% for b in s %}{% for c in s %}{% endfor %}"
               "{% endfor %}{% endfor %}", {})
    assert time.monotonic() - started < 10


def test_ordinary_expressions_still_work():
    assert render("{% for i in range(3) %}{{ i }}{% endfor %}", {}) == "012"
    assert render("{{ 'ab' * 3 }}", {}) == "ababab"
    assert render("{{ 2 ** 10 }}", {}) == "1024"


@pytest.mark.slow
@pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "unbuffered"])
def test_a_closed_pipe_ends_quietly(tmp_path, unbuffered):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["PYTHONPATH"] = str(ROOT)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    # `true` reads nothing and exits at once: every line spellpress prints goes to a closed pipe
    shell = (f"'{sys.executable}' -m spellpress build '{WISE}' --out '{tmp_path / 'out'}' --no-cache | true; "
             "echo ${PIPESTATUS[0]} >&2")
    done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, env=env, timeout=300)
    lines = done.stderr.strip().splitlines()
    assert lines[-1] in ("0", "141"), done.stderr
    assert len(lines) == 1, done.stderr  # nothing but the exit status: no traceback, no "Exception ignored"


def png_header(width: int, height: int) -> bytes:
    """A PNG that declares its size and holds no pixels: enough for a reader to judge it a bomb."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b"")


def small_png() -> bytes:
    from io import BytesIO

    from PIL import Image

    buffer = BytesIO()
    Image.new("RGB", (64, 64), (200, 30, 30)).save(buffer, "PNG")
    return buffer.getvalue()


def game_with_image(game_copy, setup) -> Path:
    folder = game_copy(WISE)
    setup(folder)
    template = folder / TEMPLATE
    template.write_text(template.read_text() + "  art: {kind: image, x: 8mm, y: 30mm, w: 20mm, h: 20mm, src: art.png}\n")
    return folder


IMAGE_CASES = [
    # above Pillow's own guard, which refuses before the size reaches us: the limit is still ours
    ("bomb", lambda f: (f / "art.png").write_bytes(png_header(30000, 30000)),
     f"image 'art.png' has 900,000,000 pixels; at most {MAX_IMAGE_PIXELS:,} pixels are allowed"),
    ("over-the-limit", lambda f: (f / "art.png").write_bytes(png_header(10000, 7000)),
     f"image 'art.png' has 10,000 x 7,000 pixels; at most {MAX_IMAGE_PIXELS:,} pixels are allowed"),
    ("truncated", lambda f: (f / "art.png").write_bytes(small_png()[:60]), "cannot be read"),
    ("folder", lambda f: (f / "art.png").mkdir(), "is a folder"),
    ("fifo", lambda f: os.mkfifo(f / "art.png"), "not a regular file"),
]


@pytest.mark.parametrize("setup, words", [c[1:] for c in IMAGE_CASES], ids=[c[0] for c in IMAGE_CASES])
def test_a_bad_image_is_blamed_on_the_card_and_box_that_use_it(game_copy, tmp_path, capsys, monkeypatch, setup, words):
    folder = game_with_image(game_copy, setup)
    monkeypatch.chdir(tmp_path)
    code = main(["build", folder.name, "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "consonants.yaml:12:5" in err and "box 'art'" in err and words in err and "Traceback" not in err
    # and the line that set the image: the box appended to the template, not game.yaml:2:1
    assert f"templates/consonant-card.yaml:{len((WISE / TEMPLATE).read_text().splitlines()) + 1}:" in err
    assert "game.yaml" not in err
    assert not (tmp_path / "out").exists()


def test_a_good_image_still_prints(game_copy, tmp_path, capsys, monkeypatch):
    folder = game_with_image(game_copy, lambda f: (f / "art.png").write_bytes(small_png()))
    monkeypatch.chdir(tmp_path)
    assert main(["build", folder.name, "--out", str(tmp_path / "out")]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("icon, words", [
    ('<svg xmlns="http://www.w3.org/2000/svg">' + "<!-- padding -->" * 200_000 + "</svg>", "at most 2,000,000 bytes"),
    ('<svg xmlns="http://www.w3.org/2000/svg">' + '<rect width="1" height="1"/>' * 30_000 + "</svg>", "at most 20,000"),
    ('<svg xmlns="http://www.w3.org/2000/svg">\n<path d="M0 0' + " L1 1" * 300_000 + '"/></svg>',
     "icons/big.svg:2:1: icon's paths have more than 50,000 numbers"),  # drawn anew on every card: 90 s a build
    ("not svg at all", "icon is not a readable SVG"),
    ("", "icon is not a readable SVG"),
], ids=["50MB-like", "many-elements", "1.8MB-path", "not-svg", "empty"])
def test_an_oversized_or_unreadable_icon_is_refused(game_copy, tmp_path, capsys, monkeypatch, icon, words):
    folder = game_copy(WISE)
    (folder / "icons").mkdir()
    (folder / "icons" / "big.svg").write_text(icon)
    game = folder / "game.yaml"
    game.write_text(game.read_text() + "icons: {big: icons/big.svg}\n")
    monkeypatch.chdir(tmp_path)
    started = time.monotonic()
    assert main(["check", folder.name]) == 2
    err = capsys.readouterr().err
    assert "icons/big.svg" in err and words in err
    assert time.monotonic() - started < 30


def test_a_closed_port_is_told_at_once_and_a_listening_one_is_left_to_dask():
    pytest.importorskip("dask.distributed")
    from spellpress.simulate.runner import nobody_there

    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        assert nobody_there(f"tcp://127.0.0.1:{port}") is None
        assert nobody_there(f"127.0.0.1:{port}") is None  # tcp:// is Dask's default
    assert "connection refused" in (nobody_there(f"tcp://127.0.0.1:{port}") or "")  # closed now
    assert nobody_there("tls://127.0.0.1:9") is None  # only TCP is probed; Dask tries the rest itself


def test_a_dask_scheduler_that_does_not_answer_is_a_user_error(capsys):
    pytest.importorskip("dask.distributed")
    assert main(["simulate", "word-to-the-wise", "--games", "4", "--dask", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "--dask: no Dask scheduler answers at tcp://127.0.0.1:9 (connection refused" in err and "Traceback" not in err


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="root, to run the build as nobody")
def test_a_read_only_output_folder_is_a_user_error_when_run_as_root(tmp_path):
    """Root writes into read-only folders: the build runs as nobody, as any user but root would."""
    import tempfile

    as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    probe = subprocess.run([*as_nobody, sys.executable, "-c", "import spellpress"], capture_output=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd="/", timeout=60)
    if probe.returncode != 0:  # a checkout in a folder only root may enter (mktemp -d is 0700)
        pytest.skip("nobody cannot read this checkout")
    home = Path(tempfile.mkdtemp(prefix="spellpress-nobody-"))  # pytest's own folders are root's alone
    try:
        home.chmod(0o755)
        (home / "out").mkdir(mode=0o555)
        (home / "out").chmod(0o555)
        done = subprocess.run([*as_nobody, sys.executable, "-m", "spellpress",
                               "build", str(WISE), "--out", "out", "--no-cache"], cwd=home, capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(home)}, timeout=300)
        assert done.returncode == 2, done.stderr
        assert "cannot write here: Permission denied" in done.stderr and "Traceback" not in done.stderr
        assert list((home / "out").iterdir()) == []
    finally:
        shutil.rmtree(home)


@pytest.mark.parametrize("obstacle", ["read-only", "file", "pdf-is-folder"])
def test_an_output_that_cannot_be_written_is_a_user_error(tmp_path, capsys, monkeypatch, obstacle):
    out = tmp_path / "out"
    if obstacle == "read-only":
        if os.geteuid() == 0:
            pytest.skip("root writes into read-only folders (the test above runs it as nobody)")
        out.mkdir()
        out.chmod(0o500)
    elif obstacle == "file":
        out.write_text("a file, not a folder")
    else:
        (out / "word-to-the-wise" / "word-to-the-wise-a4.pdf").mkdir(parents=True)
    code = main(["build", str(WISE), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "cannot write here" in err and "Traceback" not in err


def test_a_card_larger_than_the_paper_is_blamed_on_its_component(game_copy, tmp_path, capsys, monkeypatch):
    folder = game_copy(WISE)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("score-sheet: {width: 180mm, height: 250mm}",
                                             "score-sheet: {width: 180mm, height: 300mm}"))
    monkeypatch.chdir(tmp_path)
    assert main(["build", folder.name, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "score-sheet.yaml:3:7: component 'score-sheet'" in err and "does not fit" in err  # its size: line
    assert "game.yaml" not in err


def test_every_limit_is_documented_with_its_number():
    from spellpress.model import limits

    section = (ROOT / "docs" / "yaml.md").read_text().split("## Limits", 1)[1].split("\n## ", 1)[0]
    numbers = {name: value for name, value in vars(limits).items() if name.isupper()}
    assert len(numbers) >= 12
    missing = [name for name, value in numbers.items()
               if (f"{value:g} s" if isinstance(value, float) else f"{value:,}") not in section]
    assert missing == []
