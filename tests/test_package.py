"""The wheel carries everything Spellpress needs: installed in a fresh venv, it works from any folder."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # make test-fast leaves this module out

SHIPPED = ("fonts", "templates", "cards", "docs")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-v", "-w", str(out),
                           str(ROOT)], check=True, capture_output=True, text=True, cwd=ROOT)
    (out / "build.log").write_text(done.stdout + done.stderr)
    (built,) = out.glob("spellpress-*.whl")
    return built


def test_the_build_names_every_package_folder(wheel):
    """setuptools warns of each folder it is not told of (the data folders were ten screens of warnings)."""
    log = (wheel.parent / "build.log").read_text()
    assert "running build_py" in log  # the backend's own output is in the log
    assert "would be ignored" not in log


def test_the_wheel_carries_the_shipped_fonts_templates_games_and_data(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in SHIPPED:
        in_repo = {p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts and not p.name.startswith(".")}
        assert in_repo, folder
        assert {f"spellpress/shipped/{name}" for name in in_repo} <= names, folder
    assert "spellpress/shipped/fonts/OFL.txt" in names
    assert "spellpress/data/lexicon/words.txt" in names and "spellpress/data/lexicon/SCOWL-COPYRIGHT.txt" in names
    assert any(name.startswith("spellpress/serve/static/") for name in names)
    assert {"spellpress/play/static/play.js", "spellpress/play/static/play.css"} <= names
    assert {"spellpress/web/templates/document.html", "spellpress/serve/templates/preview.html",
            "spellpress/play/templates/table.html"} <= names  # the pages' Jinja2 templates
    assert "spellpress/data/icons/game-icons.json.gz" in names and "spellpress/data/icons/README.md" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "spellpress = spellpress.entry:run" in text and "[spellpress.engines]" in text


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh venv holding only the wheel; its dependencies come from this venv's site-packages (no network)."""
    home = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=False).create(home)
    site = Path(sysconfig.get_paths(vars={"base": str(home), "platbase": str(home)})["purelib"])
    ours = Path(sysconfig.get_paths()["purelib"])
    # a plain path entry: the .pth files there (such as this checkout's editable install) are not run
    (site / "dependencies.pth").write_text(str(ours) + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(home / "bin" / "python"), "install", "-q", "--no-deps",
                    "--no-index", str(wheel)], check=True, capture_output=True)
    return home / "bin" / "spellpress"


def run(spellpress: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(spellpress), *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_the_installed_wheel_works_from_an_empty_folder(installed, tmp_path):
    where = run(installed, tmp_path, "--version")
    assert where.returncode == 0
    listed = run(installed, tmp_path, "list")
    assert listed.returncode == 0, listed.stderr
    for game in ("evocabulary", "lost-words", "magic-spell", "spelled", "word-to-the-wise"):
        assert game in listed.stdout
    built = run(installed, tmp_path, "build", "word-to-the-wise")
    assert built.returncode == 0, built.stderr
    pdf = tmp_path / "output" / "word-to-the-wise" / "word-to-the-wise-a4.pdf"
    assert pdf.stat().st_size > 50_000
    # the installed copy, not this checkout, answered
    probe = subprocess.run([str(installed.parent / "python"), "-c", "import spellpress.paths as p; print(p.PROJECT_ROOT)"],
                           capture_output=True, text=True, cwd=tmp_path)
    assert "shipped" in probe.stdout and str(ROOT) not in probe.stdout
    assert run(installed, tmp_path, "new", "g").returncode == 0
    assert run(installed, tmp_path, "check", "g").returncode == 0
    game = run(installed, tmp_path, "build", "g")
    assert game.returncode == 0, game.stderr
    assert (tmp_path / "output" / "g" / "g-a4.pdf").is_file()
    assert not (tmp_path / "output" / "g" / "icon-credits.md").exists()  # the starter uses shared icons only
    cards = tmp_path / "g" / "cards.yaml"
    cards.write_text(cards.read_text().replace("body: What this card does, in a sentence or two.",
                                               'body: "A :fire-ray: from the library."'))
    game = run(installed, tmp_path, "build", "g")
    assert game.returncode == 0, game.stderr
    credits = (tmp_path / "output" / "g" / "icon-credits.md").read_text()
    assert "| fire-ray | Lorc | https://game-icons.net/1x1/lorc/fire-ray.html |" in credits
    manual = run(installed, tmp_path, "docs", "yaml")
    assert manual.returncode == 0 and manual.stdout == (ROOT / "docs" / "yaml.md").read_text()
    found = run(installed, tmp_path, "icons", "fire", "--no-sheet")
    assert found.returncode == 0 and "fire-ray" in found.stdout
    assert run(installed, tmp_path, "new", "r", "--rules").returncode == 0  # the starter engine comes from the package
    simulated = run(installed, tmp_path, "simulate", "r", "--games", "20", "--players", "2", "--workers", "1")
    assert simulated.returncode == 0 and "Stalls: 0" in simulated.stdout, simulated.stderr


def test_a_game_folder_given_by_path_wins_over_a_shipped_one(installed, tmp_path):
    assert run(installed, tmp_path, "new", "word-to-the-wise").returncode == 0  # a local folder with a shipped game's id
    built = run(installed, tmp_path, "build", "word-to-the-wise")
    assert built.returncode == 0, built.stderr
    assert "6 cards" in built.stdout  # the three-card starter (6 copies), not the shipped 113-card game
