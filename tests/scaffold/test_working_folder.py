"""Inside a game folder, commands act on that game and write their output beside it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from spellpress.scaffold.new import new_game


def run(cwd, *args):
    return subprocess.run([sys.executable, "-m", "spellpress", *args], cwd=cwd, capture_output=True, text=True)


@pytest.mark.slow
def test_build_and_check_in_a_game_folder_act_on_that_game(tmp_path):
    game = tmp_path / "mine"
    new_game(game, "poker")
    checked = run(game, "check")
    assert checked.returncode == 0 and checked.stdout.splitlines() == ["mine: ok (1 component, 6 cards)"]
    built = run(game / "templates", "build")  # from a folder inside the game too
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "output" / "mine" / "mine-a4.pdf").is_file()
    assert not (game / "output").exists() and not (game / "templates" / "output").exists()
    assert "../../output/mine/mine-a4.pdf" in built.stdout
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    given = run(game, "build", "--out", str(elsewhere))
    assert given.returncode == 0 and (elsewhere / "mine" / "mine-a4.pdf").is_file()
