// The lab's bots kept in the browser (localStorage "atut.lab.bots": {name: {source, game,
// saved}}), listed by name, and the editor's draft per game ("atut.lab.draft.<game>").  A
// browser that keeps no data makes save() return false; nothing else is touched.

const KEY = "atut.lab.bots";
export const NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,60}\.py$/;

function readAll() {
  try {
    const d = JSON.parse(localStorage.getItem(KEY) || "{}");
    return d && typeof d === "object" && !Array.isArray(d) ? d : {};
  } catch (_) {
    return {};
  }
}

/** [{name, source, game, saved}], by name. */
export function list() {
  const d = readAll();
  return Object.keys(d).sort().filter((n) => NAME.test(n) && typeof d[n].source === "string")
    .map((n) => ({ name: n, ...d[n] }));
}

export function get(name) {
  const d = readAll()[name];
  return d && typeof d.source === "string" ? { name, ...d } : null;
}

export function save(name, source, game) {
  const d = readAll();
  d[name] = { source, game, saved: Date.now() };
  try {
    localStorage.setItem(KEY, JSON.stringify(d));
    return true;
  } catch (_) {
    return false;
  }
}

export function remove(name) {
  const d = readAll();
  delete d[name];
  try { localStorage.setItem(KEY, JSON.stringify(d)); } catch (_) { /* storage off */ }
}

export function draft(game) {
  try {
    const d = JSON.parse(localStorage.getItem("atut.lab.draft." + game) || "null");
    return d && typeof d.source === "string" && typeof d.name === "string" ? d : null;
  } catch (_) {
    return null;
  }
}

export function keepDraft(game, name, source) {
  try { localStorage.setItem("atut.lab.draft." + game, JSON.stringify({ name, source })); } catch (_) { /* storage off */ }
}
