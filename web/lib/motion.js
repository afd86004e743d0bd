// Cards in motion: a card played glides from the hand (the person's) or from its
// seat (a bot's) to its place in the trick, and a finished trick glides to the seat that took it
// when the table clears it.  Web Animations API, 120-350 ms scaled by the bots' speed (none at
// "instant"), and nothing at all under prefers-reduced-motion: reduce.  render.js takes a
// snapshot of the old table before it redraws (capture) and plays the moves after (animate);
// only what is new moves, so a redraw of the same view (a language switch) moves nothing.

import { S } from "./state.js";

const reduced = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;

/** How long a move lasts (ms) at the current bot speed; 0: no movement. */
export function moveMs() {
  if (reduced && reduced.matches) return 0;
  const d = S.delay || 0;
  if (d <= 0) return 0;
  return Math.round(Math.min(350, 120 + d * 0.15));
}

const rectOf = (e) => { const r = e.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; };
const shown = (r) => r && r.w > 0 && r.h > 0;

/** What the old table looked like: the hand's cards, the seats, a finished trick on show. */
export function capture() {
  if (!moveMs()) return null;
  const hand = new Map();
  for (const c of document.querySelectorAll("#hand [data-card]")) hand.set(c.dataset.card, rectOf(c));
  const seats = new Map();
  for (const s of document.querySelectorAll("#felt .seat[data-seat]")) seats.set(s.dataset.seat, rectOf(s));
  const trick = document.querySelector("#center .trick");
  let done = null;
  if (trick && trick.dataset.taken) {
    done = { key: trick.dataset.takenKey, winner: trick.dataset.taken,
      cards: [...trick.querySelectorAll(".tcard .card")].map((c) => ({ rect: rectOf(c), html: c.outerHTML })) };
  }
  return { hand, seats, done };
}

function count() {
  const b = document.body;
  b.dataset.moves = String((parseInt(b.dataset.moves, 10) || 0) + 1);
}

/** After a redraw: move the new trick cards in, and the old finished trick out to its taker. */
export function animate(before) {
  const ms = moveMs();
  if (!before || !ms || typeof Element.prototype.animate !== "function") return;
  const trick = document.querySelector("#center .trick");
  // the finished trick left the table: its cards go to the seat that took it
  if (before.done && (!trick || trick.dataset.takenKey !== before.done.key)) {
    const seat = document.querySelector(`#felt .seat[data-seat="${before.done.winner}"]`);
    const to = seat ? rectOf(seat) : null;
    if (shown(to)) {
      for (const c of before.done.cards) {
        if (!shown(c.rect)) continue;
        const ghost = document.createElement("div");
        ghost.className = "card-ghost";
        ghost.setAttribute("aria-hidden", "true");
        ghost.innerHTML = c.html;
        Object.assign(ghost.style, { left: c.rect.x + "px", top: c.rect.y + "px", width: c.rect.w + "px", height: c.rect.h + "px" });
        document.body.appendChild(ghost);
        const dx = to.x + to.w / 2 - (c.rect.x + c.rect.w / 2);
        const dy = to.y + to.h / 2 - (c.rect.y + c.rect.h / 2);
        const a = ghost.animate([{ transform: "none", opacity: 0.95 }, { transform: `translate(${dx}px, ${dy}px) scale(.35)`, opacity: 0 }],
          { duration: ms, easing: "ease-in", fill: "forwards" });
        count();
        const drop = () => ghost.remove();
        a.onfinish = drop;
        a.oncancel = drop;
      }
    }
  }
  // the cards new in the trick come from the hand or from their seat
  for (const tc of document.querySelectorAll("#center .tcard.fresh")) {
    const card = tc.querySelector(".card");
    if (!card) continue;
    const seat = tc.dataset.seat;
    const code = card.dataset.card;
    const from = (String(S.seat) === seat && code && before.hand.get(code)) || before.seats.get(seat);
    const to = rectOf(card);
    if (!shown(from) || !shown(to)) continue;
    const dx = from.x + from.w / 2 - (to.x + to.w / 2);
    const dy = from.y + from.h / 2 - (to.y + to.h / 2);
    const k = Math.max(0.3, Math.min(1.2, from.w / to.w));
    tc.classList.add("flown");                    // no CSS drop-in on top of the glide
    card.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${k})` }, { transform: "none" }],
      { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" });
    count();
  }
}
