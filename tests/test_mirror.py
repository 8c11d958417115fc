"""tests/ mirrors generator/: every package of Spellpress has a tests/<package>/ folder with a test in it,
so a new package cannot arrive without its tests."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def packages(source: Path) -> list[str]:
    return sorted(folder.name for folder in source.iterdir() if (folder / "__init__.py").is_file())


def untested(source: Path, tests: Path) -> list[str]:
    return [name for name in packages(source) if not any((tests / name).glob("test_*.py"))]


def test_every_package_has_its_test_folder():
    assert packages(ROOT / "generator"), "no packages found: the layout changed"
    assert untested(ROOT / "generator", ROOT / "tests") == []


def test_a_new_package_without_tests_is_named(tmp_path):
    source, tests = tmp_path / "generator", tmp_path / "tests"
    for name in ("tested", "fresh"):
        (source / name).mkdir(parents=True)
        (source / name / "__init__.py").touch()
    (source / "data").mkdir()  # a data folder is no package
    (tests / "tested").mkdir(parents=True)
    (tests / "tested" / "test_it.py").touch()
    (tests / "fresh").mkdir()  # an empty folder is not enough
    assert untested(source, tests) == ["fresh"]
