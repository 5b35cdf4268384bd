"""The browser playground (`rulelang serve`): edit a ruleset with the
language server's diagnostics, read its printed rules and cards, play it
against agents, simulate and compare it — in a page served on this machine
only, to whoever holds the token in the address it prints.

    from playground import serve
    serve("rulesets/", port=8765, open_page=True)

A top-floor package beside `cli/`: it reads the front end, the shared
analysis (`queries`), the interpreter and the generators; nothing imports it
but the command line. docs/playground.md says what it does and how it is
secured.
"""
from __future__ import annotations

import secrets
import sys
import webbrowser
from pathlib import Path

from rulelang.files import bundled

from .folder import Folder, Refused

__all__ = ["Refused", "make_app", "serve", "where"]


def where(target: str | None) -> tuple[Folder, str | None]:
    """The folder served and the file the page opens first: a folder (none opened), a
    ruleset file (its folder), or the name of a bundled ruleset (the current folder)."""
    if target is None:
        return Folder.at("."), None
    path = Path(target)
    if path.is_dir():
        return Folder.at(path), None
    if path.is_file():
        folder = Folder.at(path.resolve().parent)
        return folder, folder.name(folder.resolve(path.resolve().name))
    if bundled(target) is not None:
        return Folder.at("."), f"bundled:{target}"
    raise Refused(f"{target}: no such folder, file or bundled ruleset")


def make_app(target: str | None, token: str, port: int):
    from .server import create_app  # Starlette: the `web` extra

    folder, opened = where(target)
    return create_app(folder, token, port, opened)


def serve(target: str | None, port: int = 0, open_page: bool = False, host: str = "127.0.0.1") -> None:
    """Serve the playground until interrupted; print its address (with the token) first."""
    import socket

    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))  # port 0: a free one, known before the address is printed
    sock.listen(128)  # connections wait for the server from the moment the address is printed
    port = sock.getsockname()[1]
    token = secrets.token_urlsafe(24)
    app = make_app(target, token, port)
    url = f"http://127.0.0.1:{port}/?token={token}"
    print(f"rulelang playground: {url}\n(only this machine can reach it, and only with the token; "
          "Ctrl-C stops it)", flush=True)
    if open_page:
        webbrowser.open(url)
    config = uvicorn.Config(app, log_level="warning", lifespan="on", limit_concurrency=64,
                            timeout_keep_alive=5, h11_max_incomplete_event_size=64 * 1024)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    sys.stdout.flush()
