"""Export and rebuild benchmark: whole `spellpress build` commands, ratios against the PDF-only build.

    python bench/exports.py          (also run by bench/render.py)

In one run, on a copy of cards/ in a temporary folder:
  1. every game, PDF only (the baseline), fresh output folder;
  2. every game with --png --tts --print-shop, fresh output folder (cold cache);
  3. one card of A Word to the Wise edited, the same command again (warm cache);
  4. A Word to the Wise alone: cold with every export, then rebuilt after a one-card edit;
  5. `spellpress build word-to-the-wise`, whole command, best of three.
Peak memory is the largest sum of the proportional set size (PSS: shared pages split
between the processes that share them, so forked workers are not counted twice) of the
command and its worker processes, sampled every 10 ms from /proc; the largest single
process's resident memory is shown beside it. Sampling costs CPU (on two cores it slowed
the build it watched by a fifth), so memory is measured in runs of their own and the
timed runs are not sampled.
Targets: (2) <= 4x (1) and <= 300 MB; (3) <= 10% of (2); (5) < 0.6 s.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXPORTS = ["--png", "--tts", "--print-shop"]
EDIT = ("{letter: L, points: 2, count: 9}", "{letter: L, points: 6, count: 9}")


def _tree_memory_kib(pid: int) -> tuple[int, int]:
    """(sum of PSS, largest RSS) of a process and all its descendants, in KiB (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    total, largest, stack = 0, 0, [pid]
    while stack:
        current = stack.pop()
        stack.extend(children.get(current, []))
        try:
            with open(f"/proc/{current}/smaps_rollup") as handle:
                values = {line.split(":")[0]: int(line.split()[1]) for line in handle if line.split(":")[0] in ("Rss", "Pss")}
        except (OSError, ValueError, IndexError):
            continue
        total += values.get("Pss", 0)
        largest = max(largest, values.get("Rss", 0))
    return total, largest


ENVIRONMENT = dict(os.environ)  # the commands' environment: SPELLPRESS_HOME points at the copy


def run(args: list[str], cwd: Path, sample: bool = False) -> tuple[float, float, float, float]:
    """(seconds, peak MB of the process tree, peak MB of its largest process, CPU seconds) of one command;
    the peaks are 0 unless `sample`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "spellpress", *args], cwd=cwd, env=ENVIRONMENT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = [0, 0]

    def sampling():
        while process.poll() is None:
            total, largest = _tree_memory_kib(process.pid)
            peak[0], peak[1] = max(peak[0], total), max(peak[1], largest)
            time.sleep(0.01)

    sampler = threading.Thread(target=sampling)
    if sample:
        sampler.start()
    _, errors = process.communicate()
    seconds = time.perf_counter() - started
    if sample:
        sampler.join()
    if process.returncode != 0:
        raise SystemExit(f"spellpress {' '.join(args)} failed:\n{errors.decode()}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, peak[0] / 1024, peak[1] / 1024, cpu


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="spellpress-exports-"))
    try:
        (work / "cards").mkdir()
        for folder in sorted((ROOT / "cards").iterdir()):
            if (folder / "game.yaml").is_file():
                shutil.copytree(folder, work / "cards" / folder.name)
        shutil.copytree(ROOT / "fonts", work / "fonts")
        shutil.copytree(ROOT / "templates", work / "templates")
        ENVIRONMENT["SPELLPRESS_HOME"] = str(work)
        wise = work / "cards" / "word-to-the-wise"
        consonants = wise / "consonants.yaml"
        original = consonants.read_text()
        assert EDIT[0] in original

        def report(label: str, measured: tuple[float, float, float, float], base: float | None = None) -> float:
            seconds, tree, largest, cpu = measured
            ratio = f"{seconds / base:6.2f}x" if base else "       "
            memory = f"  peak {tree:4.0f} MB (largest process {largest:4.0f} MB)" if tree else ""
            print(f"  {label:46} {seconds:7.2f} s {ratio}  CPU {cpu:6.2f} s{memory}")
            return seconds

        print("Every game (whole commands, start-up included):")
        baseline = run(["build", "--out", str(work / "pdf")], work)
        pdf_only, pdf_only_cpu = report("PDF only (baseline)", baseline), baseline[3]
        cold = run(["build", *EXPORTS, "--out", str(work / "all")], work)
        report("--png --tts --print-shop, cold cache", cold, pdf_only)
        consonants.write_text(original.replace(*EDIT))
        warm = run(["build", *EXPORTS, "--out", str(work / "all")], work)
        report("the same after one card's edit, warm cache", warm, pdf_only)
        consonants.write_text(original)
        no_cache = run(["build", *EXPORTS, "--no-cache", "--out", str(work / "nocache")], work)
        report("--png --tts --print-shop --no-cache", no_cache, pdf_only)

        print("A Word to the Wise:")
        wise_pdf = report("PDF only", run(["build", str(wise), "--out", str(work / "w-pdf")], work))
        wise_cold = run(["build", str(wise), *EXPORTS, "--out", str(work / "w-all")], work)
        report("every export, cold cache", wise_cold, wise_pdf)
        consonants.write_text(original.replace(*EDIT))
        wise_warm = run(["build", str(wise), *EXPORTS, "--out", str(work / "w-all")], work)
        report("after one card's edit, warm cache", wise_warm, wise_pdf)
        consonants.write_text(original)
        whole, whole_cpu = min(run(["build", "word-to-the-wise", "--out", str(work / f"cli{n}")], work)[::3] for n in range(3))
        again, again_cpu = min(run(["build", "word-to-the-wise", "--out", str(work / "cli0")], work)[::3] for _ in range(3))

        print("Peak memory (runs of their own, sampled every 10 ms; times slowed by the sampling):")
        report("every game, PDF only", run(["build", "--out", str(work / "m-pdf")], work, sample=True))
        memory = run(["build", *EXPORTS, "--out", str(work / "m-all")], work, sample=True)
        report("every game, every export, cold cache", memory)

        print("Targets:")
        checks = [
            (f"every export / PDF only = {cold[0] / pdf_only:.2f}x", "<= 4x", cold[0] / pdf_only <= 4),
            (f"peak memory with every export = {memory[1]:.0f} MB", "<= 300 MB", memory[1] <= 300),
            (f"rebuild after a one-card edit / cold = {100 * warm[0] / cold[0]:.1f}% (every game)", "<= 10%",
             warm[0] <= 0.1 * cold[0]),
            (f"  the same for A Word to the Wise alone = {100 * wise_warm[0] / wise_cold[0]:.1f}%", "<= 10%",
             wise_warm[0] <= 0.1 * wise_cold[0]),
            (f"spellpress build word-to-the-wise = {whole:.2f} s, CPU {whole_cpu:.2f} s (best of 3, fresh output)", "< 0.6 s",
             whole < 0.6),
            (f"  the same again, up to date = {again:.2f} s, CPU {again_cpu:.2f} s (best of 3)", "< 0.6 s", again < 0.6),
        ]
        print(f"  (CPU time, which the machine's other load does not stretch: every export / PDF only = "
              f"{cold[3] / pdf_only_cpu:.2f}x; rebuild / cold = {100 * warm[3] / cold[3]:.1f}%)")
        for text, target, met in checks:
            print(f"  {text:78} target {target:10} {'met' if met else 'NOT met'}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
