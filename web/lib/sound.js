// Sounds of the table: a card played, a trick taken, a deal won, synthesised with the
// Web Audio API (oscillators and a little noise: no sound file).  Off by default; the setting is
// kept in the browser (localStorage "atut.sound") and toggled from the settings panel or the top
// bar's mute button (#btnSound, aria-pressed = muted).  No AudioContext exists until the sounds
// are turned on: the first one is made by the click that turns them on.

import { t } from "./words.js";

const KEY = "atut.sound";
let ctx = null;
const listeners = [];

export function soundOn() {
  try { return localStorage.getItem(KEY) === "on"; } catch (_) { return false; }
}

function audio() {
  if (!soundOn()) return null;
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    try { ctx = new AC(); } catch (_) { return null; }
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

/** Turn the sounds on or off (kept); every control showing the state is redrawn. */
export function setSound(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (_) { /* storage off */ }
  if (on) audio();                          // made inside the click: the browser lets it play
  else if (ctx) ctx.suspend().catch(() => {});
  relabelSound();
  for (const fn of listeners) fn(on);
}

export function onSoundChange(fn) { listeners.push(fn); }

function tone(ac, { at = 0, freq = 440, to = null, dur = 0.12, type = "sine", gain = 0.18 }) {
  const t0 = ac.currentTime + at;
  const o = ac.createOscillator();
  const g = ac.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, t0);
  if (to) o.frequency.exponentialRampToValueAtTime(to, t0 + dur);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.008);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  o.connect(g).connect(ac.destination);
  o.start(t0);
  o.stop(t0 + dur + 0.02);
}

function snap(ac, at = 0) {
  // a card laid on the cloth: a short burst of filtered noise
  const t0 = ac.currentTime + at;
  const n = Math.floor(ac.sampleRate * 0.06);
  const buf = ac.createBuffer(1, n, ac.sampleRate);
  const d = buf.getChannelData(0);
  for (let i = 0; i < n; i++) d[i] = (Math.random() * 2 - 1) * (1 - i / n) ** 3;
  const src = ac.createBufferSource();
  src.buffer = buf;
  const f = ac.createBiquadFilter();
  f.type = "bandpass";
  f.frequency.value = 1800;
  const g = ac.createGain();
  g.gain.value = 0.5;
  src.connect(f).connect(g).connect(ac.destination);
  src.start(t0);
}

/** Play one of "card", "trick", "trick_you", "deal", "deal_you"; nothing when the sounds are off. */
export function playSound(name) {
  const ac = audio();
  if (!ac) return;
  try {
    if (name === "card") snap(ac);
    else if (name === "trick" || name === "trick_you") {
      const up = name === "trick_you";
      tone(ac, { at: 0.08, freq: up ? 660 : 520, to: up ? 880 : 440, dur: 0.16, type: "triangle", gain: 0.12 });
    } else if (name === "deal" || name === "deal_you") {
      const notes = name === "deal_you" ? [523.25, 659.25, 783.99, 1046.5] : [523.25, 440, 392];
      notes.forEach((f, i) => tone(ac, { at: 0.15 + i * 0.11, freq: f, dur: 0.22, type: "triangle", gain: 0.14 }));
    }
  } catch (_) { /* audio is a nicety: never an error of the page */ }
}

/** The mute button's state and words (the page's language). */
export function relabelSound() {
  const b = document.getElementById("btnSound");
  if (!b) return;
  const muted = !soundOn();
  b.setAttribute("aria-pressed", String(muted));
  b.setAttribute("aria-label", t("ui.sound.mute"));
  b.title = t(muted ? "ui.sound.muted" : "ui.sound.playing");
  b.classList.toggle("muted", muted);
}

export function initSound() {
  const b = document.getElementById("btnSound");
  if (b) b.addEventListener("click", () => setSound(!soundOn()));
  relabelSound();
}
