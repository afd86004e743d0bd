// What a bot's box failing is called, in both languages (docs/LAB.md, "Boxes"): the page's
// boxes (web/lib/box.js) and the lab's worker, which times the boxes' decisions over ports of
// their own (web/lab-worker.js), answer a failed request with the same dicts.

const TEXTS = {
  timeout: (s) => ({ en: `no answer within ${s} s: its box was ended`, pl: `brak odpowiedzi w ciągu ${s} s: pudełko bota zamknięto` }),
  crash: () => ({ en: "the bot's box stopped (a crash or out of memory)", pl: "pudełko bota przestało działać (awaria lub brak pamięci)" }),
  gone: () => ({ en: "the bot's box was ended earlier", pl: "pudełko bota zostało wcześniej zamknięte" }),
  protocol: () => ({ en: "the box answered something that is not the box's protocol", pl: "pudełko odpowiedziało czymś spoza protokołu" }),
  start: (m) => (m === "frame"
    ? { en: "the bot's box did not start: its page's script did not run (web/box/box.html and the app's policy in index.html disagree)", pl: "pudełko bota nie wystartowało: skrypt jego strony się nie uruchomił (web/box/box.html i zasady bezpieczeństwa aplikacji w index.html się nie zgadzają)" }
    : { en: `the bot's box did not start: ${m}`, pl: `pudełko bota nie wystartowało: ${m}` }),
};

/** Why a box did not start ({en, pl}), from ``box.startError``. */
export function startMessages(m) {
  return TEXTS.start(m);
}

/** A failed request's answer: ``{error: {kind, messages, line: null}}``. */
export function failure(kind, arg) {
  return { error: { kind, messages: TEXTS[kind](arg), line: null } };
}

/** A box's answer text as the engine's side takes it: ``{ok: action}`` or ``{error}``, or the
 * protocol's failure for anything else. */
export function readAnswer(text) {
  let a;
  try {
    a = typeof text === "string" ? JSON.parse(text) : null;
  } catch (_) {
    a = null;
  }
  if (!a || typeof a !== "object" || (!("ok" in a) && !(a.error && typeof a.error === "object"))) return failure("protocol");
  return "ok" in a ? { ok: a.ok } : { error: a.error };
}
