"""One registry of exports (exporters/): the command line, the build and the preview page read it,
so a new export is one module: here one made in the test plugs in with nothing else changed."""

from __future__ import annotations

import argparse
import json

import pytest

from spellpress import exporters, print_commands
from spellpress.cli import main, parser
from spellpress.errors import UserError
from spellpress.exporters import Export, PdfExport, ShopExport, optional, raster_exports, registry
from spellpress.write.atomic import atomic_folder
from tests.conftest import FIXTURES


def build_parser() -> argparse.ArgumentParser:
    commands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    return commands.choices["build"]


def test_the_registry_holds_every_export_once_with_its_parts():
    exports = registry()
    assert set(exports) == {"sheets", "print-shop", "shop", "png", "tts", "tabletopia", "cgs"}
    assert set(raster_exports()) == {"png", "tts", "tabletopia", "cgs"}
    for name, export in exports.items():
        assert export.name == name and export.summary
        if isinstance(export, Export):
            parts = (export.plan, export.prefetch, export.write, export.arguments, export.settings)
        elif isinstance(export, PdfExport):
            parts = (export.write, export.arguments, export.settings)
        else:
            assert isinstance(export, ShopExport)
            parts = (export.arguments, export.wanted, export.build, export.refused, export.unused)
        assert all(callable(part) for part in parts), name


def test_the_command_line_offers_what_the_registry_holds():
    build = build_parser()
    digital = next(a for a in build._actions if a.dest == "digital")
    assert list(digital.choices) == list(raster_exports())
    flags = {option for action in build._actions for option in action.option_strings}
    assert {"--png", "--tts", "--tts-url", "--tts-max-px", "--digital-url", "--print-shop", "--shop", "--ink-limit",
            "--paper", "--backs", "--color", "--draft"} <= flags
    commands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert "shops" in commands.choices


def test_a_shop_refuses_every_other_exports_options_from_the_registry():
    """What --shop decides comes from the registry: each option of another export, given, is refused by name."""
    decided = {flag for flag, _, _ in build_parser().parse_args([]).decided_by_shop}
    assert {"--paper", "--backs", "--back-offset", "--bleed", "--color", "--profile", "--marks", "--draft", "--png",
            "--tts", "--digital", "--tts-url", "--tts-max-px", "--tts-format", "--digital-url", "--print-shop"} == decided
    args = build_parser().parse_args(["--shop", "gamecrafter", "--tts-format", "jpg", "--print-shop"])
    with pytest.raises(UserError) as refused:
        print_commands.refuse_options_a_shop_decides(args, registry()["shop"])
    assert sorted(str(p.location) for p in refused.value.problems) == ["--print-shop", "--tts-format"]


def test_each_exports_cache_keys_are_settings_it_reads_from_its_options():
    args = build_parser().parse_args([])
    for export in (e for e in registry().values() if not isinstance(e, ShopExport)):
        assert set(export.cache_keys) <= set(export.settings(args)), export.name


def test_the_preview_page_has_a_checkbox_per_export():
    from spellpress.serve import page

    boxes = page.export_boxes()
    assert all(f'name="{export.key}"' in boxes for export in optional().values())
    assert 'name="print_shop"' in boxes and 'name="sheets"' not in boxes and 'name="shop"' not in boxes
    selects = page.mode_selects()  # the sheets' modes, offered by their export
    assert all(f'<select name="{name}"' in selects for name in ("paper", "backs", "marks"))


def _plan(game, laid, settings):
    return [f"{f.component.id}/{f.card.id} x{f.card.count}" for f in laid], settings


def _write(plan, folder, title, raster):
    lines, settings = plan
    with atomic_folder(folder) as temporary:
        (temporary / "cards.txt").write_text(settings["heading"] + "\n" + "\n".join(lines) + "\n")
    return [folder / "cards.txt"]


LIST = Export(name="card-list", label="List", summary="a list of the cards in card-list/cards.txt",
              plan=_plan, prefetch=lambda plan, raster: None, write=_write,
              arguments=lambda build: build.add_argument("--list-heading", default="Cards"),
              settings=lambda args: {"heading": args.list_heading}, cache_keys=("heading",))


@pytest.mark.slow
def test_a_new_export_is_one_module(monkeypatch, tmp_path, capsys):
    registry()
    monkeypatch.setitem(exporters._REGISTRY, "card-list", LIST)  # as if exporters/card_list.py held it
    toy = FIXTURES / "toy-game"
    assert main(["build", str(toy), "--digital", "card-list", "--list-heading", "Toy cards", "--out", str(tmp_path)]) == 0
    out = tmp_path / "toy-game"
    written = (out / "card-list" / "cards.txt").read_text().splitlines()
    assert written[0] == "Toy cards" and len(written) > 1
    assert "card-list/cards.txt" in json.loads((out / "manifest.json").read_text())["files"]
