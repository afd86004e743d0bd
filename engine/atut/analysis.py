"""``atut.analyse``: every legal action of a view valued by the search of a bot level.

The values come from the very search the bot of that level and seed runs
(``SearchBot.evaluate``, shared with its ``choose``), so ``analyse(...)["best"]`` is the action
that bot plays.  Beliefs come from a separate small sampling of the view (the plug-in's
``determinize``, seeded from the seed and the view), so they too are a function of the view
alone: dealing the unseen cards differently gives the same analysis.

The measure of ``value`` is the one each game's search maximises (``docs/BOTS.md``,
"Analysis"); ``win`` is an estimated chance of winning the deal where the measure is one
(66: a deal won counts 1), else ``None``.
"""

from __future__ import annotations

import random
import zlib

from . import cards as C
from .game import canonical

# games whose search value is (up to a tie-break of at most 0.02) the deal-win chance
_WIN_MEASURE = {"sixty_six"}
BELIEF_SAMPLES = 24


def _round(x):
    return None if x is None else round(float(x), 4)


def beliefs(game_id: str, view: dict, seed: int = 0, samples: int = BELIEF_SAMPLES) -> dict:
    """What the view's seat may infer about each other seat, from ``samples`` determinizations:
    ``{seat: {"holds": [cards held in every sample], "void": [suits held in no sample while
    cards of them were unseen], "p": {card: share of samples holding it}}}`` (seats as strings,
    for JSON).  Empty when the game's plug-in cannot sample."""
    from .bots.interface import hooks, plugin
    h = hooks(plugin(game_id))
    if h.determinize is None or not view.get("legal_actions"):
        return {}
    seat = view["seat"]
    rng = random.Random((seed * 0x2545F491) ^ zlib.crc32(canonical(view).encode()) ^ 0xB5)
    counts: dict[int, dict[str, int]] = {}
    unseen_suits: set[int] = set()
    done = 0
    for _ in range(samples):
        try:
            g = h.determinize(view, rng)
        except Exception:                     # a plug-in failure: fewer samples, no crash
            continue
        done += 1
        for s in range(g.n):
            if s == seat:
                continue
            row = counts.setdefault(s, {})
            for c in C.cards_of(g.hands[s]):
                code = C.code(c)
                row[code] = row.get(code, 0) + 1
                if C.suit_of(c) >= 0:
                    unseen_suits.add(C.suit_of(c))
    out = {}
    if not done:
        return out
    for s in sorted(counts):
        row = counts[s]
        held_suits = {C.suit_of(C.card(x)) for x in row}
        out[str(s)] = {
            "holds": sorted(x for x, k in row.items() if k == done),
            "void": [C.SUITS[u] for u in sorted(unseen_suits - held_suits)],
            "p": {x: round(k / done, 3) for x, k in sorted(row.items())},
        }
    return out


def analyse(game_id: str, view: dict, level: int = 3, seed: int = 0,
            budget: dict | None = None) -> dict:
    """Every legal action of ``view`` valued by the level-``level`` (3 or 4) search of a bot
    with ``seed`` (``budget`` overrides its budget, as for ``make_bot``); JSON-safe:
    ``{"seat", "level", "actions": [{"action", "value", "win", "samples"}, ...] best first,
    "best", "beliefs"}`` and, where the view shows one, ``"reason"`` (``reason``).
    ``best == make_bot(game_id, level, seed, budget).choose(view)``."""
    from .bots.levels import make_bot, parse_level
    level = parse_level(level)
    if level < 3:
        raise ValueError("analyse takes level 3 or 4")
    legal = view.get("legal_actions") if isinstance(view, dict) else None
    if not legal:
        raise ValueError("the view has no legal actions: this seat is not to move")
    bot = make_bot(game_id, level, seed, budget)
    if len(legal) == 1:
        found = None                            # the bot plays it without searching
    else:
        found = bot.evaluate(view, legal)
    if found is None:
        best = bot.choose(view)
        values = scores = [None] * len(legal)
        samples = 0
    else:
        values, scores = found
        best_i = max(range(len(legal)), key=lambda i: scores[i])
        best = legal[best_i]
        samples = int(bot.stats.get("samples", 0))
    best_key = canonical(best)
    order = sorted(range(len(legal)),
                   key=lambda i: (canonical(legal[i]) != best_key,
                                  -(scores[i] if scores[i] is not None else 0.0), i))
    win = game_id in _WIN_MEASURE
    actions = []
    for i in order:
        v = values[i]
        actions.append({
            "action": legal[i],
            "value": _round(v),
            "win": _round(min(1.0, max(0.0, v))) if win and v is not None else None,
            "samples": samples,
        })
    out = {"seat": view["seat"], "level": level, "actions": actions, "best": best,
           "beliefs": beliefs(game_id, view, seed)}
    why = reason(game_id, view, best)
    if why is not None:
        out["reason"] = why
    return out


# the games whose reasons reason() can give: a 24-card ace-ten deck, a trick to the highest
# card of the suit led or the highest trump
_REASON_GAMES = ("sixty_six", "tysiac1001")


def reason(game_id: str, view: dict, best) -> dict | None:
    """One plain reason for playing ``best`` that the view alone shows (never a hidden card),
    or ``None``: ``{"key": "marriage", "suit"}`` (the card declares a marriage),
    ``{"key": "sure_winner", "card"}`` (it takes the trick: no card the seat has not seen,
    hence none the others may hold, beats it), ``{"key": "void_shown", "seat", "suit"}`` (a
    seat still to play this trick has shown it holds none of the suit led).  66 and 1000 only
    (``_REASON_GAMES``)."""
    if game_id not in _REASON_GAMES or not isinstance(best, dict) or best.get("type") != "play":
        return None
    from .tricks import beats, trick_winner
    c = C.card(best["card"])
    if best.get("meld"):
        return {"key": "marriage", "suit": C.SUITS[C.suit_of(c)]}
    if game_id == "sixty_six":
        from .bots.sixty_six import Knowledge
    else:
        from .bots.tysiac1001 import Knowledge
    k = Knowledge(view)
    trump = k.trump if k.trump >= 0 else None
    entries = view.get("trick") or []
    trick = [C.card(e["card"]) for e in entries]
    power = C.ACE_TEN_POWER
    played = {e["seat"] for e in entries}
    seats = view.get("active") or range(view["players"])
    later = [s for s in seats if s != view["seat"] and s not in played]
    if trick and trick_winner(trick + [c], trump, power) != len(trick):
        takes = False                           # it does not even beat the cards on the table
    elif not later:
        takes = True                            # the last card of the trick, and the highest
    else:
        unseen = C.mask_of(C.deck(C.ACE_TEN_RANKS)) & ~k.hand & ~k.played
        takes = not any(beats(u, c, trump, power) for u in C.cards_of(unseen))
    if takes:
        return {"key": "sure_winner", "card": best["card"]}
    led = C.suit_of(trick[0] if trick else c)
    for s in later:
        if k.voids[s] >> led & 1:
            return {"key": "void_shown", "seat": s, "suit": C.SUITS[led]}
    return None
