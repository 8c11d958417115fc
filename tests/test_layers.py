"""Imports follow the pipeline: a step never imports a step after it (load -> layout -> render -> impose -> write)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "generator"

# For each package, the generator packages it must not import (later steps of the pipeline, or its users).
FORBIDDEN = {
    "model": {"load", "layout", "render", "impose", "write", "simulate", "rules", "analysis", "build", "cli"},
    "load": {"layout", "render", "impose", "write", "simulate", "rules", "analysis", "build", "cli"},
    "layout": {"load", "render", "impose", "write", "simulate", "build", "cli"},
    "render": {"load", "impose", "write", "simulate", "build", "cli"},
    "impose": {"load", "write", "simulate", "build", "cli"},
    "rules": {"simulate", "layout", "render", "impose", "write", "build", "cli"},
}


def imported_packages(path: Path) -> set[tuple[str, int]]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "spellpress" and len(parts) > 1:
                found.add((parts[1], node.lineno))
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_backward_imports(package):
    wrong = [
        f"{path.relative_to(PACKAGE.parent)}:{line} imports spellpress.{target}"
        for path in sorted((PACKAGE / package).rglob("*.py"))
        for target, line in sorted(imported_packages(path))
        if target in FORBIDDEN[package]
    ]
    assert wrong == []


def test_simulate_report_does_not_import_the_command():
    report_imports = {
        node.module for node in ast.walk(ast.parse((PACKAGE / "simulate" / "report_pdf.py").read_text()))
        if isinstance(node, ast.ImportFrom)
    }
    assert "spellpress.simulate.command" not in report_imports
