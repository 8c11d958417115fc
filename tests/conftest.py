"""Shared fixtures: real builds of real games, made once per test session."""

from __future__ import annotations

import json
import shutil
import signal
from pathlib import Path

import pytest
from hypothesis import settings

from spellpress.build import BuildOptions, build

# A runner that starts `make test` as a background job without job control (a CI script's `cmd &`) has
# Ctrl-C ignored, and every process it starts inherits that: the Ctrl-C tests send it as a terminal
# does, so each test process takes it back (its own children then start with the default again).
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# property tests draw their examples from a fixed seed: every run checks the same cases
settings.register_profile("seeded", derandomize=True, deadline=None)
settings.load_profile("seeded")

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
WISE = ROOT / "cards" / "word-to-the-wise"


def bench_module(name: str):
    """A script of bench/ (bench/<name>.py) loaded as a module, for tests of its pure parts."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
DUPLEX = FIXTURES / "duplex-game"


# the longest modules, measured (half a minute to a minute and a half each on this 2-core machine), longest first
LONGEST = ["tests/test_docs_commands_cli.py", "tests/test_tutorial.py", "tests/test_docs_commands.py",
           "tests/play/test_browser.py"]


def pytest_collection_modifyitems(items):
    """The longest modules first, then the others that hold slow tests, then the rest: `make test`
    deals whole modules to two workers in this order (pytest-xdist, --no-loadscope-reorder), so the
    long ones start early and the many quick ones fill in at the end, instead of one long module
    running alone while the other worker idles."""
    heavy = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("slow")}

    def rank(item) -> int:
        module = item.nodeid.split("::")[0]
        return LONGEST.index(module) if module in LONGEST else len(LONGEST) + (module not in heavy)

    items.sort(key=rank)  # stable: each module keeps its order


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
