"""``atut.analyse``: every legal action of a view valued by the search of a bot level.

The values come from the very search the bot of that level and seed runs
(``SearchBot.evaluate``, shared with its ``choose``), so ``analyse(...)["best"]`` is the action
that bot plays.  Beliefs come from a separate small sampling of the view (the plug-in's
``determinize``, seeded from the seed and the view), so they too are a function of the view
alone: dealing the unseen cards differently gives the same analysis.

The measure of ``value`` is the one each game's search maximises (``docs/BOTS.md``,
"Analysis"); ``win`` is an estimated chance of winning the deal where the measure is one
(``GameSpec.win_measure``; 66: a deal won counts 1), else ``None``.
"""

from __future__ import annotations

import random
import zlib

from . import cards as C
from .game import canonical

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
    from .bots.catalogue import SEARCH_LEVELS
    from .bots.levels import make_bot, parse_level
    level = parse_level(level)
    if level not in SEARCH_LEVELS:
        raise ValueError(f"analyse takes a search level ({', '.join(map(str, SEARCH_LEVELS))})")
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
    # the search value is (up to a tie-break of at most 0.02) the deal-win chance
    from .games import spec
    win = spec(game_id).win_measure
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


# --- the reason for the best action -------------------------------------------------------------
# One plain sentence a teacher would say, and only what the view proves: never a hidden card, so
# the same view with the unseen cards dealt differently gives the same reason.  A reason is a dict
# ``{"key": ..., ...}``; the page words it with the i18n key ``reason.<key>`` (web/i18n).  The
# keys of each game are listed in docs/BOTS.md ("Analysis").  Every card another seat "may hold"
# below is a card this seat has not seen, of a suit that seat has not shown void in, or one the
# view shows in its hand (a meld partner, a declared card, a card this seat gave it).


def reason(game_id: str, view: dict, best) -> dict | None:
    """One plain reason for playing ``best`` that the view alone shows, or ``None``.

    Card plays in every game: ``{"key": "sure_winner", "card"}`` (it beats the cards on the table
    and no card a seat still to play may hold beats it), ``{"key": "void_shown", "seat", "suit"}``
    (a seat still to play this trick has shown it holds none of the suit led).  66 and 1000:
    ``{"key": "marriage", "suit"}``.  Euchre: ``partner_wins`` (the partner's card on the table
    takes the trick and ``best`` leaves it so), ``trumps_held`` / ``trumps_pickup`` for a call or
    going alone, ``void_made`` for the dealer's discard.  Imperial: ``honour_lead`` (G14),
    ``seventh_trick`` (G15).  Cesarz: ``emperor``, ``emperor_interrupts``, ``emperor_trick``
    (G14), ``marriage_trump``, ``meld_pair`` (§7, G16, G17), ``joker_winner`` (G13)."""
    if not isinstance(best, dict) or not isinstance(view, dict):
        return None
    from .games import spec
    try:
        fn = spec(game_id).load("reason")       # GameSpec.reason
    except ValueError:                          # an unknown game: no reason
        return None
    return fn(view, best) if fn is not None else None


def _still_to_play(view: dict, seats) -> list[int]:
    """The seats of ``seats`` that play to this trick after the view's seat (clockwise from it)."""
    me, n = view["seat"], view["players"]
    played = {e["seat"] for e in view.get("trick") or []}
    return sorted((s for s in seats if s != me and s not in played), key=lambda s: (s - me) % n)


def ace_ten_reason(view: dict, best: dict) -> dict | None:
    """66 and 1000: a 24-card ace-ten deck, a trick to the highest card of the suit led or the
    highest trump."""
    if best.get("type") != "play":
        return None
    from .tricks import beats, trick_winner
    c = C.card(best["card"])
    if best.get("meld"):
        return {"key": "marriage", "suit": C.SUITS[C.suit_of(c)]}
    from .bots.interface import plugin
    k = plugin(view["game"]).Knowledge(view)
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


# --- euchre ---------------------------------------------------------------------------------------

MIN_TRUMPS = 2           # a call or a lone hand is explained by its trumps from two of them


def euchre_reason(view: dict, best: dict) -> dict | None:
    """Euchre (rules G4-G13): the bowers rank first in trumps and the left bower is a trump."""
    from .bots.euchre import Knowledge
    from .games.euchre import EFF, EFF_MASK, POWER
    from .tricks import beats, winning
    t = best.get("type")
    k = Knowledge(view)
    if t in ("order_up", "name", "alone", "defend_alone"):
        if t in ("alone", "defend_alone") and best.get("value") is not True:
            return None
        if t == "order_up":
            trump = C.suit_of(k.upcard)                            # G7
        elif t == "name":
            trump = C.SUITS.index(best["suit"])                    # G8
        else:
            trump = k.trump                                        # G10
        hand = k.hand
        pickup = t == "order_up" and k.seat == k.dealer           # G9: the upcard joins his hand
        if pickup:
            hand |= 1 << k.upcard
        trumps = C.cards_of(hand & EFF_MASK[trump][trump])         # G5: the left bower included
        if len(trumps) < MIN_TRUMPS:
            return None
        top = max(trumps, key=lambda x: POWER[trump][x])
        out = {"key": "trumps_pickup" if pickup else "trumps_held", "suit": C.SUITS[trump],
               "count": len(trumps), "card": C.code(top)}
        if pickup:
            out["upcard"] = C.code(k.upcard)
        return out
    if t == "discard":                                             # G9
        trump = k.trump
        c = C.card(best["card"])
        s = EFF[trump][c]
        rest = k.hand & ~(1 << c)
        if s != trump and not rest & EFF_MASK[trump][s] and rest & EFF_MASK[trump][trump]:
            return {"key": "void_made", "card": best["card"], "suit": C.SUITS[s]}
        return None
    if t != "play" or k.trump is None:
        return None
    trump = k.trump
    eff, power = EFF[trump], POWER[trump]
    c = C.card(best["card"])
    later = _still_to_play(view, [s for s in range(4) if not k.out[s]])

    def may_hold(s):
        m = k.unseen | (k.possible_up if s == k.dealer else 0)     # the kept upcard: dealer only
        for su in range(4):
            if k.voids[s] >> su & 1:
                m &= ~EFF_MASK[trump][su]
        return m

    def holds_trick(x):
        """No card a seat still to play may hold beats ``x``, the trick's best card (G13)."""
        return not any(beats(u, x, trump, power, eff) for s in later
                       for u in C.cards_of(may_hold(s)))

    if k.trick:
        w_seat, w_card = winning(k.trick, trump, power, eff)
        if beats(c, w_card, trump, power, eff):
            if holds_trick(c):
                return {"key": "sure_winner", "card": best["card"]}
        elif w_seat == k.partner(k.seat) and holds_trick(w_card):
            return {"key": "partner_wins", "seat": w_seat, "card": C.code(w_card)}
        led = eff[k.trick[0][1]]
    else:
        if holds_trick(c):
            return {"key": "sure_winner", "card": best["card"]}
        led = eff[c]
    for s in later:
        if k.voids[s] >> led & 1:                                  # G6: failed to follow
            return {"key": "void_shown", "seat": s, "suit": C.SUITS[led]}
    return None


# --- imperial -------------------------------------------------------------------------------------

def imperial_reason(view: dict, best: dict) -> dict | None:
    """Imperial (rules G13-G15): follow suit, else trump; K Q J A 10 9 8 7 (6)."""
    if best.get("type") != "play":
        return None
    from .bots.imperial import Knowledge
    from .games.imperial import BONUS, HONOURS, POWER
    from .tricks import beats, winning
    k = Knowledge(view)
    trump = k.trump
    c = C.card(best["card"])
    if not k.trick and HONOURS[(k.n, trump)] >> c & 1:            # G14: scored when led
        return {"key": "honour_lead", "card": best["card"], "points": BONUS}
    led = C.suit_of(k.trick[0][1]) if k.trick else C.suit_of(c)
    later = _still_to_play(view, range(k.n))
    takes = not k.trick or beats(c, winning(k.trick, trump, POWER)[1], trump, POWER)
    if takes:
        for s in later:
            follows = k.known[s] & C.SUIT_MASK[led]               # G13: he must follow suit
            for u in C.cards_of(k.possible(s)):
                if beats(u, c, trump, POWER) and (C.suit_of(u) == led or not follows):
                    takes = False
                    break
            if not takes:
                break
    if takes:
        if k.tricks_won[k.seat] == 6:                              # G15: more than six tricks
            return {"key": "seventh_trick", "card": best["card"]}
        return {"key": "sure_winner", "card": best["card"]}
    for s in later:
        if k.voids[s] >> led & 1:
            return {"key": "void_shown", "seat": s, "suit": C.SUITS[led]}
    return None


# --- cesarz ---------------------------------------------------------------------------------------

def cesarz_reason(view: dict, best: dict) -> dict | None:
    """Cesarz (rules G13-G20): the emperor, jokers with a companion counted as the obligatory
    suit, melds that score at once and set trump, the trick to the highest trump, else the
    highest card counted as the obligatory suit, the earlier of equal ranks."""
    if best.get("type") != "play":
        return None
    from .bots.cesarz import Knowledge
    from .games.cesarz import (
        EMPEROR,
        JOKERS,
        MELD1,
        NO,
        SUITED_MASK,
        Cesarz,
        card_key,
        entry_key,
        meld_value,
    )
    k = Knowledge(view)
    me = k.seat
    c = C.card(best["card"])
    comp = C.card(best["companion"]) if "companion" in best else NO
    meld = C.card(best["meld"]) if "meld" in best else NO
    winner_index = Cesarz._winner_index                       # G20, a function of its arguments
    if c == EMPEROR:                                           # G14
        if k.trick:
            w = k.trick[winner_index(None, k.trick, k.trump)][0]
            return {"key": "emperor_interrupts", "winner": w}
        return {"key": "emperor"}
    if any(e[1] == EMPEROR for e in k.trick):                  # G14.4: an emperor trick
        return {"key": "emperor_trick", "seat": k.trick[0][0]}
    if meld != NO:                                             # §7, G17: scored at once
        v = meld_value(c, meld)
        if C.rank_of(c) in (C.KING, C.QUEEN):
            su = C.suit_of(c)
            if su != k.trump:                                  # §6.5, G16
                return {"key": "marriage_trump", "suit": C.SUITS[su], "points": MELD1[su]}
            return {"key": "marriage", "suit": C.SUITS[su]}
        return {"key": "meld_pair", "card": best["card"], "meld": best["meld"], "points": v}
    if c in JOKERS:
        if comp == NO:
            return None                                        # G13: a bare joker never wins
        cs = k.led if k.led != NO else C.suit_of(comp)
    else:
        cs = C.suit_of(c)
    led = k.led if k.led != NO else cs
    trump = k.trump
    mine = (me, c, comp, cs, NO)
    entries = k.trick + [mine]
    later = _still_to_play(view, k.active)
    takes = winner_index(None, entries, trump) == len(k.trick)
    if takes:
        key = entry_key(mine, trump, led)
        for s in later:
            may = (k.unseen & k.allowed(s)) | k.known[s]
            # a card of its own suit, or any suited card as a joker's companion (G13), counted
            # as the obligatory suit; equal ranks go to the earlier card (G20)
            joker = any(may >> j & 1 for j in JOKERS)
            for u in C.cards_of(may & SUITED_MASK):
                if card_key(C.suit_of(u), u, trump, led) > key or \
                        (joker and card_key(led, u, trump, led) > key):
                    takes = False
                    break
            if not takes:
                break
    if takes:
        if c in JOKERS:
            return {"key": "joker_winner", "card": best["card"], "companion": best["companion"],
                    "suit": C.SUITS[cs]}
        return {"key": "sure_winner", "card": best["card"]}
    for s in later:
        if k.voids[s] >> led & 1:
            return {"key": "void_shown", "seat": s, "suit": C.SUITS[led]}
    return None

