"""Start-up: a command imports only what it needs (checked in a fresh interpreter)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import FIXTURES, ROOT

# simulation, Dask, letter analysis and rasterizing code have no business in printing a deck
HEAVY = ("spellpress.simulate.runner", "spellpress.simulate.metrics", "spellpress.rules", "dask", "distributed",
         "spellpress.analysis.letter_report", "spellpress.analysis.playability", "spellpress.words", "pypdfium2",
         "spellpress.write.raster", "numpy", "starlette", "uvicorn", "watchfiles")

PROBE = """
import json, sys
from spellpress.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""


def loaded_by(*argv: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


# `check` loads no rules engine, even for a game that names one (the toy game's rules.py): check-engine does
@pytest.mark.parametrize("argv", [("--help",), ("check", "plain"), ("check", "toy"), ("build", "toy", "--out", "OUT")],
                         ids=["help", "check", "check-a-game-with-an-engine", "build"])
def test_a_command_imports_only_what_it_needs(argv, tmp_path):
    folders = {"toy": FIXTURES / "toy-game", "plain": FIXTURES / "duplex-game"}
    argv = tuple(str(folders[a]) if a in folders else str(tmp_path) if a == "OUT" else a for a in argv)
    modules = loaded_by(*argv)
    heavy = sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))
    assert heavy == []
    if argv[0] == "build":
        assert "spellpress.write.pdf" in modules  # the probe really ran the build
        assert (tmp_path / "toy-game").is_dir()
