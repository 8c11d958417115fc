"""Each CMYK shop separates for the printing condition it states: the shipped SWOP profile describes the CGATS TR 005
measurements it carries, keeps to DriveThruCards' ink limit, is named by the PDF/X OutputIntent, and `spellpress shops`
says which source gives each figure."""

from __future__ import annotations

import contextlib
import io
import re

import numpy as np
import pikepdf
import pytest
from PIL import Image, ImageCms

from spellpress.cli import main
from spellpress.render.paint import CmykPaint
from spellpress.shop.build import build_for_shop
from spellpress.shop.pdfx import condition_identifier
from spellpress.shop.presets import PROFILES, shops
from tests.conftest import ROOT

SWOP = PROFILES / "SWOP2006_Coated5-TAC240.icc"


def measurements(profile) -> tuple[np.ndarray, np.ndarray]:
    """(CMYK in %, CIELAB) of every patch of the characterization data a profile carries in its targ tag."""
    text = ImageCms.getOpenProfile(str(profile)).profile.target
    fields = re.search(r"BEGIN_DATA_FORMAT\s+(.*?)\s+END_DATA_FORMAT", text, re.S).group(1).split()
    rows = re.search(r"BEGIN_DATA\s+(.*?)\s+END_DATA", text, re.S).group(1).splitlines()
    table = np.array([[float(v) for v in row.split()] for row in rows if row.strip()])
    column = {name: i for i, name in enumerate(fields)}
    cmyk = table[:, [column[f"CMYK_{c}"] for c in "CMYK"]]
    lab = table[:, [column[f"LAB_{c}"] for c in "LAB"]]
    return cmyk, lab


def test_the_swop_profile_describes_the_tr005_measurements_it_carries():
    text = ImageCms.getOpenProfile(str(SWOP)).profile.target
    assert "SWOP proofing on Grade 5 coated paper" in text and "Copyright 2007 by NPES" in text  # its source, identified
    cmyk, measured = measurements(SWOP)
    assert len(cmyk) == 1617
    patches = Image.fromarray(np.round(cmyk * 2.55).astype(np.uint8).reshape(1, -1, 4), "CMYK")
    to_lab = ImageCms.buildTransform(ImageCms.getOpenProfile(str(SWOP)), ImageCms.createProfile("LAB", 5000), "CMYK",
                                     "LAB", renderingIntent=ImageCms.Intent.ABSOLUTE_COLORIMETRIC)
    light, a, b = (np.asarray(c, dtype=float)[0] for c in ImageCms.applyTransform(patches, to_lab).split())
    predicted = np.stack([light * 100 / 255, a - 128, b - 128], axis=-1)
    errors = np.linalg.norm(predicted - measured, axis=-1)
    # 8-bit CMYK and Lab round the patches by up to 0.4 and 0.5 units; colprof's own check gives 0.16 mean, 0.72 peak
    assert errors.mean() < 1.0 and errors.max() < 3.0, (errors.mean(), errors.max())


def test_drivethrucards_separations_keep_to_its_ink_limit():
    preset = shops()["drivethrucards"]
    assert preset.profile_path() == SWOP
    paint = CmykPaint(SWOP)
    rng = np.random.default_rng(24)
    colours = [tuple(v) for v in rng.random((400, 3))] + [(0.02, 0.02, 0.2), (0.1, 0.0, 0.05), (0.2, 0.05, 0.0)]
    inks = [sum(paint.cmyk((r, g, b, 1.0))) * 100 for r, g, b in colours]
    assert max(inks) <= preset.spec.ink_limit + 0.5
    assert max(inks) > preset.spec.ink_limit - 10  # the dark colours do reach the limit: it is the profile's doing


@pytest.mark.parametrize("description, identifier", [
    ("CGATS TR 005 (SWOP 2006 Coated #5), total ink 240%, made by Spellpress from the TR 005 data", "CGATS TR 005"),
    ("FOGRA39L coated (from Fogra characterization data, icc-profiles-free)", "FOGRA39"),
    ("U.S. Web Coated (SWOP) v2", "CGATS TR 001"),
    ("Coated GRACoL 2006 (ISO 12647-2:2004)", "CGATS TR 006"),
    ("SWOP2006_Coated3v2 (based on CGATS TR003)", "CGATS TR 003"),
    ("My office laser", "My office laser"),
])
def test_the_output_condition_identifier_is_the_registry_name(description, identifier):
    assert condition_identifier(description) == identifier


@pytest.mark.slow
def test_drivethrucards_pdfs_name_swop_2006_coated_5_as_their_output_intent(tmp_path):
    result = build_for_shop(ROOT / "cards" / "spelled", "drivethrucards", tmp_path)
    for path in result.files:
        with pikepdf.open(path) as pdf:
            (intent,) = pdf.Root.OutputIntents
            assert str(intent.OutputConditionIdentifier) == "CGATS TR 005"
            assert str(intent.RegistryName) == "http://www.color.org"
            assert "SWOP 2006 Coated #5" in str(intent.OutputCondition)
            assert intent.DestOutputProfile.read_bytes() == SWOP.read_bytes()


def shops_output(*args) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["shops", *args]) == 0
    return out.getvalue()


def test_shops_says_which_source_gives_each_figure_of_drivethrucards():
    text = shops_output().split("\n\n")[0]
    assert "colour: CMYK for CGATS TR 005 (SWOP 2006 Coated #5)" in text and "SWOP2006_Coated5-TAC240.icc" in text
    where = re.search(r"where each figure comes from: (.*)", text).group(1)
    sources = dict(re.findall(r"\[(\d+)\] (.*)", text))
    cited = {name.strip(): numbers.split(", ") for names, numbers in re.findall(r"([^;\[]+) \[([\d, ]+)\]", where)
             for name in names.split(",")}
    assert "no source given" not in where  # every figure of the preset has a source
    assert any("240% total ink" in sources[n] for n in cited["ink limit"])
    assert any("CGATS TR 005" in sources[n] and "TR 001" in sources[n] for n in cited["colour profile"])
    assert any("US Web Coated (SWOP) v2" in sources[n] and "onebookshelf" in sources[n] for n in cited["colour"])


def test_shops_lists_the_figures_a_game_preset_gives_no_source_for(tmp_path):
    game = tmp_path / "game"
    (game / "shops").mkdir(parents=True)
    (game / "game.yaml").write_text("id: game\nname: Game\ncomponents: []\n")
    (game / "shops" / "local.yaml").write_text(
        "title: Local\nbleed: 3mm\nsafe: 3mm\ncolor: cmyk\nprofile: FOGRA39L.icc\nink_limit: 300\nformat: pdf-x1a\n"
        "files: per-deck\nsources: [{confirms: 'bleed 3 mm', figures: [bleed]}]\n")
    text = next(block for block in shops_output(str(game)).split("\n\n") if block.startswith("local:"))
    assert "colour: CMYK for FOGRA39L coated" in text
    assert re.search(r"where each figure comes from: bleed \[1\]; kinds, safe zone, .*ink limit.*: no source given", text)
