"""No source file or doc cites an issue number.

A reader of the repository cannot follow "issue 18" or "(#17)": the tracker is not part of it.
Comments, docstrings and docs say what they are about ("the pool of search workers", "hostile
input") and cite rule ids (``G14``, ``E7``, ``docs/rules/<game>.md``) and docs instead.

The scan is by line, over the tracked files (``git ls-files``; a walk of the same folders when
there is no git) ending in .py, .js, .mjs, .css, .html or .md.  A line is a hit when it holds

- the word issue, pull request or PR followed by a number ("issue 18", "Issue #17",
  "issues 14", "issue-21", "PR 3"; not a name such as ``pr2`` or ``prs - 1``), or
- ``#`` and one or two digits standing alone ("(#18)", "#15,"): not after a letter, digit,
  ``&``, ``#``, ``/``, ``.`` or ``-`` (so ``worker.js#1``, ``&#39;`` and ``page#12`` are not
  hits) and not followed by a letter or digit (so the colours ``#1b1b1b``, ``#999`` and
  ``#0b5d3b`` are not), or
- ``(#`` and any number of digits followed by ``)`` ("(#123)").

Rule ids (``G14``, ``E17``) have no ``#`` and no "issue" and are never hits.  Lines that must
keep such a text (none today) go into ``ALLOWED`` with the reason.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXTENSIONS = (".py", ".js", ".mjs", ".css", ".html", ".md")
FOLDERS = ("engine", "web", "tools", "tests", "scripts", "docs")
TOP_FILES = ("build.py", "README.md", "index.html", "eslint.config.js")
SKIP_DIRS = {"node_modules", "dist", ".venv", ".cache", "__pycache__", ".git", "build"}

CITATION = re.compile(
    r"\b(?:issues?|pull\s+requests?|(?-i:PRs?))(?:\s*#\s*|\s+(?:no\.?\s*|number\s*)?|-)\d+"
    r"|(?<![\w&#/.-])#\d{1,2}(?![\w])"
    r"|\(#\d+\)",
    re.IGNORECASE,
)

# (path relative to the root, a piece of the line) -> why the line may stay as it is.
ALLOWED: dict[tuple[str, str], str] = {}

# This file explains the pattern with examples of what it catches.
SELF = Path(__file__).resolve().relative_to(ROOT).as_posix()


def source_files() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode()
        files = [f for f in out.split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = list(TOP_FILES)
        for folder in FOLDERS:
            for here, dirs, names in os.walk(ROOT / folder):
                dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
                files += [(Path(here) / n).relative_to(ROOT).as_posix() for n in names]
    return sorted(f for f in files
                  if f.endswith(EXTENSIONS) and (ROOT / f).is_file()
                  and not set(Path(f).parts) & SKIP_DIRS and f != SELF)


def citations(text: str) -> list[str]:
    return [m.group(0) for m in CITATION.finditer(text)]


@pytest.mark.parametrize("line, found", [
    ("# the pool of search workers (#18)", ["(#18)"]),
    ('"""Hostile URL hashes (issue #19): the link cut', ["issue #19"]),
    ("// Your bot at the table (#15): the bot", ["(#15)"]),
    ("    \"\"\"Issue 14, 'Why did the bot do that?'", ["Issue 14"]),
    ("/* --- start-up (#18) --- */", ["(#18)"]),
    ("see issues 14 and 15", ["issues 14"]),
    ("as PR 7 did", ["PR 7"]),
    ("fixed in issue-21", ["issue-21"]),
    ("pr2 = pr1 + 1  # a PRNG of its own", []),
    ("left = prs - 1 if prs else 0", []),
    ("fixed in #7, later", ["#7"]),
    ("an old bug (#123)", ["(#123)"]),
    ('THEME = "#0b5d3b"', []),
    ('fill="#fff" stroke="#999"', []),
    ('const C = { RED: "#c62828", BLACK: "#1b1b1b" };', []),
    ("'&#39;'", []),
    ('"worker.js#1", "lab-worker.js#2", w.startswith("search#")', []),
    ("a refusal names the rule (G14, E17 of docs/rules/euchre.md)", []),
    ("the link #game=euchre&seat=1, and #lab=euchre", []),
    ("the issue's invariants; an issue with the save", []),
])
def test_the_pattern_tells_citations_from_colours_ids_and_rule_ids(line, found):
    assert citations(line) == found


def test_the_scan_sees_the_sources():
    files = source_files()
    for expected in ("README.md", "engine/atut/game.py", "web/style.css", "tests/helpers.py"):
        assert expected in files
    assert not [f for f in files if f.startswith(("node_modules/", "dist/"))]


def test_no_comment_cites_an_issue_number():
    hits = []
    for name in source_files():
        text = (ROOT / name).read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            found = citations(line)
            if found and not any(p == name and piece in line for (p, piece) in ALLOWED):
                hits.append(f"{name}:{number}: {', '.join(found)}: {line.strip()[:100]}")
    assert not hits, ("issue numbers cited (say what it is about, cite a rule id or a doc):\n"
                      + "\n".join(hits))
