// The table's pace marks (settings "autoplay" and "keeptrick"), drawn after the rest of the table (render.js): the card
// that will play itself (the person's only legal card, option "autoplay": it glows, the status
// line says so; hand[data-auto]) and the finished trick kept on show (option "keeptrick": the
// status line asks for a key or a click and offers a Continue button).  play.js decides both.

import { esc } from "../../cards.js";
import { el } from "../dom.js";
import { S } from "../state.js";
import { t } from "../words.js";

export function renderPace(v) {
  document.body.dataset.pace = String(S.delay || 0);
  const auto = S.auto && S.auto.view === v && !S.busy ? S.auto.action : null;
  if (auto) {
    el.hand.dataset.auto = "1";
    for (const b of el.table.querySelectorAll("[data-action]")) if (b.dataset.action === auto) b.classList.add("auto");
    el.status.insertAdjacentHTML("beforeend", `<span class="pace-note" data-testid="autoplay-note">${esc(t("ui.pace.autoplaying"))}</span>`);
  } else {
    delete el.hand.dataset.auto;
  }
  if (S.held) {
    el.status.classList.add("held");
    el.status.insertAdjacentHTML("beforeend", `<span class="pace-note">${esc(t("ui.pace.held"))}</span>
      <button type="button" class="continue" data-testid="continue">${esc(t("ui.pace.continue"))}</button>`);
  }
  el.felt.classList.toggle("held", !!S.held);
}
