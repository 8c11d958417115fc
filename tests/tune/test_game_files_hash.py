"""tune resumes a study only for the same game: the hash of its files changes with any file's bytes or name."""

import shutil
from pathlib import Path

from spellpress.tune.command import game_files_hash

WISE = Path(__file__).resolve().parents[2] / "cards" / "word-to-the-wise"


def test_the_hash_follows_the_game_files(tmp_path):
    game = tmp_path / "wise"
    shutil.copytree(WISE, game)
    first = game_files_hash(game)
    assert game_files_hash(game) == first
    (game / "game.yaml").write_text((game / "game.yaml").read_text() + "\n# a comment\n")
    changed = game_files_hash(game)
    assert changed != first
    (game / "game.yaml").rename(game / "renamed.yaml")
    assert game_files_hash(game) != changed
