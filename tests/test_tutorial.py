"""docs/tutorial.md works as written: its files are written and its commands run, in order,
in an empty folder; then what each step promises is in the output."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys

import pytest
from pypdf import PdfReader

from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # make test-fast leaves this module out

TUTORIAL = ROOT / "docs" / "tutorial.md"
STEP = re.compile(r"(?:<!-- (file|append): (\S+) -->\n)?```(\w+)\n(.*?)```", re.S)


def steps() -> list[tuple[str, str, str]]:
    """('run', command, '') or ('file'|'append', path, text), in the tutorial's order."""
    found = []
    for action, path, lang, body in STEP.findall(TUTORIAL.read_text()):
        if action:
            found.append((action, path, body))
        elif lang == "sh":
            found += [("run", line, "") for line in body.splitlines() if line.strip() and not line.startswith("#")]
    return found


def test_the_tutorial_has_files_and_commands_in_every_step():
    kinds = [kind for kind, _, _ in steps()]
    assert kinds.count("file") == 4 and kinds.count("append") == 1
    assert kinds.count("run") >= 10


@pytest.fixture(scope="module")
def tutorial_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tutorial")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    outputs = {}
    for kind, what, text in steps():
        if kind == "run":
            words = shlex.split(what)
            assert words[0] == "spellpress", what
            done = subprocess.run([sys.executable, "-m", "spellpress", *words[1:]], cwd=folder, env=env,
                                  capture_output=True, text=True, timeout=900)
            assert done.returncode == 0, f"{what}\n{done.stdout}\n{done.stderr}"
            assert "Traceback" not in done.stderr
            outputs[what] = done.stdout
        else:
            path = folder / what
            assert path.parent.is_dir(), f"{what}: the tutorial writes into a folder an earlier step made"
            with path.open("a" if kind == "append" else "w") as out:
                out.write(text)
    return folder, outputs


def test_each_step_makes_what_it_says(tutorial_run):
    folder, outputs = tutorial_run
    out = folder / "output" / "pocket-words"
    a4 = PdfReader(out / "pocket-words-a4.pdf")
    text = "".join(page.extract_text() for page in a4.pages)
    assert "Your turn" in text and "Bonuses" in text  # the rich-text rules cards
    letter = PdfReader(out / "pocket-words-letter.pdf")
    width, height = (float(v) for v in letter.pages[0].mediabox[2:])
    assert (round(width), round(height)) == (612, 792)  # US Letter
    assert "73 cards" in outputs["spellpress check pocket-words"]  # 70 letters from the CSV + 3 rules cards
    pngs = list((out / "png").rglob("*.png"))
    assert len(pngs) >= 2 * (27 + 3)  # a front and a back for each distinct card
    letters = json.loads((out / "pocket-words-letters.json").read_text())
    assert letters["hand"] == 6 and letters["deck"]["cards"] == 70 and letters["deck"]["wild_cards"] == 2
    simulated = " ".join(outputs["spellpress simulate pocket-words --players 2 --workers 2"].split())
    assert "win rate" in simulated and "Stalls" in simulated
    assert re.search(r"Verdict: (balanced|NOT BALANCED) after [\d,]+ games", simulated)  # the example ends decided
