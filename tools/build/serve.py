"""The static server of dist/: `python3 build.py serve` on localhost, and the browser tests'
and benchmarks' server on a free port in a thread.  Fixed MIME types (not the system's), no
caching by the browser, quiet unless ATUT_SERVE_LOG is set."""

from __future__ import annotations

import functools
import http.server
import os
import socketserver
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .common import log

MIME = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".py": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".webmanifest": "application/manifest+json",
    "": "application/octet-stream",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = MIME
    protocol_version = "HTTP/1.1"                         # keep-alive: fewer connections

    def guess_type(self, path):                           # a fixed map, not the system's
        ext = os.path.splitext(str(path))[1].lower()
        return MIME.get(ext, MIME[""])

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format, *args):                  # quiet unless asked
        if os.environ.get("ATUT_SERVE_LOG"):
            super().log_message(format, *args)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def make_server(port: int, directory: Path, host: str = "127.0.0.1") -> Server:
    handler = functools.partial(Handler, directory=str(directory))
    return Server((host, port), handler)


def serve_in_thread(directory: Path) -> tuple[Server, str]:
    """Serve ``directory`` on a free localhost port in a daemon thread; returns (server, url)."""
    srv = make_server(0, directory)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, f"http://127.0.0.1:{srv.server_address[1]}/"


@contextmanager
def served_dist(dist: Path, build: Callable[[], Path]) -> Iterator[str]:
    """The page the browser tests and benchmarks open: ``ATUT_DIST`` (a copy of dist/) or
    ``dist``, made by ``build()`` first unless ``ATUT_DIST_BUILT`` says it is built, served on a
    free localhost port in a thread; yields its base URL and stops the server at the end."""
    dist = Path(os.environ.get("ATUT_DIST") or dist).resolve()
    if not (os.environ.get("ATUT_DIST_BUILT") and (dist / "index.html").exists()):
        dist = build()
    srv, url = serve_in_thread(dist)
    try:
        yield url
    finally:
        srv.shutdown()
        srv.server_close()


def serve_forever(dist: Path, port: int) -> None:
    """Serve ``dist`` on http://localhost:``port``/ until Ctrl+C, each request logged."""
    os.environ.setdefault("ATUT_SERVE_LOG", "1")
    srv = make_server(port, dist, host="localhost")
    log(f"serving {dist.name}/ on http://localhost:{port}/  (Ctrl+C to stop)")
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
