// The service worker (tools/build/sw.py runs it with Node):
//
//   node sw.mjs <dist> <cache id> <node_modules>
//
// workbox-build's generateSW writes <dist>/sw.js, which precaches every file of <dist> (each
// with its sha-384 as integrity) under caches named by <cache id>.  Prints generateSW's
// {count, size, warnings}.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
const [dist, cacheId, modules] = process.argv.slice(2);
const require = createRequire(join(modules, "workbox-build", "package.json"));
const { generateSW } = require("workbox-build");
// HEAD requests (the worker's check that the runtime files exist) answered from this build's
// precache, so that they work offline and never reach a newer build on the server
const head = new Function("return async ({ request }) => {" +
  "const c = await caches.open(" + JSON.stringify(cacheId + "-precache-v2-") +
  " + self.registration.scope);" +
  "const r = await c.match(request.url, { ignoreSearch: true });" +
  "return r ? new Response(null, { status: r.status, headers: r.headers }) : fetch(request); }")();
const r = await generateSW({
  globDirectory: dist, globPatterns: ["**/*"], swDest: join(dist, "sw.js"),
  cacheId, inlineWorkboxRuntime: true, mode: "production", sourcemap: false,
  maximumFileSizeToCacheInBytes: 256 * 1024 * 1024, cleanupOutdatedCaches: true,
  clientsClaim: false, skipWaiting: false, navigationPreload: false,
  ignoreURLParametersMatching: [/^debug$/, /^__WB_REVISION__$/],
  manifestTransforms: [async (entries) => ({ manifest: entries.map((e) => ({ ...e,
    integrity: "sha384-" +
      createHash("sha384").update(readFileSync(join(dist, e.url))).digest("base64") })),
    warnings: [] })],
  runtimeCaching: [{ urlPattern: ({ request }) => request.method === "HEAD", method: "HEAD",
                     handler: head }],
});
process.stdout.write(JSON.stringify({ count: r.count, size: r.size, warnings: r.warnings }));
