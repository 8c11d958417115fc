"""Every shipped game builds for every shop preset (`spellpress build GAME --shop P` exits 0), and what
each writes keeps the preset's contract, checked by tools other than our writer (Ghostscript run strictly, qpdf,
pikepdf)."""

from __future__ import annotations

import contextlib
import csv
import io
from collections import Counter

import pikepdf
import pytest

from spellpress.cli import main
from spellpress.load.game import load_game
from spellpress.shop.build import accepts
from spellpress.shop.presets import shops
from tests.build.test_all_games import SHIPPED
from tests.conftest import ROOT
from tests.shop.test_preflight import preflight, qpdf_check, strict_ghostscript

GAMES = sorted(path.name for path in (ROOT / "cards").iterdir() if (path / "game.yaml").is_file())
PRESETS = shops()


def test_the_builds_below_cover_the_eight_shipped_games():
    assert GAMES == sorted(SHIPPED)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Each preset's build of every shipped game, made once: (exit code, stdout, stderr, output folder)."""
    made = {}

    def _built(preset):
        if preset not in made:
            out = tmp_path_factory.mktemp(preset)
            stdout, stderr = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
                code = main(["build", *GAMES, "--shop", preset, "--out", str(out)])
            made[preset] = (code, stdout.getvalue(), stderr.getvalue(), out)
        return made[preset]

    return _built


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.slow
def test_every_shipped_game_builds_for_the_preset(preset, built):
    code, stdout, stderr, out = built(preset)
    assert code == 0, stderr
    spec = PRESETS[preset].spec
    for name in GAMES:
        game = load_game(ROOT / "cards" / name)
        rest = [c for c in game.components if not accepts(PRESETS[preset], c)]
        folder = out / name / preset
        assert any(folder.rglob("*")), f"{name} wrote nothing for {preset}"
        home = list((folder / "home").glob("*.pdf"))
        if rest:  # what the shop does not print is written for home printing, and the summary says so
            assert len(home) == 1 and pikepdf.open(home[0]).pages
            assert f"{', '.join(c.name for c in rest)}: not a {spec.title} product; written to home/{home[0].name}" in stdout
        else:
            assert not home


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_pdf_a_shop_build_writes_passes_strict_ghostscript_and_qpdf(preset, built):
    """The shop's own files and the home-print PDFs beside them, of every shipped game."""
    code, _, _, out = built(preset)
    pdfs = sorted(out.rglob("*.pdf"))
    assert pdfs
    for path in pdfs:
        ghostscript, qpdf = strict_ghostscript(path), qpdf_check(path)
        assert not ghostscript, f"{path.relative_to(out)}: Ghostscript says {ghostscript}"
        assert not qpdf, f"{path.relative_to(out)}: qpdf says {qpdf}"


@pytest.mark.parametrize("preset", sorted(p for p in PRESETS if PRESETS[p].spec.format == "pdf-x1a"))
@pytest.mark.slow
def test_shop_pdfs_pass_the_preflight(preset, built):
    code, _, _, out = built(preset)
    spec = PRESETS[preset].spec
    pdfs = [p for p in out.rglob("*.pdf") if p.parent.name != "home"]
    assert pdfs
    for path in pdfs:
        preflight(path, spec.ink_limit)
        sizes = {tuple(round(float(v), 2) for v in page.mediabox) for page in pikepdf.open(path).pages}
        assert len(sizes) == 1, f"{path.name} mixes page sizes: {sizes}"


@pytest.mark.slow
def test_offset_fronts_and_backs_pair_page_for_page(built):
    code, _, _, out = built("offset")
    for name in GAMES:
        folder = out / name / "offset"
        fronts = sorted(folder.glob("fronts*.pdf"))
        assert fronts
        for front in fronts:
            back = folder / front.name.replace("fronts", "backs", 1)
            front_pdf, back_pdf = pikepdf.open(front), pikepdf.open(back)
            assert len(front_pdf.pages) == len(back_pdf.pages), f"{name}: {front.name}"
            assert front_pdf.pages[0].mediabox == back_pdf.pages[0].mediabox


@pytest.mark.parametrize("preset", sorted(p for p in PRESETS if PRESETS[p].spec.format == "png"))
@pytest.mark.slow
def test_png_presets_write_a_quantities_file_for_every_card(preset, built):
    code, _, _, out = built(preset)
    for name in GAMES:
        folder = out / name / preset
        game = load_game(ROOT / "cards" / name)
        printed = [c for c in game.components if accepts(PRESETS[preset], c)]
        rows = list(csv.DictReader((folder / "quantities.csv").open(encoding="utf-8")))
        assert sum(int(row["count"]) for row in rows) == sum(c.copies for c in printed)
        assert Counter(row["file"].split("/")[0] for row in rows) == Counter({c.id: len(c.cards) for c in printed})
        for row in rows:
            assert (folder / row["file"]).is_file() and (not row["back"] or (folder / row["back"]).is_file())
        for deck in printed:  # file names sort in deck order, as uploaders sort them
            files = [row["file"] for row in rows if row["file"].startswith(f"{deck.id}/")]
            assert files == sorted(files) and [row["name"] for row in rows if row["file"] in files] == [c.id for c in deck.cards]
