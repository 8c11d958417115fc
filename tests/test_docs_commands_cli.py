"""docs/cli.md's quick commands run as written, in order (test_docs_commands.py runs the other pages)."""

import pytest

from tests.test_docs_commands import OWN_MODULE, run_page_in_order


@pytest.mark.slow
@pytest.mark.parametrize("page", sorted(OWN_MODULE))
def test_the_quick_commands_of_cli_md_run_as_written_in_order(tmp_path, page):
    run_page_in_order(tmp_path, page)
