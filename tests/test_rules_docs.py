"""The rules notes ``docs/rules/<game>.md`` are the one source of the rules inside the repository.

Each notes file restates every rule id of the shared specification (``../shared/rules/`` next
to the repository: gap resolutions ``G<n>`` and worked examples ``E<n>``) as an entry of a
regular structure, and every id that the game's code or tests cite is one of its entries.

The structure (``parse_rules_doc`` reads it; a page generator may reuse it)::

    ## Rules                         <- a section (level-2 heading)
    ### Bidding                      <- a group (level-3 heading), optional
    - **G8** The rule in our words ...
      continued on lines indented by two spaces.
      - Our reading: how we resolve it, where a common variant differs.
      - Common variant: what other tables do.
      - Code: `_bid`, `_pass`
    ## Worked examples
    - **E4** The set-up in brief.
      - Outcome: what must happen.

An entry is a top-level list item that starts with a bold id.  Its nested list items of the
form ``Label: text`` are its notes (a label starts with a capital letter); lines indented by
four spaces continue the last note, lines indented by two spaces continue the entry's text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_RULES = REPO.parent / "shared" / "rules"
DOCS = REPO / "docs" / "rules"

# game id -> shared specification file
SPECS = {
    "cesarz": "000-cesarz.md",
    "euchre": "001-euchre.md",
    "imperial": "002-imperial.md",
    "tysiac1001": "003-tysiac-1001.md",
    "sixty_six": "004-sixty-six.md",
}

# labels of notes that the page may show; Outcome belongs to worked examples
NOTE_LABELS = {"Our reading", "Common variant", "Literal seed", "Code", "Test", "Outcome"}

ID_RE = re.compile(r"(?<![A-Za-z0-9])([GE][1-9]\d*)(?![0-9])")    # G14, test_G14_x, G14.3
NOQA_RE = re.compile(r"#\s*noqa\b.*$", re.M)                       # flake8 codes such as E731
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_ENTRY = re.compile(r"^- \*\*([GE][1-9]\d*)\*\*\s*(.*)$")
_NOTE = re.compile(r"^  - ([A-Z][A-Za-z ]*?):\s*(.*)$")


def parse_rules_doc(text: str) -> dict[str, dict]:
    """The entries of a rules notes file, by id, in file order.

    Each entry: ``id``, ``kind`` (``"G"`` rule / gap resolution, ``"E"`` worked example),
    ``section`` (the level-2 heading above it), ``group`` (the level-3 heading, or ``None``),
    ``text`` (the entry's own text, lines joined) and ``notes`` ({label: text}, in order).
    A duplicate id raises ``ValueError``.
    """
    entries: dict[str, dict] = {}
    section = group = None
    cur = note = None
    for line in text.splitlines():
        m = _HEADING.match(line)
        if m:
            cur = note = None
            level = len(m.group(1))
            if level == 2:
                section, group = m.group(2), None
            elif level == 3:
                group = m.group(2)
            continue
        m = _ENTRY.match(line)
        if m:
            rid = m.group(1)
            if rid in entries:
                raise ValueError(f"{rid} has two entries")
            cur = entries[rid] = {"id": rid, "kind": rid[0], "section": section,
                                  "group": group, "text": m.group(2).strip(), "notes": {}}
            note = None
            continue
        if cur is None:
            continue
        m = _NOTE.match(line)
        if m:
            note = m.group(1)
            cur["notes"][note] = m.group(2).strip()
        elif line.startswith("    ") and note is not None:
            cur["notes"][note] += " " + line.strip()
        elif line.startswith("  ") and line.strip() and note is None:
            cur["text"] += " " + line.strip()
        else:
            cur = note = None
    return entries


def spec_text(game: str) -> str:
    if not SHARED_RULES.is_dir():
        pytest.fail(f"the shared rules folder {SHARED_RULES} is missing: it must lie next to the "
                    f"repository (../shared/rules), as in CI", pytrace=False)
    path = SHARED_RULES / SPECS[game]
    if not path.is_file():
        pytest.fail(f"the shared rules file {path} is missing", pytrace=False)
    return path.read_text(encoding="utf-8")


def spec_ids(game: str) -> set[str]:
    """Every rule id the shared specification names (defines or cites)."""
    return set(ID_RE.findall(spec_text(game)))


def cited_ids(game: str) -> dict[str, list[str]]:
    """id -> the files of the game's code and tests that cite it."""
    files = [REPO / "engine" / "atut" / "games" / f"{game}.py",
             REPO / "engine" / "atut" / "bots" / f"{game}.py",
             *sorted((REPO / "tests").glob(f"test_{game}*.py")),
             *sorted((REPO / "tests").glob(f"test_bots_{game}*.py"))]
    out: dict[str, list[str]] = {}
    for f in files:
        if not f.is_file():
            continue
        text = NOQA_RE.sub("", f.read_text(encoding="utf-8"))
        for rid in sorted(set(ID_RE.findall(text))):
            out.setdefault(rid, []).append(str(f.relative_to(REPO)))
    return out


def doc_entries(game: str) -> dict[str, dict]:
    return parse_rules_doc((DOCS / f"{game}.md").read_text(encoding="utf-8"))


def _order(ids):
    return sorted(ids, key=lambda r: (r[0], int(r[1:])))


def test_every_shared_spec_belongs_to_a_game():
    spec_text("cesarz")                                        # fails clearly when missing
    files = {p.name for p in SHARED_RULES.glob("*.md")} - {"README.md"}
    assert files == set(SPECS.values())


@pytest.mark.parametrize("game", SPECS)
def test_every_spec_id_is_an_entry(game):
    ids = spec_ids(game)
    assert any(r.startswith("G") for r in ids) and any(r.startswith("E") for r in ids)
    entries = doc_entries(game)
    missing = _order(ids - entries.keys())
    assert not missing, f"docs/rules/{game}.md lacks entries for {missing}"
    extra = _order(entries.keys() - ids)
    assert not extra, f"docs/rules/{game}.md has entries the spec does not know: {extra}"


@pytest.mark.parametrize("game", SPECS)
def test_every_cited_id_is_an_entry(game):
    entries = doc_entries(game)
    missing = {r: fs for r, fs in cited_ids(game).items() if r not in entries}
    assert not missing, f"cited in code or tests, absent from docs/rules/{game}.md: {missing}"


@pytest.mark.parametrize("game", SPECS)
def test_entries_are_regular(game):
    entries = doc_entries(game)
    for rid, e in entries.items():
        assert e["text"], f"{rid}: no text"
        assert e["section"], f"{rid}: not under a heading"
        assert set(e["notes"]) <= NOTE_LABELS, f"{rid}: unknown note labels {set(e['notes'])}"
        assert all(e["notes"].values()), f"{rid}: an empty note"
        if e["kind"] == "E":
            assert e["section"] == "Worked examples", f"{rid}: not under 'Worked examples'"
            assert e["notes"].get("Outcome"), f"{rid}: no Outcome"
        else:
            assert e["section"] != "Worked examples", f"{rid}: a rule among the examples"
            assert "Outcome" not in e["notes"], f"{rid}: a rule has no Outcome"
    # the gap resolutions that depart from a common variant or from the seed say so
    assert any({"Our reading", "Common variant"} & set(e["notes"]) for e in entries.values())


def _prose(text: str) -> list[str]:
    """The lower-case words of ``text`` (card codes, numbers and signs dropped)."""
    return re.findall(r"(?<![\w`])[a-z][a-z'-]*(?![\w`])", re.sub(r"[*]", "", text))


@pytest.mark.parametrize("game", SPECS)
def test_entries_restate_not_copy(game):
    """No entry copies a run of 12 words of the specification's prose."""
    spec = " " + " ".join(_prose(spec_text(game))) + " "
    copied = []
    for rid, e in doc_entries(game).items():
        words = _prose(" ".join([e["text"], *e["notes"].values()]))
        runs = (" ".join(words[i:i + 12]) for i in range(len(words) - 11))
        copied += [f"{rid}: {run}" for run in runs if f" {run} " in spec]
    assert not copied, "entries copying the spec verbatim:\n" + "\n".join(copied)


@pytest.mark.parametrize("game", SPECS)
def test_header_restates_not_defers(game):
    head = (DOCS / f"{game}.md").read_text(encoding="utf-8").split("\n\n")[1].lower()
    assert "binding" not in head
    assert "restate" in head and SPECS[game] in head


def test_parser_reads_the_structure():
    text = ("# T\n\n## Rules\n\n### Bidding\n\n- **G8** Raise by ten;\n  a pass is final.\n"
            "  - Our reading: no jumps.\n  - Common variant: jumps\n    are allowed.\n"
            "- **G9** Shown.\n\nprose\n\n## Worked examples\n\n- **E1** Set-up.\n"
            "  - Outcome: +5.\n")
    got = parse_rules_doc(text)
    assert list(got) == ["G8", "G9", "E1"]
    assert got["G8"] == {"id": "G8", "kind": "G", "section": "Rules", "group": "Bidding",
                         "text": "Raise by ten; a pass is final.",
                         "notes": {"Our reading": "no jumps.",
                                   "Common variant": "jumps are allowed."}}
    assert got["G9"]["text"] == "Shown." and got["G9"]["notes"] == {}
    assert got["E1"]["section"] == "Worked examples" and got["E1"]["group"] is None
    assert got["E1"]["notes"] == {"Outcome": "+5."}
    with pytest.raises(ValueError):
        parse_rules_doc("- **G1** a\n- **G1** b\n")
