// Tournament games in the browser (docs/LAB.md, "Boxes"): the engine's side is
// atut.tournament.game_steps in the lab's worker (ops game_start, game_send), which plays our
// levels itself and asks for the bot files' decisions; this driver answers with boxes
// (web/lib/box.js), one box a seat, so that the browser and the command line play the same
// games (atut.tournament.play_game is the command line's driver of the same exchange).
//
//   const pool = new BoxPool(timeLimit);
//   const record = await playGame(labWorker, task, pool);   // task as game_steps takes it
//   pool.close();

import { BotBox } from "../box.js";

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

  async take(spec) {
    const key = spec.name + "\u0000" + spec.source;
    const list = this.idle.get(key) || [];
    let box = list.pop();
    while (box && box.dead) box = list.pop();
    if (!box) {
      this.evict();
      box = await BotBox.open({ source: spec.source, name: spec.name, timeLimit: this.timeLimit });
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

function boxError(box) {
  if (box.loadError) return box.loadError;
  return { kind: box.dead === "timeout" ? "timeout" : "crash", messages: { en: "the bot's box did not start", pl: "pudełko bota nie wystartowało" }, line: null };
}

/** One game of ``task`` (game_id, players, entries, table, seats, deal, seed, mode): its
 * record, as atut.tournament.game_steps returns it.  The entries' sources go to the boxes
 * only: the lab's worker gets each entry's name and level. */
export async function playGame(worker, task, pool) {
  const specs = task[2];
  const seats = task[4];
  const boxes = {};
  const wire = [...task];
  wire[2] = specs.map((sp) => ({ name: sp.name, level: sp.level ?? null }));
  let r = await worker.request("game_start", { task: wire });
  try {
    while (!("done" in r)) {
      const req = r.req;
      let answer;
      if (req.op === "open") {
        answer = {};
        for (const s of req.seats) {
          const box = await pool.take(specs[seats[s]]);
          boxes[s] = box;
          const fresh = box.loadError || box.dead ? null : await box.request({ op: "fresh" }, pool.timeLimit * 10 + 5);
          const err = fresh && fresh.error ? fresh.error : (box.loadError || box.dead ? boxError(box) : null);
          answer[String(s)] = err;
          if (err) break;
        }
      } else {
        answer = await boxes[req.seat].choose(req.view);
      }
      r = await worker.request("game_send", { id: r.id, answer });
    }
  } catch (err) {
    if (r && r.id !== undefined) worker.request("game_drop", { id: r.id }).catch(() => {});
    throw err;
  } finally {
    for (const b of Object.values(boxes)) pool.release(b);
  }
  return r.done;
}
