"""The tools the build and the tests need, each set up once: .venv/ with requirements-dev.txt,
node_modules/ as package-lock.json pins it (npm ci), Chromium for the browser tests; on a
Debian machine run as root (CI) what is missing comes from apt-get."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .common import NODE_MODULES, ROOT, BuildError, log
from .pyodide import PYODIDE_VERSION, pyodide_ok

VENV = ROOT / ".venv"
REQUIREMENTS = ROOT / "requirements-dev.txt"
CHROMIUM = "/usr/bin/chromium"
# headless flags of the browser tests and benchmarks (Debian's chromium, often run as root)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


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
    """.venv/ with requirements-dev.txt installed (again when the file changes); its python."""
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


def _lock_digest() -> str:
    lock = ROOT / "package-lock.json"
    return hashlib.sha256(lock.read_bytes()).hexdigest() if lock.exists() else ""


def ensure_npm_packages() -> None:
    """node_modules/ as package-lock.json pins it (npm ci once per lock file)."""
    stamp = NODE_MODULES / ".atut-lock"
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


def launch_chromium(playwright):
    """Headless Chromium (``CHROMIUM``, ``CHROMIUM_ARGS``) from a ``sync_playwright()``."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                      args=CHROMIUM_ARGS)
