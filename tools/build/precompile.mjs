// Byte code for the browser (tools/build/pyodide.py runs it with Node):
//
//   node precompile.mjs <pyodide.mjs URL> <runtime folder/> <python_stdlib.zip> <zip out>
//                       <engine/atut> <folder out>
//
// Pyodide's python_stdlib.zip holds only .py sources.  The very same Pyodide compiles the
// standard library (written as a copy of the zip with a .pyc beside each .py) and the atut
// package (atut/**/__pycache__/*.pyc into <folder out>) to unchecked hash-based .pyc, so that no
// source is compiled or checked when the page's Python imports them.
import { readFileSync, writeFileSync, readdirSync, statSync, mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
const [pyodideMjs, index, stdlibIn, stdlibOut, srcDir, outDir] = process.argv.slice(2);
const { loadPyodide } = await import(pyodideMjs);
const py = await loadPyodide({ indexURL: index });
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
