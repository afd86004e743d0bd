"""build.py: the wheel, dist/ (runtime files, micropip, relative URLs only) and the server's MIME
types.  No browser needed."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import urllib.request
import zipfile

import build


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
    # the same sources give the same bytes
    again = build.build_wheel(tmp_path / "again")
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
    # our own files name no other origin and no absolute path
    ours = [d / "index.html"] + [p for p in (d / "web").rglob("*")
                                 if p.suffix in (".js", ".css", ".html", ".py")
                                 and "pyodide" not in p.parts]
    for p in ours:
        text = p.read_text(encoding="utf-8")
        assert not re.search(r"https?://", text.replace("http://www.w3.org/2000/svg", "")), p
        assert not re.search(r"""(src|href)=["']/""", text), p


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
