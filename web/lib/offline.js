// The service worker (sw.js at the site's root, made by build.py with workbox-build): it
// precaches every file of this build under a cache named by the build's content hash, so that
// after one visit the app starts with the network off.  It is registered once the engine is
// ready (the first visit loads at full speed).  A new build is fetched in the background; it
// takes over on the next start, or at once when the person answers "Reload" on the notice.
// A page always runs on the files of one build: the new worker waits until asked.

import { t } from "./words.js";
import { showNotice } from "./notice.js";
import { flush } from "./autosave.js";

const CHECK_EVERY_MS = 60 * 60 * 1000;
let reg = null;
let reloading = false;
let offered = null;                            // the update's notice, shown again in a new language

function offerUpdate(waiting) {
  const show = () => showNotice("update", t("update.ready"), [{
    label: t("update.reload"), testid: "update-reload",
    onClick: async () => {
      reloading = true;
      await flush();                           // the game in progress is kept: the reload resumes it
      waiting.postMessage({ type: "SKIP_WAITING" });
    },
  }]);
  show();
  offered = show;
}

/** The page's language changed: the update's notice (if shown) in the new one. */
export function relabelUpdate() { if (offered) offered(); }

export async function startOffline() {
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading) location.reload();          // the new build's files only, from here on
  });
  try {
    reg = await navigator.serviceWorker.register(new URL("../../sw.js", import.meta.url));
  } catch (err) {
    console.warn("service worker:", err && err.message ? err.message : err);
    return;
  }
  const watch = (w) => {
    if (!w) return;
    const ready = () => { if (w.state === "installed" && navigator.serviceWorker.controller) offerUpdate(w); };
    w.addEventListener("statechange", ready);
    ready();
  };
  if (reg.waiting) watch(reg.waiting);
  reg.addEventListener("updatefound", () => watch(reg.installing));
  setInterval(() => { reg.update().catch(() => {}); }, CHECK_EVERY_MS);
}

/** Ask the server for a new build now (the tests; the browser also checks on each start). */
export const checkForUpdate = () => (reg ? reg.update().then(() => true, () => false) : Promise.resolve(false));
