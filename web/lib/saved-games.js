// Saved games: the IndexedDB database of kept games, used by the page (autosave.js) and the
// worker (web/worker.js writes the save files).  Database "atut", three object stores:
//   meta   one small record per game (settings, progress, result), listed by the menu
//   saves  the engine's save file of each game (the worker's `save` op), read only to resume
//   bad    records that could not be read, set aside (downloadable) until the person drops them
// Every function resolves (never rejects): a failure is reported as {ok: false, error} and
// the caller shows a notice; the rest of the store is never touched by a bad record.
// One writer per game (docs/PAGE.md "One writer, crashes and persistent storage"): a meta
// record names the worker that may write it (`writer`, a token per page); a step is kept by
// put() in one transaction that first checks the record's writer, so a tab that lost the game to
// another tab cannot add a second history; claim() makes this page's worker the writer.
// A browser that refuses storage (private mode) gives state() === "off": nothing is kept.

export const FORMAT = 1;                    // the record layout; older records are set aside
export const KEEP_FINISHED = 200;
export const KEEP_UNFINISHED = 30;
const DB = "atut";

let db = null;
let mode = "unknown";                       // "ok" | "off"

export const state = () => mode;

function req(r) {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error || new Error("transaction aborted"));
    tx.onerror = () => { /* onabort follows */ };
  });
}

const errName = (e) => (e && e.name) || "Error";
const errText = (e) => String((e && e.message) || e);

/** Open the database and check that it takes a write; "off" when it does not. */
export async function open() {
  if (db) return { ok: true };
  try {
    if (typeof indexedDB === "undefined" || !indexedDB) throw new Error("no IndexedDB");
    const r = indexedDB.open(DB, 1);
    r.onupgradeneeded = () => {
      const d = r.result;
      if (!d.objectStoreNames.contains("meta")) d.createObjectStore("meta", { keyPath: "id" });
      if (!d.objectStoreNames.contains("saves")) d.createObjectStore("saves", { keyPath: "id" });
      if (!d.objectStoreNames.contains("bad")) d.createObjectStore("bad", { keyPath: "key", autoIncrement: true });
    };
    db = await new Promise((resolve, reject) => {
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error || new Error("indexedDB.open failed"));
      r.onblocked = () => reject(new Error("the database is blocked"));
    });
    // a probe write: private modes that open but refuse writes are found here
    const tx = db.transaction("bad", "readwrite");
    const s = tx.objectStore("bad");
    const key = await req(s.add({ probe: true }));
    s.delete(key);
    await done(tx);
    mode = "ok";
    return { ok: true };
  } catch (e) {
    db = null;
    mode = "off";
    return { ok: false, error: errText(e), name: errName(e) };
  }
}

/** Store one game: its meta record and its save text, in one transaction (a crash leaves the
 *  step before or this one, never half of it).  With `writer`: only when the stored record has
 *  no writer or this one (else {ok: false, name: "HeldElsewhere"}, nothing written), and the
 *  record is marked with it. */
export async function put(meta, saveText, writer) {
  if (!db) return { ok: false, error: "no store", name: "off" };
  let held = false;
  try {
    const tx = db.transaction(["meta", "saves"], "readwrite");
    const metas = tx.objectStore("meta");
    const write = () => {
      metas.put(writer === undefined ? meta : { ...meta, writer });
      if (saveText !== undefined) tx.objectStore("saves").put({ id: meta.id, format: FORMAT, text: saveText });
    };
    if (writer === undefined) write();
    else {
      const r = metas.get(meta.id);
      r.onsuccess = () => {
        const old = r.result;
        if (old && typeof old === "object" && typeof old.writer === "string" && old.writer !== writer) {
          held = true;
          tx.abort();
        } else write();
      };
    }
    await done(tx);
    return { ok: true };
  } catch (e) {
    if (held) return { ok: false, name: "HeldElsewhere", error: "the game is kept by another tab" };
    return { ok: false, error: errText(e), name: errName(e) };
  }
}

/** Make `writer` the one that may write game `id` (a resume, a take-over): {ok, found}. */
export async function claim(id, writer) {
  if (!db) return { ok: false, error: "no store" };
  let found = false;
  try {
    const tx = db.transaction("meta", "readwrite");
    const metas = tx.objectStore("meta");
    const r = metas.get(id);
    r.onsuccess = () => {
      if (r.result && typeof r.result === "object") { found = true; metas.put({ ...r.result, writer }); }
    };
    await done(tx);
    return { ok: true, found };
  } catch (e) {
    return { ok: false, error: errText(e) };
  }
}

/** One meta record as stored (the newest, e.g. after another tab played on), or null. */
export async function getMeta(id) {
  if (!db) return null;
  try {
    const m = await req(db.transaction("meta").objectStore("meta").get(id));
    return m && !metaFault(m) ? m : null;
  } catch (_) {
    return null;
  }
}

/** The meta record after a step: `meta` (the table's record) with the progress and result of
 *  the engine's reply {view, finished} (bridge.py Table.reply).  The worker keeps each step
 *  with it; the page's own record (autosave.js) is built the same way. */
export function stepMeta(meta, reply, now = Date.now()) {
  const v = (reply && reply.view) || {};
  const out = {
    ...meta, updated: now, finished: !!v.is_over, deal_no: v.deal_no || 0,
    scores: Array.isArray(v.scores) ? [...v.scores] : [],
    last_deal: reply && reply.finished ? { ...reply.finished, dismissed: false } : (meta.last_deal || null),
    result: null,
  };
  if (v.is_over) {
    const w = v.winner;
    const won = w === meta.seat || (Array.isArray(w) && w.includes(meta.seat));
    out.result = { winner: w === undefined ? null : w, won, score: Array.isArray(v.scores) ? v.scores[meta.seat] : null };
  }
  return out;
}

/** Why a meta record cannot be used ("old" format, "bad" shape), or null when it is fine. */
export function metaFault(m) {
  if (!m || typeof m !== "object" || Array.isArray(m)) return "bad";
  if (m.format !== FORMAT) return (typeof m.format === "number" && m.format < FORMAT) || m.format === undefined ? "old" : "bad";
  const int = (x) => Number.isInteger(x) && x >= 0;
  if (typeof m.id !== "string" || typeof m.game !== "string" || !int(m.players) || !int(m.seed) || !int(m.seat)) return "bad";
  if (!Array.isArray(m.levels) || !m.levels.every(int) || !int(m.delay) || typeof m.finished !== "boolean") return "bad";
  if (!m.options || typeof m.options !== "object" || typeof m.updated !== "number") return "bad";
  return null;
}

/** Every usable meta record, newest first; unusable ones are set aside ({games, setAside}). */
export async function list() {
  if (!db) return { games: [], setAside: [] };
  let all;
  try {
    all = await req(db.transaction("meta").objectStore("meta").getAll());
  } catch (e) {
    return { games: [], setAside: [], error: errText(e) };
  }
  const games = [];
  const setAside = [];
  for (const m of all) {
    const fault = metaFault(m);
    if (!fault) { games.push(m); continue; }
    const id = m && typeof m === "object" ? m.id : undefined;
    const save = id !== undefined ? await getSaveRaw(id) : undefined;
    const r = await setAsideRecord(id, fault, { meta: m, save });
    setAside.push({ ...r, fault });
  }
  games.sort((a, b) => b.updated - a.updated);
  return { games, setAside };
}

async function getSaveRaw(id) {
  try { return await req(db.transaction("saves").objectStore("saves").get(id)); } catch (_) { return undefined; }
}

/** The save text of a game: {ok, text} or {ok: false, fault: "old" | "bad" | "missing"}. */
export async function getSave(id) {
  if (!db) return { ok: false, fault: "missing" };
  const s = await getSaveRaw(id);
  if (!s) return { ok: false, fault: "missing" };
  if (s.format !== FORMAT) return { ok: false, fault: "old", record: s };
  if (typeof s.text !== "string") return { ok: false, fault: "bad", record: s };
  try {
    const d = JSON.parse(s.text);
    if (!d || typeof d !== "object" || Array.isArray(d)) throw new Error("not an object");
  } catch (_) {
    return { ok: false, fault: "bad", record: s };
  }
  return { ok: true, text: s.text };
}

/** Move a game out of meta/saves into "bad" (its whole content kept for download). */
export async function setAsideRecord(id, fault, content) {
  if (!db) return { ok: false };
  try {
    const tx = db.transaction(["meta", "saves", "bad"], "readwrite");
    let key;
    const r = tx.objectStore("bad").add({ id: id === undefined ? null : id, fault, when: Date.now(), content: safeClone(content) });
    r.onsuccess = () => { key = r.result; };
    if (id !== undefined && id !== null) {
      try { tx.objectStore("meta").delete(id); tx.objectStore("saves").delete(id); } catch (_) { /* a key IndexedDB cannot use */ }
    }
    await done(tx);
    return { ok: true, key };
  } catch (e) {
    return { ok: false, error: errText(e) };
  }
}

function safeClone(x) {
  try { return JSON.parse(JSON.stringify(x === undefined ? null : x)); } catch (_) { return String(x); }
}

/** The records set aside: [{key, id, fault, when, content}]. */
export async function badRecords() {
  if (!db) return [];
  try { return await req(db.transaction("bad").objectStore("bad").getAll()); } catch (_) { return []; }
}

export async function dropBad(key) {
  if (!db) return;
  try { const tx = db.transaction("bad", "readwrite"); tx.objectStore("bad").delete(key); await done(tx); } catch (_) { /* stays */ }
}

export async function remove(id) {
  if (!db) return;
  try {
    const tx = db.transaction(["meta", "saves"], "readwrite");
    tx.objectStore("meta").delete(id);
    tx.objectStore("saves").delete(id);
    await done(tx);
  } catch (_) { /* stays */ }
}

/** Keep the newest KEEP_FINISHED finished and KEEP_UNFINISHED unfinished games. */
export async function prune(games) {
  const fin = games.filter((g) => g.finished);
  const open_ = games.filter((g) => !g.finished);
  for (const g of [...fin.slice(KEEP_FINISHED), ...open_.slice(KEEP_UNFINISHED)]) await remove(g.id);
}
