"""`spellpress serve`: a live preview of a game in the browser."""

from __future__ import annotations

import socket
from pathlib import Path

from spellpress.arguments import bounded_int
from spellpress.errors import Location, Option, UserError
from spellpress.paths import game_folders

DEFAULT_PORT = 8765


def register(commands) -> None:
    parser = commands.add_parser(
        "serve", help="live preview of a game in the browser, updated on every save",
        description="Serve a page with every card (a size slider up to actual size; a shared back shown once), "
                    "each card at actual size with its fields, their source line or row, bleed, trim and safe-zone "
                    "overlays and previous/next (arrow keys), and the imposed sheets; builds on the paper, backs and "
                    "marks chosen on the page, downloadable as one ZIP. The page updates when a file of the game, "
                    "or a shared template, font or icon it uses, is saved; definition errors show in the page and on "
                    "their cards.")
    parser.add_argument("game", nargs="?", metavar="GAME|PATH",
                        help="a game id under cards/ or a game folder (default: the current folder, if it holds game.yaml)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"port to listen on; 0 picks a free one (default {DEFAULT_PORT})")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address or name to listen on (default 127.0.0.1: this computer only). Any other than a loopback "
                             "address lets everyone who can reach it see every card, start builds (PDF, PNG, TTS, "
                             "print-shop files written under --out) and download them; the page answers only to "
                             "this name or address, localhost and 127.0.0.1")
    parser.add_argument("--out", type=Path, default=Path("output"), help="output folder for the page's builds (default: output)")
    parser.add_argument("--pull-every", type=bounded_int(10, 86_400), metavar="SECONDS",
                        help="fetch the game's Google Sheets (cards_from: links) every SECONDS, at least 10, and rebuild "
                             "when one changed (as 'spellpress pull' does; the page says when)")


def game_folder(name: str | None) -> Path:

    if name is None:
        if Path("game.yaml").is_file():
            return Path(".")
        raise UserError.at(Location(Path(".")), "no game.yaml here: name a game id under cards/ or a game folder")
    return game_folders([name])[0]


def listening_socket(host: str, port: int) -> socket.socket:
    if not 0 <= port <= 65535:
        raise UserError.at(Option("--port"), f"port must be between 0 and 65535, not {port}")
    try:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as exc:
        raise UserError.at(Option("--host"), f"cannot listen on '{host}': {exc.strerror}") from None
    # TCP named as the protocol, not left at 0: asyncio turns Nagle's algorithm off only on connections
    # of a socket that says it is TCP, and with it on, a response written in two parts waited 40 ms
    # for the browser's delayed acknowledgement, on every request after a connection's first
    sock = socket.socket(info[0], socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(info[4])
    except OSError as exc:
        sock.close()
        raise UserError.at(Option("--port"), f"cannot listen on {host}:{port}: {exc.strerror} "
                                                     "(another server there? try --port 0)") from None
    sock.listen(128)  # connections wait from now on, so the address printed next works at once
    return sock


def exposure_warning(address: str, out: Path) -> str | None:
    """What listening on `address` exposes, or None for a loopback address (this computer only)."""
    from spellpress.serve.guard import host_name, is_loopback

    if is_loopback(address):
        return None
    return (f"warning: listening on {host_name(address)} beyond this computer: anyone who can reach it can see "
            f"every card, start builds (PDF, PNG, TTS and print-shop files written to {out}) and download them")


def run_serve(args) -> int:
    import uvicorn

    from spellpress.build import BuildOptions
    from spellpress.serve.app import create_app
    from spellpress.serve.guard import Guard
    from spellpress.serve.preview import Preview

    folder = game_folder(args.game)
    sock = listening_socket(args.host, args.port)
    preview = Preview(folder, BuildOptions(out=args.out))
    preview.refresh()
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"previewing {folder} at http://{shown}:{port}/ (Ctrl-C stops)", flush=True)
    warning = exposure_warning(host, args.out)
    if warning:
        print(warning, flush=True)
    for problem in preview.state.errors:
        print(f"error: {problem}", flush=True)
    guard = Guard.for_address(host, port, names=[args.host])
    if args.pull_every:
        print(f"pulling the game's Google Sheets every {args.pull_every} s", flush=True)
    app = create_app(preview, args.out, guard, pull_every=args.pull_every)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1, lifespan="on")
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    return 0
