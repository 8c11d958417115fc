"""Shared fixtures: real builds of real games, made once per test session."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import settings

from spellpress.build import BuildOptions, build

# property tests draw their examples from a fixed seed: every run checks the same cases
settings.register_profile("seeded", derandomize=True, deadline=None)
settings.load_profile("seeded")

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
WISE = ROOT / "cards" / "word-to-the-wise"
DUPLEX = FIXTURES / "duplex-game"


@pytest.fixture(scope="session")
def build_game(tmp_path_factory):
    """build_game(folder, **options) -> (pdf path, manifest dict); cached per (folder, options)."""
    cache: dict = {}

    def _build(folder: Path, **options):
        key = (str(folder), tuple(sorted(options.items())))
        if key not in cache:
            out = tmp_path_factory.mktemp("build")
            result = build(folder, BuildOptions(out=out, **options))
            manifest = json.loads((out / result.game_id / "manifest.json").read_text())
            cache[key] = (out / result.game_id / manifest["pdf"], manifest, result)
        return cache[key]

    return _build


@pytest.fixture
def game_copy(tmp_path):
    """A writable copy of a game folder, for tests that break it on purpose."""

    def _copy(folder: Path = WISE) -> Path:
        target = tmp_path / folder.name
        shutil.copytree(folder, target)
        return target

    return _copy
