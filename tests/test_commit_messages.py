"""Commit messages a reader can scan: a subject of at most 72 characters, a blank line, then a body.

Held for every commit after SINCE (the history before it is left as it was written); merge commits
need no body. A copy without the history (an sdist, a shallow clone) has nothing to check.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.conftest import ROOT

SINCE = "32ddc65"  # the last commit before the rule was enforced by this test
SUBJECT_LIMIT = 72


def _git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def _commits_since() -> list[tuple[str, int, str, str]]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: no history to check")
    if _git("cat-file", "-e", f"{SINCE}^{{commit}}").returncode != 0:
        pytest.skip(f"commit {SINCE} is not in this clone (shallow?): no history to check")
    log = _git("log", "--format=%h%x1f%P%x1f%s%x1f%b%x1e", f"{SINCE}..HEAD")
    assert log.returncode == 0, log.stderr
    commits = []
    for record in log.stdout.split("\x1e"):
        if not record.strip():
            continue
        sha, parents, subject, body = record.strip("\n").split("\x1f")
        commits.append((sha, len(parents.split()), subject, body))
    return commits


def test_subjects_are_at_most_72_characters():
    long = [f"{sha} ({len(subject)}): {subject}" for sha, _, subject, _ in _commits_since()
            if len(subject) > SUBJECT_LIMIT]
    assert not long, "subjects over 72 characters:\n" + "\n".join(long)


def test_every_commit_but_a_merge_has_a_body():
    bare = [f"{sha}: {subject}" for sha, parents, subject, body in _commits_since() if parents == 1 and not body.strip()]
    assert not bare, "commits without a body:\n" + "\n".join(bare)
