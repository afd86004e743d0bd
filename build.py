#!/usr/bin/env python3
"""Build, serve and test Atut.

    python3 build.py                    build the wheel and the static site in dist/
    python3 build.py serve [--port N]   build, then serve dist/ on http://localhost:N (8000)
    python3 build.py test [pytest args] set up .venv, npm packages and Chromium, lint, run all tests
    python3 build.py lint               ruff (Python) and eslint (the page)
    python3 build.py bench-page         cold-cache page timings in headless Chromium
    python3 build.py soak-page          50 whole games in one page, worker memory curve (Chromium)
    python3 build.py bench-bots         bot decision times: Pyodide (in Node) beside CPython
    python3 build.py bench-lab          bot lab arena deals/s in Chromium beside CPython, per game
    python3 build.py bench-aids         hint and review grading times in Chromium
    python3 build.py bench-pool         level-4 move and grade times with 1, 2, 4 search workers

build.py itself is standard library only.  It sets up .venv/ with the pinned tools of
requirements-dev.txt (the wheel is made by pip and the `wheel` tool there), node_modules/ (npm ci)
and .cache/ (micropip, byte code) once; after that the build needs no network.

dist/ layout (relative URLs only, so it works under any sub-path of any static host):

    index.html                      the app
    web/                            page code, styles, i18n, worker, bridge.py
    web/pyodide/                    the Pyodide runtime (from node_modules/pyodide) + micropip
    web/wheels/atut-0.1.0-py3-none-any.whl
    web/build.json                  names of the wheel and the runtime files, the build id, and
                                    the engine's info (games, seats, options, levels) for the menu
    web/pyodide/snapshot.bin.gz     Python started with atut imported (a Pyodide memory snapshot)
    web/icons/                      the app's icons (SVG, and PNGs drawn by this file)
    web/lab/                        the bot lab: editor.js/.css (CodeMirror 6 and uPlot bundled
                                    by esbuild from web/lab/editor-entry.js) and lab.css
    web/rules/<game>.<lang>.json    the in-app rules from docs/rules/<game>.md (tools/rules_html.py)
    manifest.webmanifest            the web app manifest (English; manifest.pl.webmanifest: Polish)
    sw.js                           the service worker (workbox-build generateSW): precaches all
                                    of dist/ under a cache named by the build id
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import os
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
from contextlib import contextmanager
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
# headless flags of the browser tests and benchmarks (Debian's chromium, often run as root)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
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
# 2024-01-01: fixed timestamps, so that the same sources give the same wheel
SOURCE_DATE_EPOCH = "1704067200"
REQUIREMENTS = ROOT / "requirements-dev.txt"


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


def build_wheel(out_dir: Path, pyc_dir: Path | None = None) -> Path:
    """The pure wheel (py3-none-any) of engine/atut, made by the backend pyproject.toml names
    (`pip wheel`, in .venv/, no index reached); with `pyc_dir` (from precompile()) the `wheel`
    tool unpacks it, adds atut/**/__pycache__/*.pyc for Pyodide's Python and packs it again,
    which rewrites RECORD.  Fixed timestamps (SOURCE_DATE_EPOCH): the same sources give the same
    bytes."""
    py = ensure_venv()
    env = dict(os.environ, SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH, PYTHONDONTWRITEBYTECODE="1")
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="atut-wheel-") as tmp:
        # a clean copy of the sources, so that no build/ or egg-info of an older tree leaks in
        src = Path(tmp) / "src"
        shutil.copytree(ROOT / "engine" / "atut", src / "engine" / "atut",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.pyo"))
        for f in ("pyproject.toml", "README.md"):
            shutil.copy2(ROOT / f, src / f)
        built = Path(tmp) / "built"
        _run_tool([str(py), "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation",
                   "--no-index", "-q", "-w", str(built)], env, "pip wheel")
        wheels = sorted(built.glob("atut-*-py3-none-any.whl"))
        if len(wheels) != 1:
            raise BuildError(f"pip wheel made {[w.name for w in built.iterdir()]}, not one pure "
                             "atut wheel")
        if pyc_dir is None:
            target = out_dir / wheels[0].name
            shutil.copy2(wheels[0], target)
            return target
        unpacked = Path(tmp) / "unpacked"
        _run_tool([str(py), "-m", "wheel", "unpack", str(wheels[0]), "-d", str(unpacked)], env,
                  "wheel unpack")
        (tree,) = unpacked.iterdir()
        for path in sorted(pyc_dir.rglob("*.pyc")):
            dest = tree / "atut" / path.relative_to(pyc_dir)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)
        _run_tool([str(py), "-m", "wheel", "pack", str(tree), "-d", str(out_dir)], env,
                  "wheel pack")
        return out_dir / wheels[0].name


def _run_tool(cmd: list[str], env: dict, what: str) -> None:
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        lines = [x for x in (r.stderr + r.stdout).splitlines()
                 if x.strip() and not x.startswith("WARNING: Location")]
        raise BuildError(f"{what} failed: " + " | ".join(lines[-5:]))


# --- npm and micropip ----------------------------------------------------------------------

def pyodide_ok() -> bool:
    pkg = NODE_PYODIDE / "package.json"
    if not pkg.exists():
        return False
    try:
        return json.loads(pkg.read_text())["version"] == PYODIDE_VERSION
    except (ValueError, KeyError):
        return False


def _lock_digest() -> str:
    lock = ROOT / "package-lock.json"
    return hashlib.sha256(lock.read_bytes()).hexdigest() if lock.exists() else ""


def ensure_npm_packages() -> None:
    """node_modules/ as package-lock.json pins it (npm ci once per lock file)."""
    stamp = ROOT / "node_modules" / ".atut-lock"
    if pyodide_ok() and stamp.exists() and stamp.read_text() == _lock_digest():
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
    stamp.write_text(_lock_digest())


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


# --- byte code for the browser ---------------------------------------------------------------
#
# Pyodide's python_stdlib.zip holds only .py sources, so every module Python imports while it
# starts (about 200) is compiled from source in the browser: most of the start-up time on a slow
# machine.  At build time Node runs the very same Pyodide once, compiles the standard library and
# the atut package to byte code (unchecked hash-based .pyc, so no source check at import), and the
# site ships them next to the sources.  Cached in .cache/pyc/ by the inputs' hash; without Node
# the site is built with the plain sources (slower start, same behaviour).

PYC_SCRIPT = r"""
import { loadPyodide } from "%(pyodide)s";
import { readFileSync, writeFileSync, readdirSync, statSync, mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
const [stdlibIn, stdlibOut, srcDir, outDir] = process.argv.slice(2);
const py = await loadPyodide({ indexURL: "%(index)s" });
py.FS.writeFile("/tmp/in.zip", readFileSync(stdlibIn));
const files = [];
(function walk(d, rel) {
  for (const name of readdirSync(d).sort()) {
    const p = join(d, name);
    if (statSync(p).isDirectory()) { if (name !== "__pycache__") walk(p, rel + name + "/"); }
    else if (name.endsWith(".py")) files.push(rel + name);
  }
})(srcDir, "");
py.FS.mkdirTree("/tmp/src");
for (const f of files) {
  py.FS.mkdirTree("/tmp/src/" + dirname(f));
  py.FS.writeFile("/tmp/src/" + f, readFileSync(join(srcDir, f)));
}
py.globals.set("SRC_FILES", py.toPy(files));
const out = py.runPython(`
import importlib.util, os, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

def pyc(data, name):
    code = compile(data, name, "exec", dont_inherit=True)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False))

with zipfile.ZipFile("/tmp/in.zip") as zin, \\
        zipfile.ZipFile("/tmp/out.zip", "w", zipfile.ZIP_DEFLATED) as zout:
    for info in zin.infolist():
        data = zin.read(info)
        zout.writestr(info, data)
        if info.filename.endswith(".py"):
            try:
                b = pyc(data, info.filename)
            except SyntaxError:
                continue
            zi = zipfile.ZipInfo(info.filename[:-3] + ".pyc", info.date_time)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zout.writestr(zi, b)
done = []
for f in SRC_FILES:
    head, name = os.path.split(f)
    target = os.path.join("/tmp/pyc", head, "__pycache__",
                          name[:-3] + "." + sys.implementation.cache_tag + ".pyc")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open("/tmp/src/" + f, "rb") as fh:
        data = fh.read()
    with open(target, "wb") as fh:
        fh.write(pyc(data, "atut/" + f))
    done.append(os.path.relpath(target, "/tmp/pyc"))
done
`).toJs();
writeFileSync(stdlibOut, py.FS.readFile("/tmp/out.zip"));
for (const rel of out) {
  mkdirSync(dirname(join(outDir, rel)), { recursive: true });
  writeFileSync(join(outDir, rel), py.FS.readFile("/tmp/pyc/" + rel));
}
"""


def _tree_hash(*paths: Path) -> str:
    h = hashlib.sha256()
    for base in paths:
        files = [base] if base.is_file() else sorted(
            p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts
            and p.suffix not in (".pyc", ".pyo"))
        for p in files:
            h.update(str(p.relative_to(base.parent)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:20]


def precompile() -> tuple[Path, Path] | None:
    """(python_stdlib.zip with .pyc added, folder of atut/**/__pycache__/*.pyc), or None when
    Node cannot do it (then the site ships the plain sources)."""
    src = ROOT / "engine" / "atut"
    stdlib = NODE_PYODIDE / "python_stdlib.zip"
    key = _tree_hash(stdlib, src, NODE_PYODIDE / "pyodide.asm.wasm") + f"-{PYODIDE_VERSION}"
    out = CACHE / "pyc" / key
    zip_out, pyc_dir = out / "python_stdlib.zip", out / "atut"
    if (out / "ok").exists():
        return zip_out, pyc_dir
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        log("node is missing: the site ships the Python sources only (a slower start)")
        return None
    if out.parent.exists():
        shutil.rmtree(out.parent)               # older keys
    pyc_dir.mkdir(parents=True)
    script = out / "precompile.mjs"
    script.write_text(PYC_SCRIPT % {"pyodide": (NODE_PYODIDE / "pyodide.mjs").as_uri(),
                                    "index": str(NODE_PYODIDE) + "/"}, encoding="utf-8")
    log("compiling the standard library and atut to byte code with Pyodide in Node "
        "(cached in .cache/pyc/)")
    r = subprocess.run([node, str(script), str(stdlib), str(zip_out), str(src), str(pyc_dir)],
                       cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0 or not zip_out.exists():
        tail = (r.stderr or r.stdout).strip().splitlines()[-3:]
        log("byte-code step failed, shipping the sources only: " + " | ".join(tail))
        shutil.rmtree(out, ignore_errors=True)
        return None
    (out / "ok").write_text("ok\n")
    return zip_out, pyc_dir


LAB_SCRIPT = r"""
import { createRequire } from "node:module";
import { join } from "node:path";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
const [entry, outdir, modules] = process.argv.slice(2);
const esbuild = createRequire(join(modules, "esbuild", "package.json"))("esbuild");
const result = await esbuild.build({ entryPoints: { editor: entry }, bundle: true,
  format: "esm", minify: true, outdir, legalComments: "none", target: "es2020",
  logLevel: "error", metafile: true });
// the licences of every package bundled, from its own files (the bundle keeps no comments)
const names = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (m) names.add(m[1]);
}
let text = "The bot lab's editor.js and editor.css bundle these npm packages (esbuild); "
  + "their licences:\n";
for (const name of [...names].sort()) {
  const dir = join(modules, name);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const file = readdirSync(dir).find((f) => /^(licen[sc]e|copying)/i.test(f));
  text += `\n==== ${name} ${pkg.version} (${pkg.license || "licence below"}) ====\n\n`;
  text += file ? readFileSync(join(dir, file), "utf8")
    : `(the package has no licence file; its package.json says: ${pkg.license})\n`;
}
writeFileSync(join(outdir, "THIRD-PARTY-LICENSES.txt"), text);
"""


def bundle_lab(dest: Path) -> None:
    """The bot lab's editor and chart (web/lab/editor-entry.js: CodeMirror 6 and uPlot from
    node_modules) bundled by esbuild, run by Node, into ``dest`` as editor.js (an ES module,
    minified), editor.css and THIRD-PARTY-LICENSES.txt (the bundled packages' licences); cached
    in .cache/lab/ by the entry's and the lock file's hash."""
    entry = ROOT / "web" / "lab" / "editor-entry.js"
    (dest / entry.name).unlink(missing_ok=True)          # bare npm imports: not for the page
    key = _tree_hash(entry, ROOT / "package-lock.json") + hashlib.sha256(
        LAB_SCRIPT.encode()).hexdigest()[:8]
    out = CACHE / "lab" / key
    node = shutil.which("node") or shutil.which("nodejs")
    if not (out / "editor.js").exists():
        if node is None or not (ROOT / "node_modules" / "esbuild").is_dir():
            log("node or node_modules/esbuild is missing: no bot lab editor")
            return
        if out.parent.exists():
            shutil.rmtree(out.parent)                    # older keys
        out.mkdir(parents=True)
        script = out / "bundle.mjs"
        script.write_text(LAB_SCRIPT, encoding="utf-8")
        log("bundling the bot lab's editor (esbuild; cached in .cache/lab/)")
        r = subprocess.run([node, str(script), str(entry), str(out), str(ROOT / "node_modules")],
                           cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0 or not (out / "editor.js").exists():
            shutil.rmtree(out, ignore_errors=True)
            raise BuildError("esbuild could not bundle web/lab/editor-entry.js: "
                             + " | ".join((r.stderr or r.stdout).strip().splitlines()[-5:]))
    dest.mkdir(parents=True, exist_ok=True)
    for f in ("editor.js", "editor.css", "THIRD-PARTY-LICENSES.txt"):
        shutil.copy2(out / f, dest / f)


def static_info() -> dict:
    """What the menu needs before Python has loaded: the bridge's `info` reply (games, built
    games, seat counts, options, bot levels, version), as web/bridge.py answers it in a fresh
    CPython on engine/.  build.json carries it; the worker's own reply replaces it."""
    code = ("import json, sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]; import bridge; "
            "print(json.dumps(bridge.Table().op_info()))")
    r = subprocess.run([sys.executable, "-c", code, str(ROOT / "engine"), str(ROOT / "web")],
                       capture_output=True, text=True)
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["?"])[-1]
        raise BuildError("could not list the games: " + last)
    return json.loads(r.stdout)


SNAPSHOT_SCRIPT = r"""
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
const [pyodideMjs, index, wheel, bridge, out] = process.argv.slice(2);
const { loadPyodide } = await import(pyodideMjs);
const py = await loadPyodide({ indexURL: index, _makeSnapshot: true, stdout: () => {},
                               stderr: (s) => process.stderr.write(s + "\n") });
const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
py.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", { extractDir: site });
py.FS.writeFile(site + "/atut_bridge.py", readFileSync(bridge, "utf8"));
// every game's rules and bots imported too: the first New game imports nothing
py.runPython(`import atut_bridge, atut, atut.analysis
for g in atut.built_games():
    for level in (1, 2, 3, 4):
        atut.make_bot(g, level)`);
const snap = py.makeMemorySnapshot();
writeFileSync(out, gzipSync(snap, { level: 6 }));
process.stdout.write(JSON.stringify({ site, size: snap.length }));
"""


def write_snapshot(pyo: Path, wheel: Path, bridge: Path) -> dict | None:
    """A memory snapshot of Pyodide (Node, the same runtime files as ``pyo``) with Python started
    and atut_bridge (the wheel's atut, every game and bot) imported, gzipped to
    ``pyo``/snapshot.bin.gz: the page's worker restores it instead of starting Python (#18).
    Cached in .cache/snapshot/ by the hash of its inputs.  Returns {file, site, size}, or None
    without Node or on failure (the worker then starts Python from scratch)."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        return None
    key = _tree_hash(*(pyo / f for f in PYODIDE_FILES if f != "pyodide.mjs.map"), wheel,
                     bridge) + hashlib.sha256(SNAPSHOT_SCRIPT.encode()).hexdigest()[:8]
    out = CACHE / "snapshot" / key
    if not (out / "ok").exists():
        if out.parent.exists():
            shutil.rmtree(out.parent)           # older keys
        out.mkdir(parents=True)
        script = out / "snapshot.mjs"
        script.write_text(SNAPSHOT_SCRIPT, encoding="utf-8")
        log("making the start-up snapshot of Python with Pyodide in Node "
            "(cached in .cache/snapshot/)")
        r = subprocess.run([node, str(script), (pyo / "pyodide.mjs").as_uri(), str(pyo) + "/",
                            str(wheel), str(bridge), str(out / "snapshot.bin.gz")],
                           cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0 or not (out / "snapshot.bin.gz").exists():
            tail = [ln for ln in (r.stderr or r.stdout).strip().splitlines() if len(ln) < 400]
            log("snapshot step failed, the page starts Python from scratch: "
                + " | ".join(tail[-3:]))
            shutil.rmtree(out, ignore_errors=True)
            return None
        (out / "meta.json").write_text(r.stdout, encoding="utf-8")
        (out / "ok").write_text("ok\n")
    meta = json.loads((out / "meta.json").read_text(encoding="utf-8"))
    shutil.copy2(out / "snapshot.bin.gz", pyo / "snapshot.bin.gz")
    sha = lambda p: hashlib.sha256(p.read_bytes()).hexdigest()  # noqa: E731
    # what the snapshot holds: the worker checks them against the wheel and bridge it loads
    return {"file": "pyodide/snapshot.bin.gz", "site": meta["site"], "size": meta["size"],
            "wheel_sha256": sha(wheel), "bridge_sha256": sha(bridge)}


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
    bundle_lab(DIST / "web" / "lab")
    pyo = DIST / "web" / "pyodide"
    pyo.mkdir()
    compiled = precompile()
    for f in PYODIDE_FILES:
        if f == "python_stdlib.zip" and compiled:
            shutil.copy2(compiled[0], pyo / f)
        elif f != "pyodide-lock.json":
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
    wheel = build_wheel(DIST / "web" / "wheels", compiled[1] if compiled else None)
    info = static_info()
    snapshot = write_snapshot(pyo, wheel, DIST / "web" / "bridge.py")
    manifest = {
        "version": project_version(),
        "built": info["built"],
        "classes": info["classes"],
        "info": info,                                   # the menu's, before the engine loads
        "wheel": "wheels/" + wheel.name,
        "wheel_sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
        "pyodide": PYODIDE_VERSION,
        "micropip": "pyodide/" + mp.name,
    }
    if snapshot:
        manifest["snapshot"] = snapshot
    (DIST / "web" / "build.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    write_icons(DIST / "web" / "icons")
    write_rules_pages(DIST / "web" / "rules")
    for lang in APP_NAMES:
        name = "manifest.webmanifest" if lang == "en" else f"manifest.{lang}.webmanifest"
        (DIST / name).write_text(json.dumps(web_manifest(lang), ensure_ascii=False, indent=1),
                                 encoding="utf-8")
    sw = write_service_worker(DIST)
    if not quiet:
        size = sum(p.stat().st_size for p in DIST.rglob("*") if p.is_file())
        log(f"dist/ built ({size / 1e6:.1f} MB): {wheel.name}, Pyodide {PYODIDE_VERSION}, "
            f"micropip {MICROPIP_VERSION}; "
            + (f"service worker precaches {sw['count']} files" if sw else "no service worker"))
    return DIST


def write_rules_pages(dest: Path) -> list[Path]:
    """The in-app rules, web/rules/<game>.<lang>.json, from docs/rules/<game>.md
    (tools/rules_html.py; rendered by web/lib/rules.js)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import rules_html
    finally:
        sys.path.pop(0)
    return rules_html.write_rules(ROOT / "docs" / "rules", dest)


# --- installable and offline: icons, manifests, the service worker ----------------------------
#
# The icon is the logo of index.html: a white spade on a green rounded square, drawn here as a
# polygon (the path's curves flattened) and written as SVG and as PNGs by a small pure-Python
# rasterizer and PNG writer (no image tools).  The build id is the hash of every file of dist/;
# the service worker (workbox-build's generateSW, run by Node) precaches all of them under a
# cache named by it, with each file's sha-384 as its integrity, so a cache never holds files of
# two builds.

THEME = "#0b5d3b"
SPADE = ("M50 12c6 15 38 30 38 51 0 12-8 19-18 19-8 0-13-4-17-10 1 10 5 16 13 20H34"
         "c8-4 12-10 13-20-4 6-9 10-17 10-10 0-18-7-18-19 0-21 32-36 38-51z")
APP_NAMES = {
    "en": ("Atut: trick-taking card games", "Atut",
           "Five trick-taking card games against bots, offline in your browser."),
    "pl": ("Atut: gry karciane w lewy", "Atut",
           "Pięć gier karcianych w lewy przeciw botom, bez internetu, w przeglądarce."),
}


def _spade_polygon() -> list[tuple[float, float]]:
    """The SPADE path (M, c, H, z only) as one polygon in the 100x100 box."""
    import re
    cmds = re.findall(r"[MHcz]", SPADE)
    pts: list[tuple[float, float]] = []
    x = y = 0.0
    body = re.split(r"[MHcz]", SPADE)[1:]
    for cmd, args in zip(cmds, body):
        vals = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", args)]
        if cmd == "M":
            x, y = vals[0], vals[1]
            pts.append((x, y))
        elif cmd == "H":
            x = vals[0]
            pts.append((x, y))
        elif cmd == "c":
            for i in range(0, len(vals), 6):
                x1, y1, x2, y2, dx, dy = vals[i:i + 6]
                p0, p1, p2, p3 = (x, y), (x + x1, y + y1), (x + x2, y + y2), (x + dx, y + dy)
                for k in range(1, 17):
                    t = k / 16
                    u = 1 - t
                    pts.append((u**3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0]
                                + t**3 * p3[0],
                                u**3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1]
                                + t**3 * p3[1]))
                x, y = p3
    return pts


def _rounded_rect(x0, y0, x1, y1, r) -> list[tuple[float, float]]:
    import math
    pts = []
    for cx, cy, a0 in ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90),
                       (x0 + r, y0 + r, 180)):
        for k in range(13):
            a = math.radians(a0 + 90 * k / 12)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def _coverage(poly, size: int, scale: float, off: float, sub: int = 4) -> list[float]:
    """Per-pixel coverage (0..1) of a polygon (even-odd), box coordinates * scale + off."""
    cov = [0.0] * (size * size)
    edges = []
    n = len(poly)
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        ax, ay, bx, by = ax * scale + off, ay * scale + off, bx * scale + off, by * scale + off
        if ay != by:
            edges.append((ax, ay, bx, by))
    w = 1.0 / sub
    for row in range(size * sub):
        yc = (row + 0.5) / sub
        xs = sorted(ax + (yc - ay) * (bx - ax) / (by - ay) for ax, ay, bx, by in edges
                    if (ay <= yc < by) or (by <= yc < ay))
        base = (row // sub) * size
        for j in range(0, len(xs) - 1, 2):
            xa, xb = max(0.0, xs[j]), min(float(size), xs[j + 1])
            if xb <= xa:
                continue
            ia, ib = int(xa), int(xb)
            if ia == ib:
                cov[base + ia] += (xb - xa) * w
                continue
            cov[base + ia] += (ia + 1 - xa) * w
            for px in range(ia + 1, min(ib, size)):
                cov[base + px] += w
            if ib < size:
                cov[base + ib] += (xb - ib) * w
    return cov


def _png(size: int, rgba: bytearray) -> bytes:
    import struct
    import zlib

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))
    raw = b"".join(b"\x00" + bytes(rgba[y * size * 4:(y + 1) * size * 4]) for y in range(size))
    head = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def icon_png(size: int, maskable: bool = False) -> bytes:
    """The app icon as PNG: the spade on a rounded square, or (maskable) on a full square with
    the spade inside the safe zone."""
    bg = tuple(int(THEME[i:i + 2], 16) for i in (1, 3, 5))
    scale = size / 100
    if maskable:
        back = [1.0] * (size * size)
        fore = _coverage(_spade_polygon(), size, scale * 0.7, size * 0.15)
    else:
        back = _coverage(_rounded_rect(0, 0, 100, 100, 18), size, scale, 0.0)
        fore = _coverage(_spade_polygon(), size, scale, 0.0)
    out = bytearray(size * size * 4)
    for i in range(size * size):
        b = min(1.0, back[i])
        f = min(1.0, fore[i])
        a = b + f * (1 - b)
        for c in range(3):
            out[i * 4 + c] = round(bg[c] * (1 - f) + 255 * f)
        out[i * 4 + 3] = round(255 * a)
    return _png(size, out)


def icon_svg() -> str:
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            f'<rect width="100" height="100" rx="18" fill="{THEME}"/>'
            f'<path fill="#fff" d="{SPADE}"/></svg>\n')


ICONS = (("icon-192.png", 192, False), ("icon-512.png", 512, False),
         ("icon-maskable-512.png", 512, True))


def write_icons(dest: Path) -> None:
    """web/icons/: the SVG and the PNGs (cached in .cache/icons/ by this file's icon code)."""
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "icon.svg").write_text(icon_svg(), encoding="utf-8")
    key = hashlib.sha256((SPADE + THEME + repr(ICONS) + "1").encode()).hexdigest()[:16]
    cache = CACHE / "icons" / key
    for name, size, maskable in ICONS:
        if not (cache / name).exists():
            cache.mkdir(parents=True, exist_ok=True)
            (cache / name).write_bytes(icon_png(size, maskable))
        shutil.copy2(cache / name, dest / name)


def web_manifest(lang: str) -> dict:
    name, short, desc = APP_NAMES[lang]
    other = "pl" if lang == "en" else "en"
    return {
        "id": "./", "name": name, "short_name": short, "description": desc, "lang": lang,
        "start_url": "./", "scope": "./", "display": "standalone", "orientation": "any",
        "theme_color": THEME, "background_color": "#f4efe4",
        "icons": [{"src": "web/icons/icon.svg", "sizes": "any", "type": "image/svg+xml"},
                  {"src": "web/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
                  {"src": "web/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
                  {"src": "web/icons/icon-maskable-512.png", "sizes": "512x512",
                   "type": "image/png", "purpose": "maskable"}],
        "name_localized": {other: APP_NAMES[other][0]},
        "short_name_localized": {other: APP_NAMES[other][1]},
        "description_localized": {other: APP_NAMES[other][2]},
    }


def build_id(dist: Path) -> str:
    """The hash of every file of dist/ but build.json and sw.js (which carry it)."""
    h = hashlib.sha256()
    for p in sorted(x for x in dist.rglob("*") if x.is_file()):
        rel = p.relative_to(dist).as_posix()
        if rel in ("web/build.json", "sw.js"):
            continue
        h.update(rel.encode() + b"\0")
        h.update(hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()[:16]


SW_SCRIPT = r"""
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
const [dist, cacheId, modules] = process.argv.slice(2);
const require = createRequire(join(modules, "workbox-build", "package.json"));
const { generateSW } = require("workbox-build");
// HEAD requests (the worker's check that the runtime files exist) answered from this build's
// precache, so that they work offline and never reach a newer build on the server
const head = new Function("return async ({ request }) => {" +
  "const c = await caches.open(" + JSON.stringify(cacheId + "-precache-v2-") +
  " + self.registration.scope);" +
  "const r = await c.match(request.url, { ignoreSearch: true });" +
  "return r ? new Response(null, { status: r.status, headers: r.headers }) : fetch(request); }")();
const r = await generateSW({
  globDirectory: dist, globPatterns: ["**/*"], swDest: join(dist, "sw.js"),
  cacheId, inlineWorkboxRuntime: true, mode: "production", sourcemap: false,
  maximumFileSizeToCacheInBytes: 256 * 1024 * 1024, cleanupOutdatedCaches: true,
  clientsClaim: false, skipWaiting: false, navigationPreload: false,
  ignoreURLParametersMatching: [/^debug$/, /^__WB_REVISION__$/],
  manifestTransforms: [async (entries) => ({ manifest: entries.map((e) => ({ ...e,
    integrity: "sha384-" +
      createHash("sha384").update(readFileSync(join(dist, e.url))).digest("base64") })),
    warnings: [] })],
  runtimeCaching: [{ urlPattern: ({ request }) => request.method === "HEAD", method: "HEAD",
                     handler: head }],
});
process.stdout.write(JSON.stringify({ count: r.count, size: r.size, warnings: r.warnings }));
"""


def write_service_worker(dist: Path = DIST) -> dict | None:
    """The build id into web/build.json, then sw.js (generateSW) precaching all of ``dist``.
    Returns generateSW's counts, or None without Node (the site then works online only)."""
    node = shutil.which("node") or shutil.which("nodejs")
    modules = ROOT / "node_modules"
    info_path = dist / "web" / "build.json"
    info = json.loads(info_path.read_text(encoding="utf-8"))
    (dist / "sw.js").unlink(missing_ok=True)
    info["build"] = build_id(dist)
    info_path.write_text(json.dumps(info, indent=1), encoding="utf-8")
    if node is None or not (modules / "workbox-build").is_dir():
        log("node or node_modules/workbox-build is missing: no service worker (online only)")
        return None
    with tempfile.TemporaryDirectory(prefix="atut-sw-") as tmp:
        script = Path(tmp) / "sw.mjs"
        script.write_text(SW_SCRIPT, encoding="utf-8")
        r = subprocess.run([node, str(script), str(dist), "atut-" + info["build"], str(modules)],
                           cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        tail = (r.stderr or r.stdout).strip().splitlines()[-5:]
        raise BuildError("workbox-build generateSW failed: " + " | ".join(tail))
    out = json.loads(r.stdout)
    if out.get("warnings"):
        raise BuildError("generateSW warnings: " + "; ".join(out["warnings"]))
    return out


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


@contextmanager
def served_dist():
    """The page the browser tests and benchmarks open: ``ATUT_DIST`` (a copy of dist/) or
    dist/, built first unless ``ATUT_DIST_BUILT`` says it is, served on a free localhost port in
    a thread; yields its base URL and stops the server at the end."""
    dist = Path(os.environ.get("ATUT_DIST") or DIST).resolve()
    if not (os.environ.get("ATUT_DIST_BUILT") and (dist / "index.html").exists()):
        build(quiet=True)
        dist = DIST
    srv, url = serve_in_thread(dist)
    try:
        yield url
    finally:
        srv.shutdown()
        srv.server_close()


def launch_chromium(playwright):
    """Headless Chromium (``CHROMIUM``, ``CHROMIUM_ARGS``) from a ``sync_playwright()``."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                      args=CHROMIUM_ARGS)


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
    stamp = VENV / ".atut-requirements"
    want = REQUIREMENTS.read_text(encoding="utf-8")
    if not stamp.exists() or stamp.read_text(encoding="utf-8") != want:
        log("installing requirements-dev.txt into .venv (pip)")
        r = subprocess.run([str(py), "-m", "pip", "install", "-q", "-r", str(REQUIREMENTS)])
        if r.returncode != 0:
            raise BuildError("pip could not install requirements-dev.txt into .venv")
        stamp.write_text(want, encoding="utf-8")
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


def lint() -> int:
    """ruff on the Python (pyproject.toml's [tool.ruff]), eslint on the page (eslint.config.js)."""
    py = ensure_venv()
    ensure_npm_packages()
    failed = []
    log("ruff check .")
    if subprocess.run([str(py), "-m", "ruff", "check", "."], cwd=ROOT).returncode != 0:
        failed.append("ruff")
    eslint = ROOT / "node_modules" / ".bin" / "eslint"
    log("eslint web")
    if subprocess.run([str(eslint), "web"], cwd=ROOT).returncode != 0:
        failed.append("eslint")
    if failed:
        print(f"build.py: {' and '.join(failed)} found problems (see above)", file=sys.stderr)
        return 1
    return 0


def test(args: list[str]) -> int:
    py = ensure_venv()
    ensure_npm_packages()
    ensure_chromium()
    if lint() != 0:
        return 1
    build()
    env = dict(os.environ, ATUT_DIST_BUILT="1")
    cmd = [str(py), "-m", "pytest", "tests", "-q", *args]
    log(" ".join(["pytest", "tests", "-q", *args]))
    r = subprocess.run(cmd, cwd=ROOT, env=env)
    if r.returncode == 5:
        print("build.py test: pytest collected no tests: that is a failure", file=sys.stderr)
        return 1
    return r.returncode


def browser_script(name: str, args: list[str]) -> int:
    """Build dist/ and run tests/browser/<name>.py (a benchmark or soak command) in .venv."""
    py = ensure_venv()
    ensure_npm_packages()
    ensure_chromium()
    build()
    return subprocess.run([str(py), str(ROOT / "tests" / "browser" / f"{name}.py"), *args],
                          cwd=ROOT, env=dict(os.environ, ATUT_DIST_BUILT="1")).returncode


def bench_bots(args: list[str]) -> int:
    """Bot decision times in Pyodide (Node, the pinned npm package) and CPython side by side:
    tools/bench_bots.py (see its docstring for the options)."""
    py = ensure_venv()
    ensure_npm_packages()
    build()
    return subprocess.run([str(py), str(ROOT / "tools" / "bench_bots.py"), *args], cwd=ROOT,
                          env=dict(os.environ, ATUT_DIST_BUILT="1")).returncode


BROWSER_SCRIPTS = {"bench-page": "bench_page", "soak-page": "soak_page", "bench-aids": "bench_aids",
                   "bench-lab": "bench_lab", "bench-pool": "bench_pool"}


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
        if cmd == "lint":
            return lint()
        if cmd == "bench-bots":
            return bench_bots(argv[1:])
        if cmd in BROWSER_SCRIPTS:
            return browser_script(BROWSER_SCRIPTS[cmd], argv[1:])
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
