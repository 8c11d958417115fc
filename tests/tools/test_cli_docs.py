"""docs/cli.md is written from the parser (tools/cli_docs.py), so it names every command and option."""

from pathlib import Path

from spellpress.cli import COMMANDS
from spellpress.tools.cli_docs import markdown

ROOT = Path(__file__).resolve().parents[2]


def test_cli_docs_are_generated_from_the_parser():
    assert (ROOT / "docs" / "cli.md").read_text() == markdown(), "run: python -m spellpress.tools.cli_docs > docs/cli.md"


def test_cli_docs_have_a_section_for_every_command():
    text = markdown()
    missing = [name for name in COMMANDS if f"spellpress {name}" not in text]
    assert not missing
