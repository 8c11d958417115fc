"""How long the test suite takes, measured, and the README's table written from the measurement.

    python bench/test_times.py [--runs 3] [--only test|test-fast] [--write]

Runs `make test-fast` and `make test` (each --runs times, nothing else should be running), and for each
prints the tests passed and skipped (pytest's last line), the CPU time of make and every process under
it (user + system) and the wall time, as a range over the runs. --write puts the table into README.md
between the lines `<!-- test-times -->` and `<!-- /test-times -->` (with --only, the other target's row
is kept), so the figures there are this command's, not typed by hand. A failing run stops it (exit 1) and writes nothing.
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
START, END = "<!-- test-times -->", "<!-- /test-times -->"
SUMMARY = re.compile(r"(\d+) passed(?:, (\d+) skipped)?")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(target: str) -> tuple[int, int, float, float]:
    """(passed, skipped, CPU seconds, wall seconds) of one `make TARGET`."""
    cpu, wall = children_cpu(), time.monotonic()
    done = subprocess.run(["make", target], cwd=ROOT, capture_output=True, text=True)
    cpu, wall = children_cpu() - cpu, time.monotonic() - wall
    if done.returncode != 0:
        sys.stdout.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"make {target} failed (exit {done.returncode}): nothing written")
    found = SUMMARY.findall(done.stdout)
    if not found:
        raise SystemExit(f"make {target}: no pytest summary line in its output")
    passed, skipped = found[-1]
    return int(passed), int(skipped or 0), cpu, wall


def span(values: list[float], unit: str) -> str:
    low, high = min(values), max(values)

    def shown(seconds: float) -> str:
        if unit == "s" or seconds < 120:
            return f"{seconds:.0f} s"
        return f"{int(seconds // 60)} min {seconds % 60:.0f} s"

    return shown(low) if round(low) == round(high) else f"{shown(low)} to {shown(high)}"


def table(rows: dict[str, list[tuple[int, int, float, float]]]) -> str:
    lines = ["| | tests passed (skipped) | CPU (user + sys) | wall time, nothing else running |", "| --- | --- | --- | --- |"]
    for target, runs in rows.items():
        passed, skipped = runs[-1][0], runs[-1][1]
        count = f"{len(runs)} run{'s' if len(runs) != 1 else ''}"
        lines.append(f"| `make {target}` | {passed:,} ({skipped}) | {span([r[2] for r in runs], 's')} | "
                     f"{span([r[3] for r in runs], 'min')} in {count} (lint and mypy included) |")
    return "\n".join(lines)


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--runs", type=int, default=1, help="runs of each target (default 1)")
    options.add_argument("--only", choices=["test", "test-fast"], help="measure one target only")
    options.add_argument("--write", action="store_true", help="write the table into README.md")
    args = options.parse_args()
    targets = [args.only] if args.only else ["test-fast", "test"]
    rows = {target: [measure(target) for _ in range(args.runs)] for target in targets}
    text = table(rows)
    print(text)
    if args.write:
        readme = README.read_text()
        if START not in readme or END not in readme:
            raise SystemExit(f"README.md has no {START} ... {END} lines to write between")
        before, rest = readme.split(START, 1)
        old, after = rest.split(END, 1)
        kept = [line for line in old.strip().splitlines()[2:] if not any(f"`make {t}`" in line for t in targets)]
        rows_text = text.splitlines()
        text = "\n".join(rows_text[:2] + sorted(kept + rows_text[2:], key=lambda line: "make test`" in line))
        README.write_text(f"{before}{START}\n{text}\n{END}{after}")
        print("README.md: table written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
