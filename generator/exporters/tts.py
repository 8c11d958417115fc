"""Tabletop Simulator: deck sheets, dice, tiles and a saved object in tts/ (`--tts`; write/tts_*.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spellpress.arguments import bounded_int
from spellpress.exporters import Export

DEFAULT_MAX_PX = 4096


@dataclass(frozen=True)
class _Plan:
    game: Any
    plan: Any
    options: Any


def _arguments(build) -> None:
    build.add_argument("--tts-max-px", type=bounded_int(256, 65536), default=DEFAULT_MAX_PX, metavar="PX",
                       help="longest side of a TTS image, in pixels; cards are scaled to fit (default 4096)")
    build.add_argument("--tts-format", choices=["png", "jpg"], default="png", help="TTS images as RGB PNG or JPEG (default png)")
    build.add_argument("--tts-url", metavar="BASE",
                       help="the URL the TTS images will be hosted under (default: file:/// paths of the written files)")


def _settings(args) -> dict[str, Any]:
    return {"max_px": args.tts_max_px, "image_format": args.tts_format, "url": args.tts_url}


def _plan(game, laid, settings):
    from spellpress.write.tts_plan import TtsOptions, plan_tts

    options = TtsOptions(**settings)
    return _Plan(game, plan_tts(game, laid, options), options)


def _prefetch(plan: _Plan, raster) -> None:
    from spellpress.write.tts_export import prefetch_tts

    prefetch_tts(plan.plan, raster)


def _write(plan: _Plan, folder, title, raster):
    from spellpress.write.tts_export import write_tts

    return write_tts(plan.game, plan.plan, folder, raster, plan.options)


EXPORT = Export(
    name="tts", order=20, label="TTS", flag="--tts",
    summary="Tabletop Simulator images and a saved object, tts/<game>.json (docs/digital.md)",
    plan=_plan, prefetch=_prefetch, write=_write, arguments=_arguments, settings=_settings,
    cache_keys=("max_px", "image_format", "url"),
)
