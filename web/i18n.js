// The page's dictionary: core.js merged with web/i18n/<game_id>.js of the game on the table.
// Lookup order: game file (current language), core (current language), game file (English),
// core (English), then the key itself.  Never throws.

import core from "./i18n/core.js";

export const LANGS = ["pl", "en"];
const games = {};                          // game id -> {pl: {...}, en: {...}}

function normalize(mod) {
  const d = (mod && (mod.default || mod)) || {};
  return { pl: (d && typeof d.pl === "object" && d.pl) || {}, en: (d && typeof d.en === "object" && d.en) || {} };
}

/** Load the game dictionaries; a missing or broken file only warns. */
export async function loadGameDicts(ids) {
  await Promise.all(ids.map(async (id) => {
    try {
      games[id] = normalize(await import(`./i18n/${id}.js`));
    } catch (err) {
      console.warn(`i18n/${id}.js could not be loaded:`, err);
      games[id] = { pl: {}, en: {} };
    }
  }));
}

/** A game's words given as {pl: {...}, en: {...}} (a game that joined at run time). */
export function addGameDict(id, dict) {
  games[id] = normalize(dict);
}

/** The raw template of `key`, or undefined. */
export function lookup(key, lang, game) {
  for (const l of [lang, "en"]) {
    const g = game && games[game] && games[game][l];
    if (g && Object.prototype.hasOwnProperty.call(g, key)) return g[key];
    const c = core[l];
    if (c && Object.prototype.hasOwnProperty.call(c, key)) return c[key];
  }
  return undefined;
}

/** Fill {param} placeholders with plain text (no HTML escaping: use for textContent only). */
export function fillText(template, params = {}) {
  return String(template).replace(/\{(\w+)\}/g, (m, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : m);
}
