"""Server push as Server-Sent Events: a page's EventSource hears when something changed, then asks for it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Hashable

import anyio
from starlette.responses import StreamingResponse

from spellpress.web.responses import NO_STORE

RETRY_MS = 500  # how soon a page's EventSource reconnects after the stream broke
KEEP_ALIVE = ": still here\n\n"  # a comment line: keeps a quiet stream open through proxies


def event(data: object, retry: bool = False) -> str:
    return (f"retry: {RETRY_MS}\n" if retry else "") + f"data: {data}\n\n"


def event_stream(events: AsyncIterator[str]) -> StreamingResponse:
    return StreamingResponse(events, media_type="text/event-stream", headers=NO_STORE)


class Hub:
    """Fans a new version number out to every open event stream."""

    def __init__(self):
        self.queues: set[asyncio.Queue] = set()

    def subscribe(self) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue(maxsize=16)
        self.queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue) -> None:
        self.queues.discard(queue)

    def publish(self, version: int) -> None:
        for queue in list(self.queues):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(version)

    async def events(self, current: int, keep_alive_s: float) -> AsyncIterator[str]:
        """The version now, then each one published, with a keep-alive comment when nothing was."""
        queue = self.subscribe()
        try:
            yield event(current, retry=True)
            while True:
                try:
                    yield event(await asyncio.wait_for(queue.get(), keep_alive_s))
                except TimeoutError:
                    yield KEEP_ALIVE
        finally:
            self.unsubscribe(queue)


async def polled(now: Callable[[], Hashable], label: Callable[[], object], every_s: float) -> AsyncIterator[str]:
    """An event with `label()` each time `now()` differs from when last looked at, every `every_s`
    seconds (for state changed in worker threads, which no hub hears)."""
    seen = None
    while True:
        current = now()
        if current != seen:
            seen = current
            yield event(label(), retry=True)
        await anyio.sleep(every_s)
