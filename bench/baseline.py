"""Trees to time side by side: the current checkout and an earlier commit, each importable as `spellpress`.

    with source_tree(ROOT) as now, source_tree(ROOT, "main") as before:
        run_in(before, CODE, ...)   # a fresh process importing before's spellpress

`source_tree(root, ref)` writes the ref's generator/ and shipped folders to a temporary folder with
`git archive` (no worktree left behind if the bench is stopped); both kinds of tree are reached
through a folder holding one link, `spellpress` -> the tree's generator/, put first on the child's
sys.path, ahead of the editable install's import hook (which setuptools appends to sys.meta_path).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

FOLDERS = ("generator", "cards", "fonts", "templates", "docs")  # the package and what generator/paths.py looks for


@dataclass(frozen=True)
class Tree:
    label: str       # the ref, or "current"
    root: Path       # holds generator/ and cards/
    imports: Path    # put first on sys.path: `import spellpress` finds this tree's generator/

    def has_game(self, name: str) -> bool:
        """Whether this tree ships the game folder cards/<name> (an edition may be newer than a ref)."""
        return (self.root / "cards" / name / "game.yaml").is_file()


@contextmanager
def source_tree(root: Path, ref: str | None = None) -> Iterator[Tree]:
    """The checkout at `root` as it is (ref None), or its commit `ref`, importable as spellpress."""
    with tempfile.TemporaryDirectory(prefix="spellpress-bench-") as scratch:
        folder = Path(scratch)
        source = root
        if ref is not None:
            commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", f"{ref}^{{commit}}"],
                                    check=True, capture_output=True, text=True).stdout.strip()
            source = folder / "tree"
            source.mkdir()
            archive = subprocess.run(["git", "-C", str(root), "archive", "--format=tar", commit, *FOLDERS],
                                     check=True, capture_output=True).stdout
            with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
                tar.extractall(source, filter="data")
        (folder / "imports").mkdir()
        (folder / "imports" / "spellpress").symlink_to(source / "generator", target_is_directory=True)
        yield Tree(ref[:12] if ref else "current", source, folder / "imports")


def run_in(tree: Tree, code: str, args: dict, env: dict[str, str] | None = None) -> dict:
    """Run `code` in a fresh process importing the tree's spellpress; it reads json.loads(sys.argv[2]) and
    prints one JSON object last. The child checks that it imported the tree's own package. `env`: the
    child's whole environment (default: this process's)."""
    prelude = (
        "import json, sys; sys.path.insert(0, sys.argv[1])\n"
        "import spellpress\n"
        "assert spellpress.__file__.startswith(sys.argv[1]), spellpress.__file__\n"
    )
    done = subprocess.run([sys.executable, "-c", prelude + code, str(tree.imports), json.dumps(args)],
                          capture_output=True, text=True, env=env)
    if done.returncode:
        raise SystemExit(f"the {tree.label} tree failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])
