"""Packaging hook: the wheel carries the repository's top-level fonts/, templates/ and cards/.

They stay the single source in the repository; building copies them into the package as
generator/shipped/<folder>, where an installed Spellpress finds them (generator/paths.py).
Everything else about the package is declared in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SHIPPED = ("fonts", "templates", "cards")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".*")


class build_py_with_shipped(build_py):
    def run(self):
        super().run()
        here = Path(__file__).resolve().parent
        for name in SHIPPED:
            target = Path(self.build_lib) / "generator" / "shipped" / name
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(here / name, target, ignore=IGNORED)


setup(cmdclass={"build_py": build_py_with_shipped})
