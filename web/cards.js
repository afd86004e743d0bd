// Card pictures, drawn as inline SVG by this code (no image or font files).
//
// A card code is rank + suit ("AH", "10S", "PRD", "YPC") or one of EMPEROR, RED_JOKER,
// BLACK_JOKER, BLUE_JOKER.  Rank letters and names come from the i18n dictionary passed in as
// `t` (Polish K/D/W, Ks, Kż; English K/Q/J, Pr, YP).

export const SUITS = ["S", "C", "D", "H"];
export const SPECIALS = ["EMPEROR", "RED_JOKER", "BLACK_JOKER", "BLUE_JOKER"];
const RANKS = ["A", "10", "K", "Q", "J", "9", "8", "7", "6", "PR", "YP"];
const FACES = new Set(["K", "Q", "J", "PR", "YP"]);

const SUIT_PATH = {
  H: "M50 93C44 86 4 61 4 33 4 16 16 6 29 6c10 0 17 6 21 15 4-9 11-15 21-15 13 0 25 10 25 27 0 28-40 53-46 60z",
  D: "M50 3 89 50 50 97 11 50z",
  S: "M50 3c7 17 46 36 46 61 0 14-10 22-22 22-9 0-16-5-20-12 1 12 6 20 16 24H30c10-4 15-12 16-24-4 7-11 12-20 12C14 86 4 78 4 64 4 39 43 20 50 3z",
  C: "M50 6a21 21 0 0 1 15 36 21 21 0 1 1-9 30c1 12 5 20 14 26H30c9-6 13-14 14-26a21 21 0 1 1-9-30A21 21 0 0 1 50 6z",
};
const CROWN = "M8 78 4 28l25 24L50 10l21 42 25-24-4 50z M8 84h84v10H8z";

function starPath(cx, cy, R, r) {
  let d = "";
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rad = i % 2 ? r : R;
    d += (i ? "L" : "M") + (cx + rad * Math.cos(a)).toFixed(1) + " " + (cy + rad * Math.sin(a)).toFixed(1);
  }
  return d + "Z";
}
const STAR = starPath(50, 52, 48, 20);
const JOKER_COLOR = { RED_JOKER: "#c62828", BLACK_JOKER: "#1b1b1b", BLUE_JOKER: "#1565c0" };

export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) =>
    ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** {rank, suit} of a suited card, {special} of a suitless one, or null for anything else. */
export function parseCard(code) {
  if (typeof code !== "string") return null;
  if (SPECIALS.includes(code)) return { special: code };
  const suit = code.slice(-1);
  const rank = code.slice(0, -1);
  if (!SUITS.includes(suit) || !RANKS.includes(rank)) return null;
  return { rank, suit };
}

export const isCard = (code) => parseCard(code) !== null;
export const isRed = (suit) => suit === "H" || suit === "D";

/** The spoken name of a card in the current language ("ace of hearts", "dama pik"). */
export function cardName(code, t) {
  const p = parseCard(code);
  if (!p) return String(code);
  if (p.special) return t("card." + p.special);
  return t("cardname", { rank: t("rankname." + p.rank), suit: t("suit." + p.suit) });
}

export function suitIcon(suit, cls = "suit") {
  const path = SUIT_PATH[suit];
  if (!path) return esc(suit);
  return `<svg class="${cls} ${isRed(suit) ? "red" : "black"} suit-${suit}" viewBox="0 0 100 100" aria-hidden="true"><path d="${path}"/></svg>`;
}

function corner(label, suit, color) {
  const small = label.length > 1 ? (label.length > 2 ? 20 : 25) : 29;
  const icon = SUIT_PATH[suit]
    ? `<path class="ink" transform="translate(6 35) scale(.19)" d="${SUIT_PATH[suit]}" fill="${color}"/>`
    : "";
  return `<text class="ink" x="7" y="29" font-size="${small}" font-weight="700" fill="${color}" letter-spacing="-1">${esc(label)}</text>${icon}`;
}

/** The name on a suitless card, fitted into the card's width (x 10..90): one line when it is
 *  short, else one line per word (at most two); each line is squeezed if it is still too long. */
function specialLabel(name, color, bottom, size, spacing = 0) {
  const words = String(name).toUpperCase().split(/\s+/).filter(Boolean);
  const width = 80;
  const est = (s, fs) => s.length * fs * 0.74 + Math.max(0, s.length - 1) * spacing;
  let lines = [words.join(" ")];
  if (est(lines[0], size) > width && words.length > 1) {
    const cut = Math.ceil(words.length / 2);
    lines = [words.slice(0, cut).join(" "), words.slice(cut).join(" ")];
  }
  const longest = Math.max(...lines.map((l) => est(l, size)));
  const fs = longest > width ? Math.max(9, (size * width) / longest) : size;
  const lh = fs * 1.1;
  return lines.map((l, i) => {
    const y = (bottom - (lines.length - 1 - i) * lh).toFixed(1);
    const squeeze = est(l, fs) > width ? ` textLength="${width}" lengthAdjust="spacingAndGlyphs"` : "";
    return `<text x="50" y="${y}" text-anchor="middle" font-size="${fs.toFixed(1)}" font-weight="700" fill="${color}"` +
      `${spacing ? ` letter-spacing="${spacing}"` : ""}${squeeze}>${esc(l)}</text>`;
  }).join("");
}

/** The SVG markup of a card face. */
export function cardSVG(code, t) {
  const p = parseCard(code);
  const frame = `<rect x="1" y="1" width="98" height="138" rx="8"`;
  if (!p) {
    return `<svg class="face" viewBox="0 0 100 140" aria-hidden="true">${frame} fill="#fff" stroke="#999"/><text x="50" y="76" text-anchor="middle" font-size="16">${esc(code)}</text></svg>`;
  }
  if (p.special === "EMPEROR") {
    const gold = "#e8b83a";
    return `<svg class="face special emperor" viewBox="0 0 100 140" aria-hidden="true">${frame} fill="#2e1a52" stroke="${gold}" stroke-width="3"/>` +
      `<rect x="8" y="8" width="84" height="124" rx="5" fill="none" stroke="${gold}" stroke-width="1" opacity=".6"/>` +
      `<path transform="translate(20 34) scale(.6)" d="${CROWN}" fill="${gold}"/>` +
      `<path transform="translate(9 10) scale(.16)" d="${CROWN}" fill="${gold}"/>` +
      specialLabel(t("card.EMPEROR"), gold, 116, 13, 1) + `</svg>`;
  }
  if (p.special) {
    const c = JOKER_COLOR[p.special];
    return `<svg class="face special joker" viewBox="0 0 100 140" aria-hidden="true">${frame} fill="#fffdf7" stroke="${c}" stroke-width="3"/>` +
      `<path transform="translate(20 28) scale(.6)" d="${STAR}" fill="${c}"/>` +
      `<path transform="translate(7 8) scale(.2)" d="${STAR}" fill="${c}"/>` +
      `<path transform="translate(73 112) scale(.2)" d="${STAR}" fill="${c}"/>` +
      specialLabel(t("card." + p.special), c, 108, 12) + `</svg>`;
  }
  const color = isRed(p.suit) ? "#c62828" : "#1b1b1b";
  const label = t("rank." + p.rank);
  let middle;
  if (FACES.has(p.rank)) {
    const tint = isRed(p.suit) ? "#fdecea" : "#eceff3";
    middle = `<rect class="tint" x="27" y="26" width="46" height="88" rx="5" fill="${tint}" stroke="${color}" stroke-width="1.5"/>` +
      `<text class="ink" x="50" y="76" text-anchor="middle" font-size="${label.length > 1 ? 26 : 38}" font-weight="700" fill="${color}">${esc(label)}</text>` +
      `<path class="ink" transform="translate(39 83) scale(.22)" d="${SUIT_PATH[p.suit]}" fill="${color}"/>`;
  } else {
    const s = p.rank === "A" ? 0.56 : 0.44;
    const off = 50 - 50 * s;
    middle = `<path class="ink" transform="translate(${off} ${70 - 50 * s}) scale(${s})" d="${SUIT_PATH[p.suit]}" fill="${color}"/>`;
  }
  // the suit's class lets the four-colour deck (body.look-four, style.css) recolour the ink
  return `<svg class="face suit-${p.suit}" viewBox="0 0 100 140" aria-hidden="true">${frame} fill="#fffdf8" stroke="#b8b0a0" stroke-width="1.5"/>` +
    corner(label, p.suit, color) + `<g transform="rotate(180 50 70)">${corner(label, p.suit, color)}</g>` + middle + `</svg>`;
}

/** A small inline card for sentences and buttons: rank + suit symbol, with data-card. */
export function chip(code, t, past = false) {
  const p = parseCard(code);
  if (!p) return esc(code);
  const name = esc(cardName(code, t));
  // a card of a finished deal (past = true) is drawn without its code: data-card marks only the
  // cards of the current view
  const attr = past ? `data-past-card=""` : `data-card="${esc(code)}"`;
  if (p.special) {
    const cls = p.special === "EMPEROR" ? "emperor" : p.special.toLowerCase().replace("_", "-");
    return `<span class="chip special ${cls}" ${attr} role="img" aria-label="${name}" title="${name}">${esc(t("card.short." + p.special))}</span>`;
  }
  return `<span class="chip ${isRed(p.suit) ? "red" : "black"} suit-${p.suit}" ${attr} role="img" aria-label="${name}" title="${name}">${esc(t("rank." + p.rank))}${suitIcon(p.suit)}</span>`;
}

/** The back of a card (no data-card: the page never knows a hidden card). */
export function back(cls = "") {
  return `<span class="back ${cls}" aria-hidden="true"></span>`;
}
