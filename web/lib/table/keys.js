// Playing from the keyboard (CONTRACT.md: arrow keys move over the enabled
// [data-action] controls, Enter plays the focused one): the arrows move the focus over the
// table's enabled controls in their order on the page (left/up back, right/down on), Enter or
// Space plays the focused one (they are buttons), Esc closes the last-deal panel.  Once the
// keyboard was used, each new turn of the person puts the focus on a control again (the same
// place, or the last one), so that play never needs the mouse.  `N` goes on to the next deal:
// it closes the last deal's panel, or at the end of a game opens the menu for the next (a kept
// trick waiting for a key goes on at any key, N included: table/pace.js).  Bots' moves and whose turn it is
// are read out by the status line and #announce (aria-live, render.js).

import { el } from "../dom.js";
import { S } from "../state.js";

let keyboard = false;               // the person plays with the keyboard
let index = 0;                      // the place of the focused control among them

function controls() {
  return [...el.table.querySelectorAll("[data-action]:not([disabled])")].filter((b) => b.offsetParent !== null);
}

function panelOpen() {
  return !!document.querySelector("[data-testid=rules], [data-testid=settings]") || !el.menu.hidden;
}

/** After a render: on the person's turn, give the focus back to a control. */
export function restoreFocus() {
  if (!keyboard || panelOpen()) return;
  const list = controls();
  if (!list.length) return;
  if (list.includes(document.activeElement)) { index = list.indexOf(document.activeElement); return; }
  index = Math.min(index, list.length - 1);
  list[index].focus();
}

export function initKeys() {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || !S.view || panelOpen()) return;
    if (e.target && e.target.closest && e.target.closest("input, select, textarea")) return;
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[e.key];
    if (step) {
      const list = controls();
      if (!list.length) return;
      e.preventDefault();
      keyboard = true;
      const at = list.indexOf(document.activeElement);
      index = at < 0 ? (step > 0 ? 0 : list.length - 1) : (at + step + list.length) % list.length;
      list[index].focus();
      return;
    }
    if (e.key === "Enter" || e.key === " ") {
      keyboard = true;
      const list = controls();
      if (!list.includes(document.activeElement) && list.length) {
        // nothing focused yet: Enter focuses the first control (a second Enter plays it)
        e.preventDefault();
        index = 0;
        list[0].focus();
      }
      return;
    }
    if (e.key === "n" || e.key === "N") {
      const next = document.querySelector("[data-testid=play-again], [data-testid=last-deal-close]");
      if (next && next.offsetParent !== null) { e.preventDefault(); keyboard = true; next.click(); }
      return;
    }
    if (e.key === "Escape") {
      const close = document.querySelector("[data-testid=last-deal-close]");
      if (close) { e.preventDefault(); close.click(); }
    }
  });
  document.addEventListener("mousedown", () => { keyboard = false; });
}
