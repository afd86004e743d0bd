#!/usr/bin/env python3
"""Build, serve and test Atut.

    python3 build.py                    build the wheel and the static site in dist/
    python3 build.py serve [--port N]   build, then serve dist/ on http://localhost:N (8000)
    python3 build.py test [pytest args] set up .venv, npm packages and Chromium, then run all tests
    python3 build.py bench-page         cold-cache page timings in headless Chromium

Standard library only (the build needs no network once node_modules/ and .cache/ exist).

dist/ layout (relative URLs only, so it works under any sub-path of any static host):

    index.html                      the app
    web/                            page code, styles, i18n, worker, bridge.py
    web/pyodide/                    the Pyodide runtime (from node_modules/pyodide) + micropip
    web/wheels/atut-0.1.0-py3-none-any.whl
    web/build.json                  names of the wheel and the runtime files
"""

from __future__ import annotations

import base64
import functools
import hashlib
import http.server
import io
import json
import os
import shutil
import socketserver
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
VENV = ROOT / ".venv"
NODE_PYODIDE = ROOT / "node_modules" / "pyodide"
PYODIDE_VERSION = "314.0.7"
# micropip as pinned by Pyodide 314.0.7's own pyodide-lock.json (0.11.1); the wheel comes from
# the Python package index through pip and is cached in .cache/micropip/.
MICROPIP_VERSION = "0.11.1"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.mjs.map", "pyodide.asm.mjs", "pyodide.asm.wasm",
                 "python_stdlib.zip", "pyodide-lock.json")
CHROMIUM = "/usr/bin/chromium"
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
    "": "application/octet-stream",
}
ZIP_DATE = (2024, 1, 1, 0, 0, 0)          # fixed timestamps: the same sources give the same wheel


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


class BuildError(Exception):
    pass


# --- the wheel ---------------------------------------------------------------------------

def project_version() -> str:
    text = (ROOT / "engine" / "atut" / "__init__.py").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("__version__"):
            return line.split("=", 1)[1].strip().strip("\"'")
    raise BuildError("engine/atut/__init__.py has no __version__")


def _record_hash(data: bytes) -> str:
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def build_wheel(out_dir: Path) -> Path:
    """The pure wheel (py3-none-any) of engine/atut, built with zipfile alone."""
    version = project_version()
    name = f"atut-{version}-py3-none-any.whl"
    info = f"atut-{version}.dist-info"
    files: list[tuple[str, bytes]] = []
    src = ROOT / "engine" / "atut"
    for path in sorted(src.rglob("*")):
        if path.is_dir() or "__pycache__" in path.parts or path.suffix in (".pyc", ".pyo"):
            continue
        files.append(("atut/" + path.relative_to(src).as_posix(), path.read_bytes()))
    metadata = (f"Metadata-Version: 2.1\nName: atut\nVersion: {version}\n"
                "Summary: Five trick-taking card games with bots\n"
                "Requires-Python: >=3.11\nLicense: MIT\n").encode()
    wheel = ("Wheel-Version: 1.0\nGenerator: atut-build.py\nRoot-Is-Purelib: true\n"
             "Tag: py3-none-any\n").encode()
    files.append((f"{info}/METADATA", metadata))
    files.append((f"{info}/WHEEL", wheel))
    record = "".join(f"{p},{_record_hash(d)},{len(d)}\n" for p, d in files)
    record += f"{info}/RECORD,,\n"
    files.append((f"{info}/RECORD", record.encode()))
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / name
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for p, d in files:
            zi = zipfile.ZipInfo(p, ZIP_DATE)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            z.writestr(zi, d)
    target.write_bytes(buf.getvalue())
    return target


# --- npm and micropip ----------------------------------------------------------------------

def pyodide_ok() -> bool:
    pkg = NODE_PYODIDE / "package.json"
    if not pkg.exists():
        return False
    try:
        return json.loads(pkg.read_text())["version"] == PYODIDE_VERSION
    except (ValueError, KeyError):
        return False


def ensure_npm_packages() -> None:
    if pyodide_ok():
        return
    npm = shutil.which("npm")
    if npm is None and _can_apt():
        log("npm is missing: apt-get install -y npm")
        _apt_install("npm")
        npm = shutil.which("npm")
    if npm is None:
        raise BuildError("npm is missing: install Node.js 18+ with npm, then run `npm ci`")
    cmd = [npm, "ci"] if (ROOT / "package-lock.json").exists() else [npm, "install"]
    log(" ".join(["npm"] + cmd[1:]))
    r = subprocess.run(cmd + ["--no-fund", "--no-audit"], cwd=ROOT)
    if r.returncode != 0 or not pyodide_ok():
        raise BuildError(f"`{' '.join(cmd)}` failed: node_modules/pyodide {PYODIDE_VERSION} "
                         "is needed")


def micropip_wheel() -> Path:
    cache = CACHE / "micropip"
    name = f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
    path = cache / name
    if path.exists():
        return path
    cache.mkdir(parents=True, exist_ok=True)
    log(f"downloading micropip {MICROPIP_VERSION} into .cache/micropip (pip download)")
    r = subprocess.run([sys.executable, "-m", "pip", "download", f"micropip=={MICROPIP_VERSION}",
                        "--no-deps", "--python-version", "3.13", "--only-binary=:all:",
                        "-d", str(cache), "-q"], cwd=ROOT)
    if r.returncode != 0 or not path.exists():
        raise BuildError(f"could not download micropip {MICROPIP_VERSION} with pip")
    return path


# --- the site -------------------------------------------------------------------------------

def build(quiet: bool = False) -> Path:
    ensure_npm_packages()
    for f in PYODIDE_FILES:
        if not (NODE_PYODIDE / f).exists():
            raise BuildError(f"node_modules/pyodide/{f} is missing: run `npm ci`")
    for f in ("index.html",):
        if not (ROOT / f).exists():
            raise BuildError(f"{f} is missing")
    if DIST.exists():
        shutil.rmtree(DIST)
    DIST.mkdir()
    shutil.copy2(ROOT / "index.html", DIST / "index.html")
    shutil.copytree(ROOT / "web", DIST / "web",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))
    pyo = DIST / "web" / "pyodide"
    pyo.mkdir()
    for f in PYODIDE_FILES:
        if f != "pyodide-lock.json":
            shutil.copy2(NODE_PYODIDE / f, pyo / f)
    # micropip: ship our downloaded wheel and point the lock entry at it (its hash differs from
    # the one Pyodide built), so `pyodide.loadPackage("micropip")` works offline.
    mp = micropip_wheel()
    shutil.copy2(mp, pyo / mp.name)
    lock = json.loads((NODE_PYODIDE / "pyodide-lock.json").read_text(encoding="utf-8"))
    entry = lock["packages"].get("micropip", {"name": "micropip", "imports": ["micropip"],
                                              "depends": [], "install_dir": "site",
                                              "package_type": "package"})
    entry.update(file_name=mp.name, version=MICROPIP_VERSION,
                 sha256=hashlib.sha256(mp.read_bytes()).hexdigest())
    lock["packages"]["micropip"] = entry
    (pyo / "pyodide-lock.json").write_text(json.dumps(lock), encoding="utf-8")
    wheel = build_wheel(DIST / "web" / "wheels")
    manifest = {
        "version": project_version(),
        "wheel": "wheels/" + wheel.name,
        "wheel_sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
        "pyodide": PYODIDE_VERSION,
        "micropip": "pyodide/" + mp.name,
    }
    (DIST / "web" / "build.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    if not quiet:
        size = sum(p.stat().st_size for p in DIST.rglob("*") if p.is_file())
        log(f"dist/ built ({size / 1e6:.1f} MB): {wheel.name}, Pyodide {PYODIDE_VERSION}, "
            f"micropip {MICROPIP_VERSION}")
    return DIST


# --- serving --------------------------------------------------------------------------------

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


def make_server(port: int = 0, directory: Path = DIST, host: str = "127.0.0.1") -> Server:
    handler = functools.partial(Handler, directory=str(directory))
    return Server((host, port), handler)


def serve_in_thread(directory: Path = DIST) -> tuple[Server, str]:
    """Serve ``directory`` on a free localhost port in a daemon thread; returns (server, url)."""
    srv = make_server(0, directory)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, f"http://127.0.0.1:{srv.server_address[1]}/"


def serve(port: int) -> None:
    build()
    os.environ.setdefault("ATUT_SERVE_LOG", "1")
    srv = make_server(port, DIST, host="localhost")
    log(f"serving dist/ on http://localhost:{port}/  (Ctrl+C to stop)")
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()


# --- the test environment -----------------------------------------------------------------

def _can_apt() -> bool:
    return (hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get") is not None
            and Path("/etc/debian_version").exists())


_apt_updated = False


def _apt_install(*pkgs: str) -> None:
    global _apt_updated
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if not _apt_updated:
        subprocess.run(["apt-get", "update"], check=True, env=env)
        _apt_updated = True
    subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", *pkgs], check=True,
                   env=env)


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv() -> Path:
    py = venv_python()
    if not py.exists():
        log("creating .venv")
        r = subprocess.run([sys.executable, "-m", "venv", str(VENV)])
        if r.returncode != 0 and _can_apt():
            v = f"python3.{sys.version_info.minor}-venv"
            log(f"venv failed: apt-get install -y {v}")
            _apt_install(v)
            shutil.rmtree(VENV, ignore_errors=True)
            r = subprocess.run([sys.executable, "-m", "venv", str(VENV)])
        if r.returncode != 0:
            raise BuildError("could not create .venv (python3 -m venv); install python3-venv")
    probe = subprocess.run([str(py), "-c", "import pytest, playwright.sync_api"],
                           capture_output=True)
    if probe.returncode != 0:
        log("installing pytest and playwright into .venv (pip)")
        r = subprocess.run([str(py), "-m", "pip", "install", "-q", "pytest", "playwright"])
        if r.returncode != 0:
            raise BuildError("pip could not install pytest and playwright into .venv")
    return py


def ensure_chromium() -> str:
    if Path(CHROMIUM).exists():
        return CHROMIUM
    if _can_apt():
        log("Chromium is missing: apt-get update && apt-get install -y chromium")
        _apt_install("chromium")
        if Path(CHROMIUM).exists():
            return CHROMIUM
    raise BuildError(f"Chromium is missing at {CHROMIUM}: install the Debian package `chromium` "
                     "(Playwright cannot download browsers here)")


def test(args: list[str]) -> int:
    py = ensure_venv()
    ensure_npm_packages()
    ensure_chromium()
    build()
    env = dict(os.environ, ATUT_DIST_BUILT="1")
    cmd = [str(py), "-m", "pytest", "tests", "-q", *args]
    log(" ".join(["pytest", "tests", "-q", *args]))
    r = subprocess.run(cmd, cwd=ROOT, env=env)
    if r.returncode == 5:
        print("build.py test: pytest collected no tests: that is a failure", file=sys.stderr)
        return 1
    return r.returncode


def bench_page(args: list[str]) -> int:
    py = ensure_venv()
    ensure_chromium()
    build()
    return subprocess.run([str(py), str(ROOT / "tests" / "browser" / "bench_page.py"), *args],
                          cwd=ROOT, env=dict(os.environ, ATUT_DIST_BUILT="1")).returncode


def main(argv: list[str]) -> int:
    cmd = argv[0] if argv else "build"
    try:
        if cmd == "build":
            build()
            return 0
        if cmd == "serve":
            port = 8000
            rest = argv[1:]
            if len(rest) == 1 and rest[0].startswith("--port="):
                rest = ["--port", rest[0].split("=", 1)[1]]
            if rest[:1] == ["--port"] and len(rest) == 2 and rest[1].isdigit():
                port = int(rest[1])
            elif rest:
                print("usage: python3 build.py serve [--port N]", file=sys.stderr)
                return 2
            serve(port)
            return 0
        if cmd == "test":
            return test(argv[1:])
        if cmd == "bench-page":
            return bench_page(argv[1:])
        if cmd in ("-h", "--help", "help"):
            print(__doc__)
            return 0
        print(f"unknown command {cmd!r}\n{__doc__}", file=sys.stderr)
        return 2
    except BuildError as e:
        print(f"build.py: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
