"""The web app manifests, manifest.webmanifest (English) and manifest.pl.webmanifest (Polish),
which make the page installable.  Their icons are committed files, web/icons/ (a white spade on
a green rounded square, the logo of index.html: icon.svg and PNGs of 192 and 512 pixels, one of
them maskable with the spade inside the safe zone); the build copies them with the rest of
web/."""

from __future__ import annotations

import json
from pathlib import Path

THEME = "#0b5d3b"
APP_NAMES = {
    "en": ("Atut: trick-taking card games", "Atut",
           "Five trick-taking card games against bots, offline in your browser."),
    "pl": ("Atut: gry karciane w lewy", "Atut",
           "Pięć gier karcianych w lewy przeciw botom, bez internetu, w przeglądarce."),
}


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


def write_manifests(dist: Path) -> None:
    for lang in APP_NAMES:
        name = "manifest.webmanifest" if lang == "en" else f"manifest.{lang}.webmanifest"
        (dist / name).write_text(json.dumps(web_manifest(lang), ensure_ascii=False, indent=1),
                                 encoding="utf-8")
