"""What the hostile-input suites ask of a refusal: exit 2, one `error:` line naming what is wrong, no traceback."""

from __future__ import annotations

import time

from spellpress.cli import main


def refused(argv: list[str], capsys, *words: str, seconds: float = 30) -> str:
    """Run the command; assert it was refused so, within `seconds`, with each of `words`; its stderr."""
    started = time.monotonic()
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith("error: ") and err.count("error: ") == 1, err
    assert "Traceback" not in err and "hit a bug" not in err
    for word in words:
        assert word in err, err
    assert time.monotonic() - started < seconds
    return err
