"""manifest.json lists every file in the game's output folder that a build wrote and that is still as
written, not only the last build's: a Letter PDF stays listed after a `build --png` on A4 (issue 43)."""

from __future__ import annotations

import hashlib
import json

import pytest

from spellpress.cli import main
from tests.conftest import FIXTURES


def listed(out):
    return json.loads((out / "manifest.json").read_text())["files"]


@pytest.mark.slow
def test_a_letter_pdf_stays_listed_after_a_png_build(tmp_path, capsys):
    toy, out = FIXTURES / "toy-game", tmp_path / "toy-game"
    assert main(["build", str(toy), "--paper", "letter", "--out", str(tmp_path)]) == 0
    assert main(["build", str(toy), "--png", "--out", str(tmp_path)]) == 0
    files = listed(out)
    assert "toy-game-letter.pdf" in files and "toy-game-a4.pdf" in files
    assert any(name.startswith("png/") for name in files)
    for name, digest in files.items():  # every entry is the file as it is now
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest
    # a listed file that is gone, or changed since, is not carried over
    (out / "toy-game-letter.pdf").unlink()
    assert main(["build", str(toy), "--paper", "a4", "--out", str(tmp_path), "--no-cache"]) == 0
    files = listed(out)
    assert "toy-game-letter.pdf" not in files and "toy-game-a4.pdf" in files
    assert any(name.startswith("png/") for name in files)  # still there from the --png build
    capsys.readouterr()
