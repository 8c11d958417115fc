"""An independent preflight of print-shop output, read back with pikepdf (not our writer's code).

Walks every content stream and XObject of every page: colour operators, image colour
spaces, transparency, boxes, output intent, fonts, page order and size, and the
total ink of every colour and image sample the pages paint.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from PIL import Image

from spellpress.build import BuildOptions, build
from spellpress.shop.build import build_for_shop
from tests.conftest import ROOT

SPELLED = ROOT / "cards" / "spelled"
RGB_OPERATORS = {"rg", "RG", "sc", "SC", "scn", "SCN", "cs", "CS"}  # cs/sc: colour spaces we never write


def walk(pdf: pikepdf.Pdf):
    """(operator, operands) of every page and form, and each image XObject, once."""
    ops, images, seen = [], [], set()

    def visit(owner, resources):
        for operands, operator in pikepdf.parse_content_stream(owner):
            colour = str(operator) in ("k", "K", "rg", "RG", "g", "G")
            ops.append((str(operator), [float(v) for v in operands] if colour else []))
        if resources is None:
            return
        for xobject in (resources.get("/XObject") or {}).values():
            if xobject.objgen in seen:
                continue
            seen.add(xobject.objgen)
            if xobject.get("/Subtype") == "/Form":
                visit(xobject, xobject.get("/Resources"))
            else:
                images.append(xobject)

    for page in pdf.pages:
        visit(page, page.obj.get("/Resources"))
    return ops, images


def preflight(path: Path, ink_limit: float) -> dict:
    pdf = pikepdf.open(path)
    assert pdf.pdf_version <= "1.4"
    assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1a:2003"
    assert pdf.docinfo["/Trapped"] == pikepdf.Name("/False")
    assert "/ID" in pdf.trailer
    (intent,) = pdf.Root.OutputIntents
    assert intent.S == "/GTS_PDFX" and int(intent.DestOutputProfile.N) == 4
    ops, images = walk(pdf)
    used = {name for name, _ in ops}
    assert not used & RGB_OPERATORS, f"RGB or other colour-space operators: {used & RGB_OPERATORS}"
    assert "gs" not in used, "a graphics state (transparency) is set"
    inks = [sum(values) * 100 for name, values in ops if name in ("k", "K")]
    for image in images:
        assert image.get("/ColorSpace") in ("/DeviceCMYK", "/DeviceGray"), image.get("/ColorSpace")
        assert "/SMask" not in image and "/Mask" not in image
        if image.ColorSpace == "/DeviceCMYK":
            samples = np.asarray(pikepdf.PdfImage(image).as_pil_image(), dtype=np.uint16)
            inks.append(float(samples.sum(axis=-1).max()) / 255 * 100)
    assert max(inks, default=0) <= ink_limit + 0.5, f"{max(inks):.1f}% total ink"  # (a page of blank backs has none)
    for page in pdf.pages:
        assert "/TrimBox" in page.obj and "/BleedBox" in page.obj
        assert "/Group" not in page.obj  # no transparency group
    fonts_embedded(pdf)
    return {"pages": len(pdf.pages), "max_ink": max(inks, default=0),
            "size_in": [float(v) / 72 for v in pdf.pages[0].mediabox[2:]]}


GHOSTSCRIPT_STRICT = ["gs", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-dPDFSTOPONERROR", "-dPDFSTOPONWARNING",
                      "-dUsePDFX3Profile", "-sDEVICE=nullpage"]  # UsePDFX3Profile: the OutputIntent's profile is read too
GHOSTSCRIPT_CHATTER = re.compile(r"GPL Ghostscript [\d.]+ \(\d{4}-\d\d-\d\d\)|Copyright \(C\) \d{4} Artifex Software, Inc\.  "
                                 r"All rights reserved\.|This software is supplied under the GNU AGPLv3 and comes with NO "
                                 r"WARRANTY:|see the file COPYING for details\.|Processing pages \d+ through \d+\.|Page \d+")


def strict_ghostscript(path: Path) -> list[str]:
    """What Ghostscript, stopping at any error or warning, says about the file beyond its banner and page numbers:
    nothing for a clean file. (It exits 0 even after repairing a damaged file, and says so only on stderr.)"""
    run = subprocess.run([*GHOSTSCRIPT_STRICT, str(path)], capture_output=True, text=True)
    said = [line.strip() for line in (run.stdout + run.stderr).splitlines()
            if line.strip() and not GHOSTSCRIPT_CHATTER.fullmatch(line.strip())]
    return said + ([f"exit code {run.returncode}"] if run.returncode else [])


def qpdf_check(path: Path) -> list[str]:
    """What `qpdf --check` finds wrong (it exits 2 on errors, 3 on warnings): nothing for a clean file."""
    run = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
    if run.returncode == 0 and "No syntax or stream encoding errors found" in run.stdout:
        return []
    return [line for line in (run.stdout + run.stderr).splitlines() if line.strip()] + [f"exit code {run.returncode}"]


def fonts_embedded(pdf: pikepdf.Pdf) -> None:
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font" and obj.get("/Subtype") != "/Type0":
            descriptor = obj.get("/FontDescriptor")
            assert descriptor is not None, f"font {obj.get('/BaseFont')} has no descriptor (a base-14 font, unembedded)"
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), obj.get("/BaseFont")


@pytest.fixture(scope="module")
def drivethru(tmp_path_factory):
    out = tmp_path_factory.mktemp("shop")
    return build_for_shop(SPELLED, "drivethrucards", out)


@pytest.mark.slow
def test_spelled_for_drivethrucards_passes_the_preflight(drivethru):
    assert {p.name for p in drivethru.files} >= {"starter.pdf", "market.pdf"}
    for path in drivethru.files:
        report = preflight(path, 240)
        assert report["size_in"] == pytest.approx([2.75, 3.75], abs=1e-3)


def test_drivethrucards_pages_are_back_then_front_for_every_copy(drivethru):
    path = next(p for p in drivethru.files if p.name == "starter.pdf")
    pdf = pikepdf.open(path)
    game = drivethru.game
    starter = next(c for c in game.components if c.id == "starter")
    assert len(pdf.pages) == 2 * sum(card.count for card in starter.cards)
    # every odd page is the deck's one shared back: the same form drawn on each
    backs = {tuple(pdf.pages[i].obj.Resources.XObject.keys()) for i in range(0, len(pdf.pages), 2)}
    fronts = {tuple(pdf.pages[i].obj.Resources.XObject.keys()) for i in range(1, len(pdf.pages), 2)}
    assert len(backs) == 1 and not backs & fronts
    page = pdf.pages[0]
    trim = [float(v) for v in page.obj.TrimBox]
    assert trim == pytest.approx([9, 9, 189, 261])  # 1/8 in bleed, 2.5 x 3.5 in trim


def test_pure_black_is_k_only():
    from spellpress.render.paint import CmykPaint
    from spellpress.shop.presets import DEFAULT_CMYK_PROFILE

    paint = CmykPaint(DEFAULT_CMYK_PROFILE)
    assert paint.cmyk((0, 0, 0, 1)) == (0, 0, 0, 1)
    cyan, magenta, yellow, black = paint.cmyk((1, 0, 0, 1))
    assert magenta > 0.8 and yellow > 0.8 and cyan < 0.1  # a real transform, not a naive 1 - rgb


def test_an_ink_hungry_colour_is_an_error_naming_the_card_or_a_warning(tmp_path):
    from spellpress.errors import UserError

    game = tmp_path / "game"
    shutil.copytree(ROOT / "tests" / "fixtures" / "toy-game", game)
    (game / "shops").mkdir()
    (game / "shops" / "tight.yaml").write_text(
        "title: Tight\nbleed: 3mm\nsafe: 3mm\ncolor: cmyk\nprofile: FOGRA39L.icc\nink_limit: 120\n"
        "format: pdf-x1a\nfiles: per-deck\nsources: [{url: test, confirms: a limit low enough to trip}]\n")
    with pytest.raises(UserError) as error:
        build_for_shop(game, "tight", tmp_path / "out")
    assert "total ink, over the shop's 120%" in str(error.value) and "card '" in str(error.value)
    assert not (tmp_path / "out" / "toy" / "tight").exists()
    result = build_for_shop(game, "tight", tmp_path / "out", ink_limit=False)
    assert result.warnings and result.files


@pytest.mark.slow
def test_gamecrafter_writes_825_by_1125_pngs_for_poker_cards(tmp_path):
    result = build_for_shop(SPELLED, "gamecrafter", tmp_path, workers=1)
    pngs = [p for p in result.files if p.suffix == ".png"]
    assert pngs and all(p.is_relative_to(tmp_path / "spelled" / "gamecrafter") for p in pngs)
    for path in pngs[:5] + pngs[-3:]:
        with Image.open(path) as image:
            assert image.size == (825, 1125)


@pytest.mark.slow
def test_cmyk_sheets_pass_the_preflight(tmp_path):
    result = build(SPELLED, BuildOptions(out=tmp_path, color="cmyk", cache=False))
    pdf = next(p for p in result.files if p.name.endswith("-cmyk.pdf"))
    preflight(pdf, 300)


def test_the_strict_checks_find_a_broken_pdf_and_pass_a_clean_one(tmp_path):
    """The checks every shop PDF must pass are not silent by construction: each breakage the issue met, or a reader
    repairs quietly, is reported; the same file unbroken is not."""
    def saved(name: str, content: bytes = b"0 0 0 1 k 0 0 10 10 re f\n", profile: bytes | None = None) -> Path:
        pdf = pikepdf.new()
        pdf.add_blank_page(page_size=(72, 72))
        pdf.pages[0].obj.Contents = pdf.make_stream(content)
        if profile is not None:
            stream = pikepdf.Stream(pdf, profile)
            stream.N = 4
            pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(pikepdf.Dictionary(
                Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX, OutputConditionIdentifier=pikepdf.String("x"),
                DestOutputProfile=stream))])
        path = tmp_path / f"{name}.pdf"
        pdf.save(path, deterministic_id=True)
        return path

    from spellpress.shop.presets import DEFAULT_CMYK_PROFILE

    clean = saved("clean", profile=DEFAULT_CMYK_PROFILE.read_bytes())
    assert strict_ghostscript(clean) == [] and qpdf_check(clean) == []
    unknown_state = saved("unknown-state", b"q /gRLs0 gs 0 0 10 10 re f Q\n")  # an ExtGState the page does not define
    bad_profile = saved("bad-profile", profile=b"not an ICC profile " * 20)
    damaged = tmp_path / "damaged.pdf"  # a wrong cross-reference offset, which readers repair without a word
    data = clean.read_bytes()
    damaged.write_bytes(data[: data.rindex(b"startxref")] + b"startxref\n12345\n%%EOF\n")
    for broken in (unknown_state, bad_profile, damaged):
        assert strict_ghostscript(broken), broken.name
    assert qpdf_check(damaged)
