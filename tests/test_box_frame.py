"""The browser box's frame (web/box/box.html, docs/LAB.md "Boxes"): its Content-Security-Policy
forbids every request and lets run only its own inline script (by hash) and blob: workers, and
the frame is sandboxed without allow-same-origin by the page (web/lib/box.js)."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FRAME = ROOT / "web" / "box" / "box.html"


def policy(html: str) -> dict[str, list[str]]:
    m = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html)
    assert m, "box.html has no Content-Security-Policy"
    out = {}
    for part in m.group(1).split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def inline_hash(html: str) -> str:
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert len(scripts) == 1, "box.html has exactly one inline script"
    digest = hashlib.sha256(scripts[0].encode()).digest()
    return "'sha256-" + base64.b64encode(digest).decode() + "'"


def test_box_frame_policy_forbids_every_request():
    p = policy(FRAME.read_text(encoding="utf-8"))
    assert p["default-src"] == ["'none'"]
    assert p["connect-src"] == ["'none'"]
    assert p["worker-src"] == ["blob:"]
    assert "'self'" not in p["script-src"] and "'unsafe-inline'" not in p["script-src"]
    assert "'unsafe-eval'" not in p["script-src"]
    assert p["base-uri"] == ["'none'"] and p["form-action"] == ["'none'"]


def test_box_frame_script_hash_matches_its_inline_script():
    html = FRAME.read_text(encoding="utf-8")
    assert inline_hash(html) in policy(html)["script-src"]


def test_box_is_sandboxed_without_same_origin():
    js = (ROOT / "web" / "lib" / "box.js").read_text(encoding="utf-8")
    assert 'setAttribute("sandbox", "allow-scripts")' in js
    assert "allow-same-origin" not in js.split("*/")[-1].replace("no allow-same-origin", "")


if __name__ == "__main__":                     # rewrite the hash after editing the script
    html = FRAME.read_text(encoding="utf-8")
    FRAME.write_text(re.sub(r"'sha256-[^']+'", inline_hash(html), html, count=1), encoding="utf-8")
