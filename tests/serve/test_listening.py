"""The servers' listening socket (`spellpress serve` and `play`): every connection sends at once."""

from __future__ import annotations

import asyncio
import socket

from spellpress.serve.command import listening_socket


def test_connections_of_the_listening_socket_send_without_nagles_delay():
    """asyncio turns Nagle's algorithm off only on connections of a socket that says it is TCP. With it
    on, a response the server writes in two parts waited 40 ms for the browser's delayed acknowledgement,
    on every request after a connection's first (measured: 44 ms for the play table's state, 1 ms now)."""

    async def nodelay_of_an_accepted_connection() -> int:
        sock = listening_socket("127.0.0.1", 0)
        loop = asyncio.get_running_loop()
        seen: asyncio.Future[int] = loop.create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport):
                seen.set_result(transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

        server = await loop.create_server(Probe, sock=sock)
        async with server:
            _, writer = await asyncio.open_connection(*sock.getsockname()[:2])
            value = await asyncio.wait_for(seen, 10)
            writer.close()
        return value

    assert asyncio.run(nodelay_of_an_accepted_connection()) != 0
