"""Tabletopia: one picture per card side in tabletopia/<component>/, within 4000 px (write/tabletopia.py)."""

from __future__ import annotations

from spellpress.exporters import Export


def _plan(game, laid, settings):
    from spellpress.write.tabletopia import plan_tabletopia

    return plan_tabletopia(game, laid)


def _prefetch(plan, raster) -> None:
    from spellpress.write.tabletopia import prefetch_tabletopia

    prefetch_tabletopia(plan, raster)


def _write(plan, folder, title, raster):
    from spellpress.write.tabletopia import write_tabletopia

    return write_tabletopia(plan, folder, title, raster)


EXPORT = Export(
    name="tabletopia", order=30, label="Tabletopia",
    summary="one picture per card side in tabletopia/, within 4000 px",
    plan=_plan, prefetch=_prefetch, write=_write,
)
