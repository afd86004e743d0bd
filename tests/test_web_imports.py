"""The page's ES modules (web/**/*.js) import one another without a cycle.

A cycle makes the order in which modules run depend on which one is loaded first; the page
avoids them by passing callbacks from its composition root (web/app.js) instead.  Every static
`import ... from "..."`, `export ... from "..."`, bare `import "..."` and dynamic `import("...")`
with a literal relative path counts (a dynamic import inside a cycle still ties the modules
together).
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"

# files the build adds (the lab's bundled editor, Pyodide): not the page's own modules
SKIP = {"web/lab/editor.js"}
BUILT = ("web/pyodide/",)

IMPORT = re.compile(
    r"""(?:^|[;\s}])(?:import|export)\s[^'"`;]*?\sfrom\s*(['"])([^'"]+)\1"""   # import x from "y"
    r"""|(?:^|[;\s])import\s*(['"])([^'"]+)\3"""                              # import "y"
    r"""|\bimport\s*\(\s*(['"])([^'"]+)\5\s*\)""",                            # import("y")
    re.MULTILINE,
)


def strip_comments(text):
    """The source without // and /* */ comments (strings and template literals kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "'\"`":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def imports_of(path, text):
    """The web/ files that the module `path` imports (relative specifiers only)."""
    found = []
    for m in IMPORT.finditer(strip_comments(text)):
        spec = m.group(2) or m.group(4) or m.group(6)
        if not spec.startswith("."):
            continue
        target = (path.parent / spec).resolve()
        found.append(target.relative_to(ROOT).as_posix())
    return found


def import_graph(files):
    """{module: [imported modules]} of the texts {web/…/x.js: source}."""
    return {name: imports_of(ROOT / name, text) for name, text in files.items()}


def find_cycle(graph):
    """One import cycle as a list of modules (the first repeated at the end), or None."""
    state = {}                     # module -> "open" (on the path) | "done"
    path = []

    def visit(node):
        state[node] = "open"
        path.append(node)
        for nxt in graph.get(node, []):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def web_modules():
    out = {}
    for p in sorted(WEB.rglob("*.js")):
        rel = p.relative_to(ROOT).as_posix()
        if rel in SKIP or rel.startswith(BUILT):
            continue
        out[rel] = p.read_text(encoding="utf-8")
    return out


def test_the_parser_reads_every_form_of_import():
    src = '''
    import { a } from "./a.js";
    import * as b from './b.js'
    export { c } from "./c.js";
    import "./d.js";
    const e = await import("./e.js");
    // import { f } from "./f.js";
    /* import("./g.js") */
    const s = "import x from './h.js'";
    import words from "../i18n/lab.js";
    import {
      many,
      names,
    } from "./i.js";
    '''
    got = imports_of(WEB / "lib" / "x.js", src)
    assert got == ["web/lib/a.js", "web/lib/b.js", "web/lib/c.js", "web/lib/d.js", "web/lib/e.js",
                   "web/i18n/lab.js", "web/lib/i.js"]


def test_a_cycle_is_found_with_its_path():
    graph = import_graph({
        "web/app.js": 'import { p } from "./lib/play.js";',
        "web/lib/play.js": 'import { m } from "./menu.js";',
        "web/lib/menu.js": 'import { h } from "./history.js";',
        "web/lib/history.js": 'const k = import("./play.js");',
    })
    assert find_cycle(graph) == [
        "web/lib/play.js", "web/lib/menu.js", "web/lib/history.js", "web/lib/play.js"]
    graph["web/lib/history.js"] = []
    assert find_cycle(graph) is None


def test_the_page_has_no_import_cycle():
    graph = import_graph(web_modules())
    assert "web/app.js" in graph and len(graph) > 20
    missing = sorted({t for deps in graph.values() for t in deps
                      if not (ROOT / t).exists() and not t.startswith(BUILT)} - SKIP)
    assert not missing, f"imports of files that do not exist: {missing}"
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle in web/: " + " -> ".join(cycle)
