"""Packaging hook: the import package `spellpress` is built from the folder generator/, and the
wheel carries the repository's top-level fonts/, templates/, cards/ and docs/.

They stay the single source in the repository; building copies them into the package as
spellpress/shipped/<folder>, where an installed Spellpress finds them (generator/paths.py).
Everything else about the package is declared in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

SHIPPED = ("fonts", "templates", "cards", "docs")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".*")


class build_py_with_shipped(build_py):
    def run(self):
        super().run()
        here = Path(__file__).resolve().parent
        for name in SHIPPED:
            target = Path(self.build_lib) / "spellpress" / "shipped" / name
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(here / name, target, ignore=IGNORED)


SOURCE = "generator"  # the folder; its import name is spellpress
# every folder, the data folders too (their files are package data); setuptools warns of each one it is not told of
PACKAGES = ["spellpress", *(f"spellpress.{name}" for name in find_namespace_packages(SOURCE, exclude=["*__pycache__*"]))]

setup(
    packages=PACKAGES,
    package_dir={"spellpress": SOURCE},
    cmdclass={"build_py": build_py_with_shipped},
)
