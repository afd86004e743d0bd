"""build.py and tools/build/: the wheel (the same bytes from the same sources), dist/ (the page
and exactly the files the build makes; runtime files, micropip, relative URLs only), the usage
text and the server's MIME types.  No browser needed."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import sys
import urllib.request
import zipfile

import build
from tools.build import commands
from tools.build.pyodide import openskill_version


def test_wheel_is_pure_and_its_record_is_right(tmp_path):
    whl = build.build_wheel(tmp_path)
    assert whl.name == f"atut-{build.project_version()}-py3-none-any.whl"
    with zipfile.ZipFile(whl) as z:
        names = z.namelist()
        info = f"atut-{build.project_version()}.dist-info"
        assert "atut/__init__.py" in names and "atut/games/sixty_six.py" in names
        assert all(n.startswith(("atut/", info + "/")) for n in names)
        assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
        wheel = z.read(f"{info}/WHEEL").decode()
        assert "Tag: py3-none-any" in wheel and "Root-Is-Purelib: true" in wheel
        record = z.read(f"{info}/RECORD").decode().splitlines()
        listed = {}
        for line in record:
            path, digest, size = line.rsplit(",", 2)
            listed[path] = (digest, size)
        assert set(listed) == set(names)
        for n in names:
            if n.endswith("RECORD"):
                continue
            data = z.read(n)
            want = "sha256=" + base64.urlsafe_b64encode(
                hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert listed[n] == (want, str(len(data))), n
    # the same sources give the same bytes, whatever the files' times (SOURCE_DATE_EPOCH)
    src = build.ROOT / "engine" / "atut" / "__init__.py"
    st = src.stat()
    try:
        os.utime(src, (st.st_atime, st.st_mtime + 86400 * 400))
        again = build.build_wheel(tmp_path / "again")
    finally:
        os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert again.read_bytes() == whl.read_bytes()


def _record_ok(z: zipfile.ZipFile, info: str) -> None:
    listed = {}
    for line in z.read(f"{info}/RECORD").decode().splitlines():
        path, digest, size = line.rsplit(",", 2)
        listed[path] = (digest, size)
    assert set(listed) == set(z.namelist())
    for n in z.namelist():
        if not n.endswith("RECORD"):
            data = z.read(n)
            want = "sha256=" + base64.urlsafe_b64encode(
                hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert listed[n] == (want, str(len(data))), n


def test_wheel_with_byte_code_is_repacked_with_a_right_record(tmp_path):
    """The byte code for Pyodide goes in through `wheel unpack` / `wheel pack`, which rewrites
    RECORD: every file, the .pyc included, is listed with its hash, and the tag stays pure."""
    pyc = tmp_path / "pyc"
    (pyc / "__pycache__").mkdir(parents=True)
    (pyc / "games" / "__pycache__").mkdir(parents=True)
    (pyc / "__pycache__" / "game.cpython-314.pyc").write_bytes(b"not really byte code")
    (pyc / "games" / "__pycache__" / "euchre.cpython-314.pyc").write_bytes(b"\x00" * 64)
    whl = build.build_wheel(tmp_path / "a", pyc)
    info = f"atut-{build.project_version()}.dist-info"
    with zipfile.ZipFile(whl) as z:
        names = z.namelist()
        assert "atut/__pycache__/game.cpython-314.pyc" in names
        assert "atut/games/__pycache__/euchre.cpython-314.pyc" in names
        assert "atut/games/euchre.py" in names
        assert "Tag: py3-none-any" in z.read(f"{info}/WHEEL").decode()
        _record_ok(z, info)
    assert build.build_wheel(tmp_path / "b", pyc).read_bytes() == whl.read_bytes()


def test_dist_has_the_runtime_micropip_and_relative_urls_only(dist_url):
    d = build.DIST
    for f in build.PYODIDE_FILES:
        assert (d / "web" / "pyodide" / f).is_file(), f
    manifest = json.loads((d / "web" / "build.json").read_text())
    wheel = d / "web" / manifest["wheel"]
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == manifest["wheel_sha256"]
    # micropip ships with a lock entry that matches the shipped wheel
    lock = json.loads((d / "web" / "pyodide" / "pyodide-lock.json").read_text())
    entry = lock["packages"]["micropip"]
    mp = d / "web" / "pyodide" / entry["file_name"]
    assert mp.is_file() and entry["version"] == build.MICROPIP_VERSION
    assert hashlib.sha256(mp.read_bytes()).hexdigest() == entry["sha256"]
    # openskill (the lab's tournament board) as its pure-Python wheel at the pinned version
    osk = d / "web" / manifest["openskill"]
    assert osk.name == f"openskill-{openskill_version()}-py3-none-any.whl" and osk.is_file()
    with zipfile.ZipFile(osk) as z:
        assert "Root-Is-Purelib: true" in z.read(
            f"openskill-{openskill_version()}.dist-info/WHEEL").decode()
    # our own files name no other origin and no absolute path
    ours = [d / "index.html"] + [p for p in (d / "web").rglob("*")
                                 if p.suffix in (".js", ".css", ".html", ".py")
                                 and "pyodide" not in p.parts]
    for p in ours:
        text = p.read_text(encoding="utf-8")
        assert not re.search(r"https?://", text.replace("http://www.w3.org/2000/svg", "")), p
        assert not re.search(r"""(src|href)=["']/""", text), p


def test_dist_holds_the_page_and_what_the_build_makes_nothing_else(dist_url):
    """dist/ = index.html, the files of web/ (as they are, but the lab's bundle entry) and the
    files the build makes; a step that drops a file or leaves a stray one fails here."""
    d, root = build.DIST, build.ROOT
    have = {p.relative_to(d).as_posix() for p in d.rglob("*") if p.is_file()}
    page = {"web/" + p.relative_to(root / "web").as_posix() for p in (root / "web").rglob("*")
            if p.is_file() and p.suffix != ".pyc"
            and not any(x == "__pycache__" or x.startswith(".")
                        for x in p.relative_to(root / "web").parts)}
    page -= {"web/lab/editor-entry.js"}
    made = {"index.html", "manifest.webmanifest", "manifest.pl.webmanifest", "sw.js",
            "web/build.json", f"web/wheels/atut-{build.project_version()}-py3-none-any.whl",
            f"web/pyodide/micropip-{build.MICROPIP_VERSION}-py3-none-any.whl",
            f"web/wheels/openskill-{openskill_version()}-py3-none-any.whl",
            "web/pyodide/snapshot.bin.gz", "web/lab/editor.js", "web/lab/editor.css",
            "web/lab/THIRD-PARTY-LICENSES.txt"}
    made |= {f"web/pyodide/{f}" for f in build.PYODIDE_FILES}
    made |= {f"web/rules/{md.stem}.{lang}.json" for md in (root / "docs" / "rules").glob("*.md")
             for lang in ("en", "pl")}
    want = page | made
    assert not want - have, f"missing from dist/: {sorted(want - have)}"
    assert not have - want, f"not made by the build: {sorted(have - want)}"
    assert {"web/icons/icon.svg", "web/icons/icon-192.png"} <= have


def test_usage_names_every_command():
    out = subprocess.run([sys.executable, str(build.ROOT / "build.py"), "--help"],
                         capture_output=True, text=True, check=True).stdout
    for cmd in ["serve", "test", "lint", *commands.SCRIPTS]:
        assert f"python3 build.py {cmd}" in out, cmd
    bad = subprocess.run([sys.executable, str(build.ROOT / "build.py"), "no-such-command"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown command" in bad.stderr


def test_package_lock_pins_pyodide_without_resolved_urls():
    lock = json.loads((build.ROOT / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/pyodide"]["version"] == build.PYODIDE_VERSION
    pkg = json.loads((build.ROOT / "package.json").read_text())
    assert pkg["dependencies"]["pyodide"] == build.PYODIDE_VERSION
    text = (build.ROOT / "package-lock.json").read_text()
    assert '"resolved"' not in text and "://" not in text


def test_server_mime_types(dist_url):
    want = {"web/pyodide/pyodide.asm.wasm": "application/wasm",
            "web/pyodide/pyodide.mjs": "text/javascript",
            "web/app.js": "text/javascript",
            "index.html": "text/html",
            "web/style.css": "text/css"}
    for path, mime in want.items():
        with urllib.request.urlopen(dist_url + path) as r:
            assert r.headers["Content-Type"].startswith(mime), (path, r.headers["Content-Type"])
