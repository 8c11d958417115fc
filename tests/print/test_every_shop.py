"""Every shipped game builds for every shop preset: `spellpress build GAME --shop P` exits 0."""

from __future__ import annotations

import pytest

from spellpress.cli import main
from spellpress.shop.presets import shops
from tests.conftest import ROOT

GAMES = sorted(path.name for path in (ROOT / "cards").iterdir() if (path / "game.yaml").is_file())


def test_seven_games_are_shipped():
    assert len(GAMES) == 7


@pytest.mark.parametrize("preset", sorted(shops()))
def test_every_shipped_game_builds_for_the_preset(preset, tmp_path, capsys):
    code = main(["build", *GAMES, "--shop", preset, "--out", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    for game in GAMES:
        written = [path for path in (tmp_path / game / preset).rglob("*") if path.is_file()]
        assert written, f"{game} wrote nothing for {preset}"
