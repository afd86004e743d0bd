/* global URL, process, console */
// Pyodide in Node with atut installed, for the scripts that run Python in WebAssembly without a
// browser (scripts/pyodide_agree.mjs, tools/bench_bots.mjs): the pinned runtime from
// node_modules/pyodide, the package unpacked into site-packages as the page's worker does
// (pyodide.unpackArchive with the bytes as a Uint8Array).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const pyodideDir = new URL("../node_modules/pyodide/", import.meta.url);

/** The command line's <wheel or zip> and JSON settings, or the usage and exit 2. */
export function args(usage) {
  const [archive, settingsJson] = process.argv.slice(2);
  if (!archive || !settingsJson) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  return { archive, settings: JSON.parse(settingsJson) };
}

/** A Pyodide with the atut wheel (or zip) `archive` in its site-packages. */
export async function pyodideWithAtut(archive) {
  const { loadPyodide } = await import(new URL("pyodide.mjs", pyodideDir).href);
  const py = await loadPyodide({ indexURL: fileURLToPath(pyodideDir) });
  const bytes = new Uint8Array(readFileSync(archive));
  const sitePackages = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  py.unpackArchive(bytes, archive.endsWith(".whl") ? "wheel" : "zip", { extractDir: sitePackages });
  return py;
}
