"""Every command the README and docs/ show is a command Spellpress accepts, and those that finish in
seconds (new, build, check, list, calibrate, letters, docs, icons, shops) run as written.

docs/tutorial.md is run step by step by test_tutorial.py. Commands that play thousands of games or
serve a page (simulate, report, sweep, tune, serve, play) are parsed here, not run.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys

import pytest

from spellpress.cli import parser
from tests.conftest import ROOT

PAGES = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "tutorial.md")]
BLOCK = re.compile(r"```(?:sh|bash|shell)\n(.*?)```", re.S)
RUN = {"new", "build", "check", "list", "calibrate", "letters", "docs", "icons", "shops", "templates"}


def commands() -> list[tuple[str, str, list[str]]]:
    """(page, line as written, spellpress's arguments) for each spellpress command in a shell block."""
    found = []
    for page in PAGES:
        for block in BLOCK.findall(page.read_text()):
            for line in block.splitlines():
                written = line.split(" #")[0].strip()
                command = written.split("&&")[-1].strip()
                words = shlex.split(command) if command else []
                if words and words[0].endswith("spellpress"):
                    found.append((page.name, written, words[1:]))
    return found


def test_the_pages_show_commands():
    pages = {page for page, _, _ in commands()}
    assert {"README.md", "cli.md", "letters.md"} <= pages
    assert len(commands()) >= 30


@pytest.mark.parametrize("page, written, argv", commands(), ids=[f"{p}: {w}"[:70] for p, w, _ in commands()])
def test_every_command_shown_is_accepted(page, written, argv):
    try:
        parser().parse_args(argv)
    except SystemExit as exit:
        pytest.fail(f"{page}: '{written}' is refused by the command line (exit {exit.code})")


RUNNABLE_PAGES = sorted({page for page, _, argv in commands() if argv and argv[0] in RUN})
# cli.md's commands, the longest page, run from their own module so that `make test` can give them a worker
# of their own (pytest-xdist deals whole modules): tests/test_docs_commands_cli.py
OWN_MODULE = {"cli.md"}


@pytest.mark.slow  # a process a command, and `letters` samples thousands of hands: seconds to a minute a page
@pytest.mark.parametrize("page", [page for page in RUNNABLE_PAGES if page not in OWN_MODULE])
def test_the_quick_commands_of_a_page_run_as_written_in_order(tmp_path, page):
    run_page_in_order(tmp_path, page)


def test_every_runnable_page_is_run():
    assert OWN_MODULE <= set(RUNNABLE_PAGES) and len(RUNNABLE_PAGES) > len(OWN_MODULE)


def run_page_in_order(tmp_path, page: str) -> None:
    subprocess.run([sys.executable, "-m", "spellpress", "new", "path/to/my-game"], cwd=tmp_path, check=True, capture_output=True)
    ran = 0
    for _, written, argv in (c for c in commands() if c[0] == page and c[2] and c[2][0] in RUN):
        where = tmp_path / written.split("&&")[0].strip().removeprefix("cd ").strip() if "&&" in written else tmp_path
        if argv[0] == "new":  # an example that starts a game starts it anew
            shutil.rmtree(tmp_path / argv[1], ignore_errors=True)
        done = subprocess.run([sys.executable, "-m", "spellpress", *argv], cwd=where, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{page}: '{written}'\n{done.stdout}\n{done.stderr}"
        assert "Traceback" not in done.stderr
        ran += 1
    assert ran >= 2
