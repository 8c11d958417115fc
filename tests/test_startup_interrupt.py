"""Ctrl-C in a command's first moments (seeded, from 0 to 0.3 s after it starts): from the moment
Spellpress's code runs, it ends with exit 130 and "interrupted", never a traceback through Spellpress.

Issue 31 item 5. Before entry.py runs, Python is still starting and no package can act (entry.py's
docstring): what Python does then is told apart here and allowed, and counted in the test's output.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sysconfig
import time
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT

pytestmark = pytest.mark.slow

_MOMENTS = random.Random(5)
MOMENTS = sorted(_MOMENTS.uniform(0.0, 0.3) for _ in range(24))
SCRIPT = Path(ROOT / ".venv" / "bin" / "spellpress")
STDLIB = sysconfig.get_paths()["stdlib"]


def pythons_own(err: str, code: int) -> str | None:
    """What Python printed or did before any code of Spellpress ran, or None if it was not that."""
    if code == -signal.SIGINT and not err.strip():
        return "ended by the signal before Python set its handler"
    if "Fatal Python error: init_" in err:  # init_import_site, init_sys_streams: Python's own start failed
        return "Python's start (its standard streams, site and the .pth files)"
    if "Failed checking if argv[0] is an import path entry" in err:
        return "Python looking at the script's path"
    frames = re.findall(r'File "([^"]+)", line \d+, in (\S+)', err)
    if code == 0 and "Exception ignored in" in err and "KeyboardInterrupt" in err and frames and all(
            path.startswith("<frozen") for path, _ in frames):
        return "ignored by Python's import machinery before Spellpress's first line"
    if code == 1 and err.strip() == "KeyboardInterrupt":  # seen at 20-40 ms: no frame had started, so none is shown
        return "Python interrupted before the script's first line"
    if "Traceback" in err and code in (1, -signal.SIGINT) and frames and all(
            path.startswith(("<frozen", STDLIB)) or path == str(SCRIPT) or (where == "<module>" and "/generator/" in path)
            or Path(path).name.startswith("__editable__")  # setuptools' finder of an editable install (make's .venv)
            for path, where in frames):  # the standard library: entry.py importing signal, before its handler is set
        return "Python importing the script's first module"
    return None


@pytest.mark.skipif(not SCRIPT.exists(), reason="the installed command (make .venv/.installed)")
def test_ctrl_c_in_the_first_moments_ends_quietly_once_spellpress_runs(tmp_path):
    command = [str(SCRIPT), "check", str(FIXTURES / "duplex-game")]
    whole_output = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    outcomes: dict[str, int] = {}
    for moment in MOMENTS:
        run = subprocess.Popen(command, cwd=tmp_path, start_new_session=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        started = time.monotonic()
        while time.monotonic() - started < moment:
            pass
        if run.poll() is not None:
            run.communicate()
            outcomes["ended before the moment"] = outcomes.get("ended before the moment", 0) + 1
            continue
        os.killpg(run.pid, signal.SIGINT)
        out, err = run.communicate(timeout=30)
        if run.returncode == 0 and out == whole_output and not err:  # its work done, in its last microseconds
            outcomes["finished as the Ctrl-C came"] = outcomes.get("finished as the Ctrl-C came", 0) + 1
            continue
        python = pythons_own(err, run.returncode)
        if python is None:
            assert run.returncode == 130 and err.strip().splitlines()[-1] == "interrupted", \
                f"Ctrl-C at {moment * 1000:.1f} ms: exit {run.returncode}\n{err[-3000:]}"
            assert "Traceback" not in err and "bug" not in err, err[-3000:]
        key = python or "exit 130, interrupted"
        outcomes[key] = outcomes.get(key, 0) + 1
    print("\n" + "\n".join(f"{count:3} {what}" for what, count in outcomes.items()))
    assert outcomes.get("exit 130, interrupted", 0) >= len(MOMENTS) // 3  # most moments fall after Python's start
