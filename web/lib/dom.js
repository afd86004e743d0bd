// DOM helpers and the page's fixed nodes (`el`, filled by bind() in app.js from index.html).

export const el = {};

export const $ = (sel, root = document) => root.querySelector(sel);

/** A new element with attributes (on* = listeners; false/null/undefined left out) and HTML. */
export function h(tag, attrs = {}, html = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  if (html) e.innerHTML = html;
  return e;
}

/** Puts ``node`` in the page's flow just below the hand and its controls (never over a card):
 *  the rule coach's callout and the lesson's guide. */
export function belowHand(node) {
  const after = document.getElementById("actions") || document.getElementById("hand");
  if (after && after.parentNode) after.parentNode.insertBefore(node, after.nextSibling);
  else document.body.appendChild(node);
  return node;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Find the fixed nodes of index.html. */
export function bindNodes() {
  for (const id of ["loader", "table", "menu", "felt", "opponents", "center", "hand", "actions", "status", "scores", "error", "gameTitle", "dealNo", "mySeat", "btnMenu", "btnSave", "btnLoad", "fileInput", "sideRest"]) {
    el[id] = document.getElementById(id);
  }
  el.loaderFill = $(".fill", el.loader);
  el.loaderText = $(".text", el.loader);
  el.errorText = $(".text", el.error);
}
