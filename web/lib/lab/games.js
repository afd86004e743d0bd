// Bot files' games in the browser (docs/LAB.md, "Boxes"): the engine's side is an exchange in
// the lab's worker, atut.tournament.game_steps for a tournament game (op game_start) and
// atut.arena.deal_steps deal after deal for the lab's arena (op arena_start), both continued by
// game_run; it plays our levels itself.  This driver opens a box a seat (web/lib/box.js) when
// the exchange asks for them and hands the lab's worker a port to each, so that the worker asks
// the boxes for the bot files' decisions itself; the browser and the command line play the
// same games (atut.tournament.play_game and atut.arena.play_deal are the command line's drivers
// of the same exchanges).
//
//   const pool = new BoxPool(timeLimit);
//   const record = await playGame(labWorker, task, pool);   // task as game_steps takes it
//   const out = await playArena(labWorker, args, specs, pool, { onDeal });
//   pool.close();

import { BotBox, startMessages } from "../box.js";

/** Idle boxes per bot file (by name and source), reused with a fresh namespace of the bot;
 * a box that ended (time-out, crash) is never reused: the next game gets a new one.  With
 * ``maxBoxes`` (a tournament of many files), opening a box beyond that many first ends the
 * idle box used longest ago (each box is a Pyodide of its own). */
export class BoxPool {
  constructor(timeLimit = 1, { maxBoxes = Infinity } = {}) {
    this.timeLimit = timeLimit;
    this.maxBoxes = maxBoxes;
    this.idle = new Map();
    this.all = new Set();
    this.used = 0;
  }

  evict() {
    for (const b of this.all) if (b.dead) this.all.delete(b);
    while (this.all.size >= this.maxBoxes) {
      let oldest = null;
      for (const list of this.idle.values()) for (const b of list) if (!oldest || b.lastUsed < oldest.lastUsed) oldest = b;
      if (!oldest) return;
      const list = this.idle.get(oldest.key);
      list.splice(list.indexOf(oldest), 1);
      this.all.delete(oldest);
      oldest.close();
    }
  }

  /** A new time limit (seconds) for every box, idle or not. */
  setLimit(seconds) {
    this.timeLimit = seconds;
    for (const b of this.all) b.timeLimit = seconds;
  }

  async take(spec) {
    const key = spec.name + "\u0000" + spec.source;
    const list = this.idle.get(key) || [];
    let box = list.pop();
    while (box && box.dead) box = list.pop();
    if (!box) {
      this.evict();
      box = await BotBox.open({ source: spec.source, name: spec.name, timeLimit: this.timeLimit, wheels: this.wheels || [] });
      box.key = key;
      this.all.add(box);
    }
    return box;
  }

  release(box) {
    box.lastUsed = ++this.used;
    if (box.dead || box.loadError) { this.all.delete(box); if (!box.dead) box.close(); return; }
    if (!this.idle.has(box.key)) this.idle.set(box.key, []);
    this.idle.get(box.key).push(box);
  }

  close() {
    for (const b of this.all) b.close();
    this.all.clear();
    this.idle.clear();
  }
}

export function boxError(box) {
  if (box.loadError) return box.loadError;
  if (box.dead === "start") return { kind: "crash", messages: startMessages(box.startError), line: null };
  return { kind: box.dead === "timeout" ? "timeout" : "crash", messages: { en: "the bot's box did not start", pl: "pudełko bota nie wystartowało" }, line: null };
}

/** A box for one seat with a fresh namespace of its bot (and its ``reset`` called, as the
 * arena does): ``{box, err}``, ``err`` the failure's dict or null. */
export async function openSeat(pool, spec, reset) {
  const box = await pool.take(spec);
  if (box.loadError || box.dead) return { box, err: boxError(box) };
  const fresh = await box.request({ op: "fresh" }, pool.timeLimit * 10 + 5);
  if (fresh.error) return { box, err: fresh.error };
  if (reset) {
    const r = await box.request({ op: "reset" });
    if (r.error) return { box, err: r.error };
  }
  return { box, err: null };
}

/** Drives an exchange from its first step ``r`` to its end: each ``open`` is answered with a
 * box a seat (``specOf(req, i)``: the spec of ``req.seats[i]``; the boxes of the previous
 * ``open`` go back to the pool), connected to the lab's worker, which then asks each seat's
 * box for its decisions itself (op ``game_run``: the views never pass through this page); any
 * other request is answered with ``onOther(req)``.  ``hold``: a Set that holds the boxes in use
 * (for Stop); ``stopped()`` ends the exchange (an Error with ``stopped = "stop"``). */
async function drive(worker, r, pool, specOf, { reset = false, onOther = null, hold = null, stopped = () => false } = {}) {
  let boxes = {};
  const releaseAll = () => {
    for (const b of Object.values(boxes)) { if (hold) hold.delete(b); pool.release(b); }
    boxes = {};
  };
  const stopError = () => { const err = new Error("stop"); err.stopped = "stop"; return err; };
  try {
    while (!("done" in r)) {
      if (stopped()) throw stopError();
      const req = r.req;
      let answer = null;
      if (req.op === "open") {
        releaseAll();
        answer = {};
        for (let i = 0; i < req.seats.length; i++) {
          const s = req.seats[i];
          const { box, err } = await openSeat(pool, specOf(req, i), reset);
          boxes[s] = box;
          if (hold) hold.add(box);
          answer[String(s)] = err;
          if (err) break;
          box.connectLab(worker);
        }
      } else if (onOther) {
        answer = (await onOther(req)) ?? null;
      }
      if (stopped()) continue;
      const seats = Object.fromEntries(Object.entries(boxes).map(([s, b]) => [s, b.uid]));
      try {
        r = await worker.request("game_run", { id: r.id, answer, seats, limit: pool.timeLimit });
      } catch (err) {
        if (stopped()) throw stopError();            // Stop ended the boxes: the bot did not fail
        throw err;
      }
    }
  } catch (err) {
    if (r && r.id !== undefined) worker.request("game_drop", { id: r.id }).catch(() => {});
    throw err;
  } finally {
    releaseAll();
  }
  return r.done;
}

/** One game of ``task`` (game_id, players, entries, table, seats, deal, seed, mode): its
 * record, as atut.tournament.game_steps returns it.  The entries' sources go to the boxes
 * only: the lab's worker gets each entry's name and level. */
export async function playGame(worker, task, pool) {
  const specs = task[2];
  const seats = task[4];
  const wire = [...task];
  wire[2] = specs.map((sp) => ({ name: sp.name, level: sp.level ?? null }));
  const r = await worker.request("game_start", { task: wire });
  return drive(worker, r, pool, (req, i) => specs[seats[req.seats[i]]]);
}

/** The lab's arena (op arena_start: ``args`` {game, players, deals, seed}; ``specs`` the
 * lineup's entries, ``{name, source}`` a bot file played in its boxes or ``{level}``):
 * ``{result, report, csv}`` as atut.arena gives them.  ``onDeal({done, total, dps, point})``
 * after deals; the options ``hold`` and ``stopped`` as ``drive``'s.  A failed bot rejects with
 * an Error whose ``botError`` is the failure (its kind, messages, line, deal and seat). */
export async function playArena(worker, args, specs, pool, { onDeal = () => {}, hold = null, stopped } = {}) {
  const bots = specs.map((sp) => (sp.source !== undefined ? { name: sp.name, file: true } : { level: sp.level }));
  const r = await worker.request("arena_start", { ...args, bots });
  return drive(worker, r, pool, (req, i) => specs[req.entries[i]], {
    reset: true, hold, stopped, onOther: (req) => { if (req.op === "deal") onDeal(req); },
  });
}
