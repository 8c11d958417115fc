"""manifest.json gives the real size of the pages: a fold-over sheet turned landscape is said to be landscape."""

from __future__ import annotations

import json

import pikepdf
import pytest

from spellpress.build import BuildOptions, build
from tests.conftest import ROOT

MM_PER_PT = 25.4 / 72


@pytest.mark.slow
@pytest.mark.parametrize("game, backs", [("lost-words", "fold"), ("word-to-the-wise", "fold"),
                                         ("word-to-the-wise", "duplex-long")])
def test_the_manifest_gives_each_pages_real_size(tmp_path, game, backs):
    result = build(ROOT / "cards" / game, BuildOptions(paper="a4", backs=backs, cache=False, out=tmp_path))
    manifest = json.loads((tmp_path / result.game_id / "manifest.json").read_text())
    with pikepdf.open(tmp_path / result.game_id / manifest["pdf"]) as pdf:
        sizes = [[round(float(v) * MM_PER_PT, 1) for v in (page.mediabox[2], page.mediabox[3])] for page in pdf.pages]
    assert [[round(v, 1) for v in size] for size in manifest["page_mm"]] == sizes
    assert [round(v, 1) for v in manifest["paper_mm"]] == sizes[0]
    if backs == "fold" and game == "lost-words":
        assert manifest["paper_mm"] == [297.0, 210.0]  # every fold-over sheet of its cards is landscape
