// The bot lab's editor bundle (tools/build/lab.py runs it with Node):
//
//   node lab.mjs <web/lab/editor-entry.js> <folder out> <node_modules>
//
// esbuild bundles CodeMirror 6 and uPlot into editor.js (an ES module, minified) and
// editor.css, and THIRD-PARTY-LICENSES.txt gathers the licences of the bundled packages.
import { createRequire } from "node:module";
import { join } from "node:path";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
const [entry, outdir, modules] = process.argv.slice(2);
const esbuild = createRequire(join(modules, "esbuild", "package.json"))("esbuild");
const result = await esbuild.build({ entryPoints: { editor: entry }, bundle: true,
  format: "esm", minify: true, outdir, legalComments: "none", target: "es2020",
  logLevel: "error", metafile: true });
// the licences of every package bundled, from its own files (the bundle keeps no comments)
const names = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (m) names.add(m[1]);
}
let text = "The bot lab's editor.js and editor.css bundle these npm packages (esbuild); "
  + "their licences:\n";
for (const name of [...names].sort()) {
  const dir = join(modules, name);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const file = readdirSync(dir).find((f) => /^(licen[sc]e|copying)/i.test(f));
  text += `\n==== ${name} ${pkg.version} (${pkg.license || "licence below"}) ====\n\n`;
  text += file ? readFileSync(join(dir, file), "utf8")
    : `(the package has no licence file; its package.json says: ${pkg.license})\n`;
}
writeFileSync(join(outdir, "THIRD-PARTY-LICENSES.txt"), text);
