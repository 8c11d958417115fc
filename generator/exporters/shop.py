"""The print-shop presets: `build --shop NAME` writes exactly what a shop asks for into OUT/<game>/<shop>/
(shop/build.py), and `spellpress shops` lists the presets (shop/command.py)."""

from __future__ import annotations

from spellpress.errors import Option, UserError
from spellpress.exporters import ShopExport


def _arguments(build) -> None:
    build.add_argument("--shop", metavar="NAME",
                       help="write exactly what a print shop asks for into OUT/<game>/<shop>/ (see 'spellpress shops')")
    build.add_argument("--ink-limit", choices=["on", "off"],
                       help="with --shop: over the shop's total ink limit is an error (on, the default) or a warning (off)")


def _unused(args) -> None:
    if args.ink_limit is not None:
        raise UserError.at(Option("--ink-limit"), "applies to --shop builds only (a shop's total ink limit)")


def _build(args) -> int:
    from spellpress.shop.command import build_shops

    return build_shops(args)


EXPORT = ShopExport(
    name="shop", order=50, summary="what a print shop asks for, from its preset, in OUT/<game>/<shop>/",
    arguments=_arguments, wanted=lambda args: bool(args.shop), build=_build, unused=_unused,
    refused=lambda args: [] if args.cache else ["--no-cache"],
)
