"""Imports follow the pipeline and the layers: a package imports only the packages below it
(load -> layout -> render -> impose -> write, under the commands), every package of spellpress has
its place here, and no chain of imports comes back to where it started."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "generator"

FOUNDATION = {"errors", "units", "geometry", "suggest", "progress", "ctrl_c", "pools", "arguments", "paths", "stats", "wording",
              "icon_library", "disk_cache",
              "__init__"}
"""Small modules with one job each (errors, units, progress bars, Ctrl-C, worker pools, argument types,
confidence intervals, counts in words, the shipped icon library's data, the on-disk cache, ...) and the package's own
__init__ (its version)."""

# What each part of spellpress may import, besides the foundation and itself. A new package or top-level
# module must be given its place here (test_every_package_has_its_place).
ALLOWED = {
    # the foundation imports nothing of spellpress but itself: arguments reads units, paths raises errors
    **{name: FOUNDATION for name in FOUNDATION - {"__init__"}},
    "model": set(),
    "images": {"model"},
    "words": {"model"},
    "load": {"model", "images", "words"},  # words: a game's own word file is read with the lexicon's rules
    "layout": {"model", "images"},
    "render": {"model", "layout"},
    "impose": {"model", "layout"},
    "write": {"model", "layout", "render", "impose"},
    "shop": {"model", "load", "layout", "render", "impose", "write"},
    # exporters: the registry of every export (the sheets, the print-shop PDF, the shop presets, the raster exports)
    "exporters": {"model", "load", "layout", "render", "impose", "write", "shop"},
    "build": {"model", "load", "layout", "render", "impose", "write", "shop", "exporters"},
    "rules": {"model", "load", "words"},
    "simulate": {"model", "load", "words", "rules", "write"},
    "analysis": {"model", "load", "words", "write"},
    "web": set(),  # the web kit of serve and play: app classes, templates, static files, server push
    # pull: serve --pull-every
    "serve": {"model", "load", "layout", "render", "impose", "write", "build", "pull", "design", "exporters", "web"},
    "pull": {"model", "load", "write"},  # spellpress pull: Google Sheets fetched (load) into snapshots (write)
    "scaffold": {"model", "rules", "layout"},  # layout: whether a shipped font draws the new game's name
    # contact sheets of icons and of the shared templates (drawn as a game draws them), the manual
    "catalog": {"model", "load", "layout", "render", "write"},
    "design": {"model", "layout", "shop"},  # the design check: laid-out faces judged box by box (shop: the shops' sizes)
    "print_commands": {"model", "load", "write", "build", "shop", "rules", "design", "exporters"},
    # searches rules and cards, checks the result
    "tune": {"model", "load", "words", "rules", "simulate", "analysis", "write", "build"},
    "edition": {"model", "load", "words", "rules", "simulate", "analysis", "scaffold"},  # a deck for another language, its games
    # write: records where build writes; the table: the preview's faces, the engines, the bots
    "play": {"model", "load", "build", "rules", "simulate", "serve", "write", "web"},
    # cli names the command modules in its table (cli.COMMANDS) and imports one when its command runs
    "cli": {"print_commands", "pull", "scaffold", "simulate", "analysis", "serve", "shop", "catalog", "play", "tune", "edition"},
    "tools": {"cli"},  # cli_docs writes docs/cli.md from the parser
    "entry": {"cli"},  # the installed command: Ctrl-C while cli's modules load ends quietly
    "__main__": {"entry"},
    "__init__": set(),
}


def parts_of_spellpress() -> set[str]:
    return {path.stem if path.is_file() else path.name
            for path in PACKAGE.iterdir()
            if (path.is_file() and path.suffix == ".py") or (path / "__init__.py").is_file()}


def runtime_imports(path: Path) -> list[tuple[str, int]]:
    """(module, line) of every import of spellpress in the file, lazy ones included, those under
    `if TYPE_CHECKING:` left out (they never run)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {id(node) for branch in ast.walk(tree)
               if isinstance(branch, ast.If) and ast.unparse(branch.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
               for stmt in branch.body for node in ast.walk(stmt)}
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [(name, node.lineno) for name in names if name.startswith("spellpress.")]
    return found


def part_of(path: Path) -> str:
    relative = path.relative_to(PACKAGE)
    return relative.parts[0] if len(relative.parts) > 1 else relative.stem


def test_every_package_has_its_place():
    assert sorted(parts_of_spellpress() - set(ALLOWED)) == []


def part_imported(name: str) -> str:
    """spellpress.load.game -> load; spellpress.__version__ (an attribute of the package) -> __init__."""
    part = name.split(".")[1]
    return part if part in parts_of_spellpress() else "__init__"


@pytest.mark.parametrize("part", sorted(parts_of_spellpress()))
def test_a_part_imports_only_what_is_below_it(part):
    allowed = ALLOWED[part] | FOUNDATION | {part}
    source = PACKAGE / part if (PACKAGE / part).is_dir() else PACKAGE / f"{part}.py"
    files = sorted(source.rglob("*.py")) if source.is_dir() else [source]
    wrong = [f"{path.relative_to(PACKAGE.parent)}:{line} imports {name}"
             for path in files for name, line in runtime_imports(path)
             if part_imported(name) not in allowed]
    assert wrong == []


def test_the_command_table_names_only_what_cli_may_import():
    from spellpress.cli import COMMANDS

    wrong = [command.module for command in COMMANDS.values() if part_imported(command.module) not in ALLOWED["cli"]]
    assert wrong == []


@pytest.mark.slow
def test_no_import_comes_back_to_where_it_started():
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        modules[".".join(["spellpress", *(parts[:-1] if parts[-1] == "__init__" else parts)])] = path
    graph = defaultdict(set)
    for module, path in modules.items():
        graph[module] = {name for name, _ in runtime_imports(path) if name in modules and name != module}
    # depth-first search; a module met again while still on the path closes a circle
    state: dict[str, int] = {}
    circles = []

    def visit(module: str, trail: list[str]) -> None:
        state[module] = 1
        for imported in sorted(graph[module]):
            if state.get(imported) == 1:
                circles.append(trail[trail.index(imported):] + [imported])
            elif imported not in state:
                visit(imported, trail + [imported])
        state[module] = 2

    for module in sorted(modules):
        if module not in state:
            visit(module, [module])
    assert circles == []


def test_simulate_report_does_not_import_the_command():
    report_imports = {name for name, _ in runtime_imports(PACKAGE / "simulate" / "balance_pdf.py")}
    assert "spellpress.simulate.command" not in report_imports
