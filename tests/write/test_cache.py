"""The build cache: a rebuild after one card's edit redraws that card only, with the same bytes as no cache."""

from __future__ import annotations

import io
import random
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from spellpress.build import BuildOptions, build
from spellpress.write.cache import CACHE_FOLDER
from spellpress.write.png import compress_strip, png_from_strips

EDIT = ("{letter: L, points: 2, count: 9}", "{letter: L, points: 6, count: 9}")


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_strips_compressed_apart_make_one_valid_png():
    rng = random.Random(7)
    parts = []
    for index, height in enumerate((50, 300, 1)):
        image = Image.new("RGB", (310, height), (index * 60, 90, 200))
        draw = ImageDraw.Draw(image)
        for _ in range(80):
            draw.line([(rng.randrange(310), rng.randrange(height)) for _ in range(2)], fill=(rng.randrange(256), 0, 9))
        parts.append(image)
    png = png_from_strips([compress_strip(part) for part in parts], 300)
    decoded = Image.open(io.BytesIO(png))
    decoded.load()  # PIL checks every chunk's CRC; zlib checks the combined adler32 below
    whole = Image.new("RGB", (310, 351))
    for part, top in zip(parts, (0, 50, 350), strict=False):
        whole.paste(part, (0, top))
    assert decoded.size == (310, 351) and decoded.tobytes() == whole.tobytes()
    assert round(decoded.info["dpi"][0]) == 300
    start = png.index(b"IDAT") + 4
    zlib.decompress(png[start : png.index(b"IEND") - 8])


@pytest.mark.slow
def test_a_one_card_edit_redraws_that_card_only_and_matches_a_build_without_cache(game_copy, tmp_path):
    folder = game_copy()
    # a hosted URL: with file:/// paths the saved object would name each output folder
    exports = dict(png=True, tts=True, tts_url="https://example.org/game", print_shop=True, workers=2)
    cached = tmp_path / "cached"
    build(folder, BuildOptions(out=cached, **exports))
    cards = folder / "consonants.yaml"
    cards.write_text(cards.read_text().replace(*EDIT))

    rebuilt = build(folder, BuildOptions(out=cached, **exports))
    assert rebuilt.drawn.faces_drawn == 2  # the L card's front: at 300 dpi for its PNG, at the TTS sheet's resolution
    assert rebuilt.drawn.strips_compressed == 1  # one row of one TTS sheet

    fresh = tmp_path / "fresh"
    build(folder, BuildOptions(out=fresh, cache=False, **exports))
    assert not (fresh / CACHE_FOLDER).exists()
    ours, theirs = files_of(cached / folder.name), files_of(fresh / folder.name)
    assert sorted(ours) == sorted(theirs)
    assert [name for name in ours if ours[name] != theirs[name]] == []
    assert len(ours) > 50

    again = build(folder, BuildOptions(out=cached, **exports))
    assert again.up_to_date and again.drawn.faces_drawn == again.drawn.strips_compressed == 0
    assert again.files == rebuilt.files


def test_a_damaged_or_half_written_entry_is_drawn_again(tmp_path):
    from tests.conftest import FIXTURES

    game = FIXTURES / "toy-game"
    out = tmp_path / "out"
    build(game, BuildOptions(out=out, png=True, workers=1))
    expected = files_of(out / "toy-game")
    entries = sorted((out / CACHE_FOLDER / "toy-game" / "faces").iterdir())
    assert len(entries) == 4
    entries[0].write_bytes(entries[0].read_bytes()[:-100])  # as if the machine stopped mid-write
    (entries[0].parent / ".stray.part").write_bytes(b"partial")
    for stamp in (out / CACHE_FOLDER / "stamps").iterdir():
        stamp.unlink()  # the stopped build never recorded itself
    assert build(game, BuildOptions(out=out, png=True, workers=1)).drawn.faces_drawn == 1
    assert files_of(out / "toy-game") == expected
    assert sorted(p.name for p in entries[0].parent.iterdir()) == [p.name for p in entries]


def test_a_build_is_skipped_only_while_inputs_options_and_outputs_are_unchanged(tmp_path):
    from tests.conftest import FIXTURES

    game = tmp_path / "toy-game"
    import shutil

    shutil.copytree(FIXTURES / "toy-game", game)
    out = tmp_path / "out"
    assert not build(game, BuildOptions(out=out, png=True, workers=1)).up_to_date
    assert build(game, BuildOptions(out=out, png=True, workers=1)).up_to_date
    assert not build(game, BuildOptions(out=out, workers=1)).up_to_date  # other options
    assert not build(game, BuildOptions(out=out, png=True, workers=1)).up_to_date
    png = out / "toy-game" / "png" / "numbers" / "numbers-001-front.png"
    png.unlink()
    assert not build(game, BuildOptions(out=out, png=True, workers=1)).up_to_date and png.is_file()
    (game / "notes.txt").write_text("a new file in the game folder")
    assert not build(game, BuildOptions(out=out, png=True, workers=1)).up_to_date
    assert not build(game, BuildOptions(out=out, png=True, workers=1, cache=False)).up_to_date


def test_an_unchanged_game_is_recognised_without_loading_it(tmp_path, monkeypatch):
    import shutil

    import spellpress.build as build_module
    from tests.conftest import FIXTURES

    game = tmp_path / "toy-game"
    shutil.copytree(FIXTURES / "toy-game", game)
    out = tmp_path / "out"
    first = build(game, BuildOptions(out=out, workers=1))
    assert first.game is not None and not first.up_to_date

    def no_loading(folder):
        raise AssertionError("an up-to-date game was loaded")

    monkeypatch.setattr(build_module, "load_game", no_loading)
    again = build(game, BuildOptions(out=out, workers=1))
    assert again.up_to_date and again.game is None
    assert (again.game_id, again.files, again.cards, again.pages) == (first.game_id, first.files, first.cards, first.pages)
    with pytest.raises(AssertionError, match="was loaded"):
        build(game, BuildOptions(out=out, workers=1, paper="letter"))


def test_the_inputs_digest_follows_shared_templates_and_the_game_folder(tmp_path):
    from spellpress.write.stamp import inputs_digest

    folder = tmp_path / "game"
    (folder / "art").mkdir(parents=True)
    (folder / "game.yaml").write_text("name: x\n")
    shared = tmp_path / "shared" / "card.yaml"
    shared.parent.mkdir()
    shared.write_text("boxes: {}\n")
    options = BuildOptions()
    before = inputs_digest(folder, [str(shared)], options)
    assert inputs_digest(folder, [str(shared)], options) == before
    shared.write_text("boxes: {a: {kind: fill}}\n")
    after_template = inputs_digest(folder, [str(shared)], options)
    assert after_template != before
    (folder / "art" / "new.png").write_bytes(b"x")
    assert inputs_digest(folder, [str(shared)], options) != after_template
    assert inputs_digest(folder, [str(shared)], BuildOptions(png=True)) != inputs_digest(folder, [str(shared)], options)


@pytest.mark.slow
def test_exports_are_the_same_drawn_here_or_by_workers_that_start_strips_early(game_copy, tmp_path):
    """Two workers start each TTS strip as soon as its cards are drawn (raster.prefetch_strips);
    one process draws everything in order. The files must not differ by a byte."""
    folder = game_copy()
    for workers in (1, 2):
        built = build(folder, BuildOptions(out=tmp_path / str(workers), png=True, tts=True, tts_url="https://example.org/game",
                                           cache=False, workers=workers))
        assert built.drawn.strips_compressed > 4
    alone, pooled = files_of(tmp_path / "1" / folder.name), files_of(tmp_path / "2" / folder.name)
    assert sorted(alone) == sorted(pooled) and any(name.startswith("tts/") for name in alone)
    assert [name for name in alone if alone[name] != pooled[name]] == []
