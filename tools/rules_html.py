"""The rules page's data, generated at build time from ``docs/rules/<game>.md`` (the one source
of the rules; see tests/test_rules_docs.py for its structure): for each game and language a JSON
file ``web/rules/<game>.<lang>.json`` that web/lib/rules.js renders.

What is taken: the title, the Summary, the Rules (each entry under its id, with its notes "Our
reading", "Common variant", "Literal seed") and the Worked examples (with their "Outcome");
the developer notes (Code, Test) and the other sections (actions, view, bots, audits) are left
out.  An entry with a "Common variant" or "Our reading" note is marked ``departs``: the page
says plainly that our reading differs from a common variant.

Polish lives in the same file, in a part the structure test's parser skips (its entries do not
start with a bold id)::

    ## Po polsku

    ### Tytuł
    Sześćdziesiąt sześć (66)

    ### Podsumowanie
    Paragraphs …

    ### Nagłówki
    - Players, cards and deal = Gracze, karty i rozdanie

    ### Reguły
    - [G1] The rule in Polish …
      - Nasze odczytanie: …
      - Częsty wariant: …
      - Dosłownie w opisie: …
    - [E1] A worked example in Polish …
      - Wynik: …

Rules (G) and worked examples (E) alike are paired with the English entry by id; their notes are
paired by label.  An entry without its Polish text keeps the English one, marked ``lang: "en"``
(the page then shows its "shown in English" notice; with every entry translated it shows none).
tests/test_rules_polish.py checks that every game's entries all have their Polish text.
A tiny Markdown subset is rendered: paragraphs, `code`, **bold**, *italic*.

Standard library only.  ``write_rules(docs_dir, out_dir)`` is called by the build
(tools/build/dist.py); ``python3 tools/rules_html.py OUT`` writes them by hand.
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

LANGS = ("en", "pl")
SHOWN_NOTES = ("Our reading", "Common variant", "Literal seed", "Outcome")
PL_NOTES = {"Nasze odczytanie": "Our reading", "Częsty wariant": "Common variant",
            "Dosłownie w opisie": "Literal seed", "Wynik": "Outcome"}
NOTE_WORDS = {
    "en": {"Our reading": "Our reading", "Common variant": "Common variant",
           "Literal seed": "The description literally", "Outcome": "Outcome"},
    "pl": {"Our reading": "Nasze odczytanie", "Common variant": "Częsty wariant",
           "Literal seed": "Dosłownie w opisie", "Outcome": "Wynik"},
}
PL_PART = "Po polsku"

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_ENTRY = re.compile(r"^- \*\*([GE][1-9]\d*)\*\*\s*(.*)$")
_PL_ENTRY = re.compile(r"^- \[([GE][1-9]\d*)\]\s*(.*)$")
_NOTE = re.compile(r"^  - ([A-ZĄĆĘŁŃÓŚŹŻ][^:]*?):\s*(.*)$")


def inline(text: str) -> str:
    """A line of the Markdown subset as HTML (escaped first)."""
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"(?<![*\w])\*([^*]+)\*(?![*\w])", r"<i>\1</i>", out)
    return out


def paragraphs(lines: list[str]) -> str:
    paras, cur = [], []
    for line in lines + [""]:
        if line.strip():
            cur.append(line.strip())
        elif cur:
            paras.append("<p>" + inline(" ".join(cur)) + "</p>")
            cur = []
    return "".join(paras)


def _entries(lines, entry_re, note_map=None):
    """Entries (id, kind, text, notes) of a list in the doc's structure."""
    out, cur, note = {}, None, None
    for line in lines:
        m = entry_re.match(line)
        if m:
            cur = out[m.group(1)] = {"id": m.group(1), "text": m.group(2).strip(), "notes": {}}
            note = None
            continue
        if cur is None:
            continue
        m = _NOTE.match(line)
        if m:
            label = m.group(1)
            note = note_map.get(label, label) if note_map else label
            cur["notes"][note] = m.group(2).strip()
        elif line.startswith("    ") and note is not None:
            cur["notes"][note] += " " + line.strip()
        elif line.startswith("  ") and line.strip() and note is None:
            cur["text"] += " " + line.strip()
        else:
            cur = note = None
    return out


def parse(text: str) -> dict:
    """The parts of a rules notes file the page shows."""
    lines = text.splitlines()
    title = next((m.group(2) for m in map(_HEADING.match, lines) if m and len(m.group(1)) == 1), "")
    title = re.sub(r"\s+—\s+the project's rules$", "", title)
    sections: dict[str, list[str]] = {}
    order: list[str] = []
    cur = None
    for line in lines:
        m = _HEADING.match(line)
        if m and len(m.group(1)) == 2:
            cur = m.group(2)
            order.append(cur)
            sections[cur] = []
            continue
        if cur is not None:
            sections[cur].append(line)
    doc = {"title": title, "summary": sections.get("Summary", []), "parts": []}
    for name in ("Rules", "Worked examples"):
        groups, group, body = [], None, []
        for line in sections.get(name, []) + ["### "]:
            m = _HEADING.match(line) if line.startswith("###") else None
            if m or line == "### ":
                if body or group:
                    ents = _entries(body, _ENTRY)
                    if ents:
                        groups.append({"title": group, "entries": list(ents.values())})
                group, body = (m.group(2) if m else None), []
            else:
                body.append(line)
        doc["parts"].append({"title": name, "groups": groups})
    # the Polish part
    pl = {"title": "", "summary": [], "headings": {}, "entries": {}}
    sub, chunks = None, {}
    for line in sections.get(PL_PART, []):
        m = _HEADING.match(line)
        if m and len(m.group(1)) == 3:
            sub = m.group(2)
            chunks[sub] = []
        elif sub is not None:
            chunks[sub].append(line)
    pl["title"] = " ".join(x.strip() for x in chunks.get("Tytuł", []) if x.strip())
    pl["summary"] = chunks.get("Podsumowanie", [])
    for line in chunks.get("Nagłówki", []):
        if line.startswith("- ") and " = " in line:
            en, tr = line[2:].split(" = ", 1)
            pl["headings"][en.strip()] = tr.strip()
    pl["entries"] = _entries(chunks.get("Reguły", []), _PL_ENTRY, PL_NOTES)
    doc["pl"] = pl
    return doc


PART_WORDS = {"en": {"Rules": "Rules", "Worked examples": "Worked examples"},
              "pl": {"Rules": "Zasady", "Worked examples": "Przykłady"}}


def page_data(game: str, doc: dict, lang: str) -> dict:
    """The JSON the page renders for one game and language."""
    pl = doc["pl"] if lang == "pl" else None

    def heading(h):
        return (pl["headings"].get(h, h) if pl else h) if h else None

    parts = []
    for part in doc["parts"]:
        groups = []
        for g in part["groups"]:
            ents = []
            for e in g["entries"]:
                tr = pl["entries"].get(e["id"]) if pl else None
                src = tr or e
                notes = [{"label": NOTE_WORDS[lang][k], "kind": k, "html": inline(v)}
                         for k, v in src["notes"].items() if k in SHOWN_NOTES]
                ents.append({
                    "id": e["id"], "kind": e["id"][0], "html": inline(src["text"]),
                    "notes": notes,
                    "departs": any(k in e["notes"] for k in ("Our reading", "Common variant")),
                    "lang": lang if (lang == "en" or tr) else "en",
                })
            groups.append({"title": heading(g["title"]), "entries": ents})
        parts.append({"title": PART_WORDS[lang][part["title"]], "groups": groups})
    summary = pl["summary"] if pl and any(x.strip() for x in pl["summary"]) else doc["summary"]
    return {"game": game, "lang": lang,
            "title": (pl["title"] if pl and pl["title"] else doc["title"]),
            "summary": paragraphs(summary),
            "summary_lang": lang if (lang == "en" or summary is not doc["summary"]) else "en",
            "parts": parts}


def write_rules(docs_dir: Path, out_dir: Path) -> list[Path]:
    """web/rules/<game>.<lang>.json for every docs/rules/<game>.md; returns the files."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for md in sorted(Path(docs_dir).glob("*.md")):
        doc = parse(md.read_text(encoding="utf-8"))
        for lang in LANGS:
            path = out_dir / f"{md.stem}.{lang}.json"
            path.write_text(json.dumps(page_data(md.stem, doc, lang), ensure_ascii=False),
                            encoding="utf-8")
            written.append(path)
    return written


if __name__ == "__main__":
    root = Path(__file__).resolve().parents[1]
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "rules-out")
    for p in write_rules(root / "docs" / "rules", out):
        print(p)
