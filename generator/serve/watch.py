"""What the preview does while it serves: redraw on every save, and pull Google Sheets when asked."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import anyio

from spellpress.serve.preview import Preview
from spellpress.web.push import Hub

WATCH_DEBOUNCE_MS = 30

log = logging.getLogger("spellpress.serve")


async def watch(preview: Preview, hub: Hub, out: Path, stop: asyncio.Event) -> None:
    """Refresh on every save in the game folder or the shared folders it uses; never gives up."""
    from watchfiles import DefaultFilter, awatch

    out = out.resolve()

    class Relevant(DefaultFilter):
        def __call__(self, change, path: str) -> bool:
            return super().__call__(change, path) and out not in Path(path).parents

    while not stop.is_set():
        roots = preview.watch_roots()
        try:
            async for _ in awatch(*roots, watch_filter=Relevant(), debounce=WATCH_DEBOUNCE_MS, step=10,
                                  stop_event=stop, rust_timeout=500, yield_on_timeout=False):
                if await anyio.to_thread.run_sync(preview.refresh):
                    hub.publish(preview.state.version)
                if preview.watch_roots() != roots:
                    break  # the game now uses other shared folders
        except Exception:  # a folder removed while watched, for instance: look again shortly
            log.exception("watching stopped; restarting")
            if await anyio.to_thread.run_sync(preview.refresh):
                hub.publish(preview.state.version)
            await asyncio.sleep(0.5)


async def poll_sheets(preview: Preview, hub: Hub, seconds: float, stop: asyncio.Event) -> None:
    """serve --pull-every: pull the game's Google Sheets every `seconds`; a changed sheet is rebuilt
    and the page says when (pull.py writes only a snapshot that changed)."""
    from spellpress.pull import pull_changes

    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), timeout=seconds)
            return
        except TimeoutError:
            pass
        note = await anyio.to_thread.run_sync(pull_changes, preview.folder)
        if note is not None and note != preview.note:
            print(note, flush=True)
            preview.note = note
            if await anyio.to_thread.run_sync(preview.refresh):
                hub.publish(preview.state.version)
