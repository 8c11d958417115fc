"""What you see is what prints: alpha in colours and in raster art composites onto what lies under it,
in RGB sheets (a valid graphics state) and in PDF/X-1a (flattened, since it allows no transparency).
The CMYK page, read back through its own profile, is compared with the RGB page in CIELAB."""

from __future__ import annotations

import io
import shutil
import subprocess

import numpy as np
import pikepdf
import pytest
from PIL import Image, ImageCms

from spellpress.build import BuildOptions, build
from spellpress.shop.presets import DEFAULT_CMYK_PROFILE, shops
from spellpress.units import MM_PER_INCH
from tests.conftest import DUPLEX

DPI = 100
ART = {"image": (10, 10, 30, 30), "tint": (30, 45, 25, 25)}  # x, y (from the trim's top-left), w, h in mm


@pytest.fixture(scope="module")
def art_game(tmp_path_factory):
    """Poker cards in a steel-blue field (inside the FOGRA39 and SWOP gamuts, so that what differs is not the gamut) with a
    half-transparent orange PNG and a #ff333380 square on top."""
    game = tmp_path_factory.mktemp("art") / "art"
    shutil.copytree(DUPLEX, game)
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("[cards.yaml, tiles.yaml]", "[cards.yaml]")
                                    .replace("backs: duplex-long", "backs: none"))
    picture = np.zeros((120, 120, 4), np.uint8)
    picture[..., :3] = (255, 140, 0)
    picture[..., 3] = 128
    picture[:, :20, 3] = 0  # a fully transparent band too
    Image.fromarray(picture, "RGBA").save(game / "glass.png")
    x, y, w, h = ART["image"]
    tx, ty, tw, th = ART["tint"]
    template = game / "templates" / "marker-front.yaml"
    template.write_text(template.read_text().replace('"#ff0000"', '"#4a6890"') +
                        f"  glass: {{kind: image, src: glass.png, x: {x}mm, y: {y}mm, w: {w}mm, h: {h}mm, fit: stretch}}\n"
                        f"  tint: {{kind: shape, x: {tx}mm, y: {ty}mm, w: {tw}mm, h: {th}mm, fill: \"#ff333380\"}}\n")
    return game


def first_sheet(game, out, **options):
    result = build(game, BuildOptions(out=out, paper="a4", cache=False, **options))
    return next(p for p in result.files if p.suffix == ".pdf"), result


def lab_of_rgb_page(pdf) -> np.ndarray:
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(str(pdf))[0].render(scale=DPI / 72).to_pil().convert("RGB")
    return to_lab(page, ImageCms.createProfile("sRGB"), "RGB")


def lab_of_cmyk_page(pdf, tmp_path) -> np.ndarray:
    """Ghostscript's separations of page 1 (device CMYK, unconverted), read through the profile of the file's own
    PDF/X OutputIntent, with black-point compensation as they were separated (the ink's darkest black stands for the
    screen's black), as a soft proof shows them."""
    tif = tmp_path / "page.tif"
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", f"-r{DPI}", "-dFirstPage=1",
                    "-dLastPage=1", f"-sOutputFile={tif}", str(pdf)], check=True)
    with pikepdf.open(pdf) as document:
        (intent,) = document.Root.OutputIntents
        profile = ImageCms.ImageCmsProfile(io.BytesIO(intent.DestOutputProfile.read_bytes()))
    return to_lab(Image.open(tif).convert("CMYK"), profile, "CMYK", ImageCms.Flags.BLACKPOINTCOMPENSATION)


def to_lab(image, profile, mode, flags=ImageCms.Flags.NONE) -> np.ndarray:
    transform = ImageCms.buildTransform(profile, ImageCms.createProfile("LAB", 5000), mode, "LAB",
                                        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, flags=flags)
    # channel by channel: numpy's view of a whole LAB image mixes its bytes up; a and b are offset by 128
    light, a, b = (np.asarray(channel, dtype=float) for channel in ImageCms.applyTransform(image, transform).split())
    return np.stack([light * 100 / 255, a - 128, b - 128], axis=-1)


def art_pixels(manifest_slot, lab, box) -> np.ndarray:
    """The pixels of `box` (mm from the trim's top-left) on the first card, 1 mm in from its edges."""
    x0, y0, w, h = box
    left, top = manifest_slot["x_mm"] + x0 + 1, 297 - (manifest_slot["y_mm"] + 88) + y0 + 1
    px = lambda mm: round(mm / MM_PER_INCH * DPI)  # noqa: E731
    return lab[px(top) : px(top + h - 2), px(left) : px(left + w - 2)]


def test_alpha_in_rgb_sheets_is_a_valid_graphics_state(art_game, tmp_path):
    pdf, _ = first_sheet(art_game, tmp_path)
    check = subprocess.run(["pdftoppm", "-r", "20", "-f", "1", "-l", "1", "-png", str(pdf), str(tmp_path / "p")],
                           capture_output=True, text=True)
    assert "ExtGState" not in check.stderr, check.stderr
    with pikepdf.open(pdf) as document:
        for xobject in document.pages[0].obj.Resources.XObject.values():
            if b"gs" in xobject.read_bytes():
                assert "/ExtGState" in xobject.Resources


@pytest.mark.parametrize("profile", [DEFAULT_CMYK_PROFILE, shops()["drivethrucards"].profile_path()], ids=lambda p: p.stem)
def test_the_cmyk_page_looks_like_the_rgb_page_in_art_areas(art_game, tmp_path, profile):
    rgb_pdf, result = first_sheet(art_game, tmp_path / "rgb")
    cmyk_pdf, _ = first_sheet(art_game, tmp_path / "cmyk", color="cmyk", profile=profile)
    with pikepdf.open(cmyk_pdf) as document:
        assert document.Root.OutputIntents[0].DestOutputProfile.read_bytes() == profile.read_bytes()
    manifest = (tmp_path / "rgb" / "art" / "manifest.json").read_text()
    import json

    slot = json.loads(manifest)["components"][0]["cards"][0]["copies"][0]["placements"][0]
    rgb, cmyk = lab_of_rgb_page(rgb_pdf), lab_of_cmyk_page(cmyk_pdf, tmp_path)
    for name, box in ART.items():
        a, b = art_pixels(slot, rgb, box), art_pixels(slot, cmyk, box)
        delta_e = np.sqrt(((a - b) ** 2).sum(axis=-1)).mean()
        print(f"{profile.stem} {name}: mean delta-E {delta_e:.2f}")
        assert delta_e < 3, f"{name}: mean delta-E {delta_e:.1f}"
    with pikepdf.open(cmyk_pdf) as document:  # flattened: no soft mask, no graphics state
        for image in document.pages[0].obj.Resources.XObject.values():
            assert "/SMask" not in image


def test_near_black_image_pixels_print_with_black_ink_only(tmp_path):
    from spellpress.render.paint import CmykPaint

    picture = np.zeros((4, 4, 3), np.uint8)
    picture[0] = (6, 4, 5)
    picture[1] = (40, 40, 40)
    Image.fromarray(picture).save(tmp_path / "dark.png")
    pixels = np.asarray(CmykPaint(DEFAULT_CMYK_PROFILE).image(str(tmp_path / "dark.png")))
    assert (pixels[2:, :, :3] == 0).all() and (pixels[2:, :, 3] == 255).all()  # pure black: K 100 only
    assert (pixels[0, :, :3] == 0).all() and (pixels[0, :, 3] > 240).all()  # near black: K only
    assert pixels[1, :, :3].sum() > 0  # a dark grey is the profile's, as a vector colour would be
