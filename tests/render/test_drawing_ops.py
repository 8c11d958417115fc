"""Drawing operations: one walk over them, and every consumer handles every type (the type check says so)."""

from __future__ import annotations

import dataclasses
import io
import shutil
import subprocess
import sys
import typing
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

from spellpress.layout import fonts
from spellpress.layout import ops as ops_module
from spellpress.layout.ink_bounds import ops_ink
from spellpress.layout.ops import Drawn, Ellipse, FaceLayout, Fill, Grid, Group, Icon, Image, Line, Rect, Text
from spellpress.layout.walk import enclosing, walk
from spellpress.render.draft import draft_op
from spellpress.render.draw import draw_ops, painting
from spellpress.render.keys import referenced_files
from spellpress.render.paint import CmykPaint, GreyPaint
from spellpress.shop.flatten import is_transparent
from spellpress.shop.ink_limit import face_excess
from spellpress.shop.presets import DEFAULT_CMYK_PROFILE
from tests.conftest import ROOT

BLACK = (0.0, 0.0, 0.0, 1.0)
ICON = str(ROOT / "cards" / "evocabulary" / "icons" / "spell-book.svg")
FONT = ROOT / "fonts" / "EBGaramond-Regular.ttf"

# The modules that look inside drawing operations; each ends its `match` with assert_never.
CONSUMERS = ["render/draw.py", "render/draft.py", "render/keys.py", "shop/ink_limit.py", "layout/ink_bounds.py",
             "shop/flatten.py"]


@pytest.fixture
def picture(tmp_path) -> str:
    """A 4 x 4 px RGBA image whose left half is transparent."""
    from PIL import Image as PILImage

    image = PILImage.new("RGBA", (4, 4), (200, 30, 30, 255))
    image.paste((0, 0, 0, 0), (0, 0, 2, 4))
    image.save(tmp_path / "half.png")
    return str(tmp_path / "half.png")


def one_of_each(picture: str = "missing.png") -> list[Drawn]:
    return [
        Fill(0, 0, 10, 10, BLACK),
        Rect(1, 1, 4, 3, BLACK, BLACK, 0.5, radius=1),
        Ellipse(1, 1, 4, 3, None, BLACK, 0.5),
        Line(1, 1, 4, 0, BLACK, 0.5, (1, 1)),
        Grid(1, 1, 4, 3, BLACK, BLACK, 0.5, rows=2, cols=3),
        Text(1, 1, fonts.register("EBGaramond-Regular", FONT), 8, BLACK, "ab"),
        Icon(ICON, 1, 1, 3, 3, BLACK),
        Image(picture, 1, 1, 3, 3),
    ]


def test_every_operation_type_is_in_the_union_the_consumers_match():
    """A new operation type must join `Drawn` (or be a Group): that is what the type check holds each consumer to."""
    defined = {value for value in vars(ops_module).values()
               if dataclasses.is_dataclass(value) and isinstance(value, type) and value.__module__ == ops_module.__name__}
    assert defined - {FaceLayout, ops_module.Item, Group, ops_module._Outlined} == set(typing.get_args(Drawn))
    assert {type(op) for op in one_of_each()} == set(typing.get_args(Drawn))


def test_the_walk_opens_groups_in_order_with_their_scopes():
    a, b, c, d = (Text(i, 0, "Helvetica", 8, BLACK, str(i)) for i in range(4))
    inner = Group(5, 5, 90, (b,))
    outer = Group(0, 0, 180, (inner, c))
    twin = Group(0, 0, 180, (d,))  # equal to nothing walked before, but the same kind of turn
    walked = list(walk((a, outer, twin)))
    assert [op for op, _ in walked] == [a, b, c, d]
    assert [[s.group for s in enclosing(scope)] for _, scope in walked] == [[], [outer, inner], [outer], [twin]]
    assert walked[1][1].outer is walked[2][1]  # b's scope sits in the one c is drawn in


def draw_commands(ops, paint=None, keep=()) -> list[str]:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=0)
    if paint is None:
        draw_ops(canvas, ops)
    else:
        with painting(paint):
            draw_ops(canvas, ops)
    return [next((word for word in keep if word in line), line) for line in canvas._code
            if line in ("q", "Q") or line.endswith(" cm") or any(word in line for word in keep)]


def test_each_group_is_one_saved_state_and_equal_neighbours_are_two():
    a, b = Text(1, 1, "Helvetica", 8, BLACK, "(a)"), Text(2, 1, "Helvetica", 8, BLACK, "(b)")
    turned = Group(5, 5, 90, (a, b))
    quarter = "0 1 -1 0 28.34646 .000002 cm"  # a quarter turn about (5 mm, 5 mm)
    commands = draw_commands((turned, turned), keep=("Tj",))  # the same group twice: drawn twice, each in its own state
    assert commands == ["q", quarter, "Tj", "Tj", "Q"] * 2
    nested = draw_commands((Group(0, 0, 90, (Group(5, 5, 180, (a,)), b)), a), keep=("Tj",))
    assert nested == [
        "q", "0 1 -1 0 0 0 cm", "q", "-1 0 0 -1 28.34646 28.34646 cm", "Tj", "Q", "Tj", "Q", "Tj"]


def test_every_consumer_handles_every_operation_type(picture):
    drawn = one_of_each(picture)
    turned = Group(5, 5, 90, tuple(drawn))
    assert [type(draft_op(op)) for op in drawn] == [type(None), Rect, Ellipse, Line, Grid, Text, Icon, Rect]
    assert draft_op(Image(picture, 1, 2, 3, 4)) == Rect(1, 2, 3, 4, None, (0.6, 0.6, 0.6, 1.0), 0.5)
    assert draft_op(Rect(1, 2, 3, 4, BLACK, None, 2.0)) == Rect(1, 2, 3, 4, None, BLACK, 0.5)  # a fill becomes its outline
    assert referenced_files((turned,)) == {ICON, picture, str(FONT)}
    assert [is_transparent(op) for op in drawn] == [False] * 7 + [True]  # the picture's left half
    assert is_transparent(Group(0, 0, 90, (Line(0, 0, 1, 1, (0, 0, 0, 0.5), 1),)))
    # the picture's ink is its right half; a quarter turn about (5, 5) maps the 10 mm fill onto itself
    assert ops_ink([drawn[-1]]) == pytest.approx((2.5, 1, 4, 4))
    assert ops_ink((Group(5, 5, 90, (drawn[-1],)),)) == pytest.approx((6, 2.5, 9, 4))
    assert ops_ink(drawn) == (0, 0, 10, 10)
    assert ops_ink((turned,)) == pytest.approx((0, 0, 10, 10))
    assert draw_commands(drawn + [turned], keep=("Tj",)).count("Tj") == 2
    assert draw_commands(drawn, GreyPaint())
    excess = face_excess(FaceLayout(10, 10, 0, (turned,)), CmykPaint(DEFAULT_CMYK_PROFILE), 0)
    assert {e.what.split()[0] for e in excess} == {"fill", "stroke", "text", "icon", "image"}


MYPY_CONFIG = """[mypy]
python_version = 3.11
follow_imports = skip
ignore_missing_imports = true
warn_unused_ignores = false
"""


def copied_consumers(tmp_path: Path) -> Path:
    package = tmp_path / "spellpress"
    for name in ["layout/ops.py", "layout/walk.py", *CONSUMERS]:
        target = package / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "generator" / name, target)
    for folder in [package, *(p for p in package.rglob("*") if p.is_dir())]:
        (folder / "__init__.py").touch()
    # the rest of the package is not copied: what the consumers import from it is Any
    (package / "__init__.py").write_text("from typing import Any\n\n\ndef __getattr__(name: str) -> Any: ...\n")
    (tmp_path / "mypy.ini").write_text(MYPY_CONFIG)
    return package


def mypy(tmp_path: Path, package: Path) -> str:
    files = [str(p.relative_to(tmp_path)) for p in sorted(package.rglob("*.py"))]
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir", str(tmp_path / "cache"),
                           *files], cwd=tmp_path, capture_output=True, text=True)
    return done.stdout + done.stderr


@pytest.mark.slow
def test_an_operation_type_a_consumer_forgets_fails_the_type_check(tmp_path):
    package = copied_consumers(tmp_path)
    assert "Success: no issues found" in mypy(tmp_path, package)
    ops_file = package / "layout" / "ops.py"
    source = ops_file.read_text()
    union = "Drawn = Fill | Rect | Ellipse | Line | Grid | Text | Icon | Image"
    assert union in source
    ops_file.write_text(source.replace(union, union + " | Star") + "\n\n@dataclass(frozen=True)\nclass Star:\n    x: float\n")
    report = mypy(tmp_path, package)
    failing = {line.split(":")[0].removeprefix("spellpress/") for line in report.splitlines() if '"assert_never"' in line}
    assert failing == set(CONSUMERS), report
