"""Bot plug-in for 1001 (tysiac1001); see ``bots/interface.py`` for the interface.  Rule numbers
(G6 ...) are those of ``docs/rules/tysiac1001.md``.

What a seat knows (G19): its hand, the bids, the przykup once taken (G8: the declarer then holds
it), the card(s) it gave or was given (G9), the contract, every card played (the view's ``log``),
both cards of every marriage (G13: the partner card stays in its owner's hand), the trump, every
hand size, and a void whenever a player fails to follow suit (G12: and in trumps too, if a trump
suit existed and he did not trump).  Hands only shrink once play starts, so a void lasts for the
deal.  Unknown: the other hands, the przykup while bidding, and which przykup card went to the
other opponent (in the default hand-out each opponent got exactly one of the two this seat did
not get; with ``handout: "any"`` any card of the declarer's hand).

Levels 3 and 4 use ``search_values`` (not the generic PIMC): samples are drawn consistent with
the view and, by best of ``BID_TRIES`` determinizations, with the others' bids read as the
rules' estimate; each sample is played out with ``play_policy`` (marriages declared at once,
sure winners cashed, cheap wins, low discards) and scored by the deal's win (the seat gaining
most) plus a small margin term.  Contracts (G10) and hand-outs (G9) are valued on shared
play-outs (every contract against the same totals); bids (G6) by simulating the rest of the
auction (the others raising by 5 up to their estimate) and playing the deal out with each
possible declarer; cards by one play-out per action and sample.
"""

from __future__ import annotations

import random

from .. import cards as C
from ..game import canonical
from ..games.tysiac1001 import (
    DECK_MASK,
    DECLARER_MARK,
    MARRIAGE_VALUE,
    PAIR,
    PARTNER,
    POWER,
    VALUE,
    Tysiac1001,
    dealer_credit,
    has_marriage,
)
from ..tricks import beats, winning
from . import knowledge
from .catalogue import timer
from .sampling import sample_cards
from .search import note_search

SUIT = C.SUIT_MASK
SUIT_OF = C.SUIT_OF
cards_of = C.cards_of
NO = -1
ACE, TEN, KING, QUEEN = C.ACE, C.TEN, C.KING, C.QUEEN
SOLVE_CARDS = 6                     # (``solvable``: the last two tricks)
# ``search_values`` below replaces the generic search: ``rollouts`` counts play-outs per
# decision (each sample plays the deal out once per action, hand-out or possible declarer);
# level 4 has about four times level 3's (bench-bots: p95 about 75 ms and 235 ms in CPython).
BUDGETS = {
    3: {"rollouts": 200, "min_samples": 8},
    4: {"rollouts": 750, "min_samples": 20},
}


def _card(x):
    return C.CARD[x]


# --- what the seat knows -------------------------------------------------------------------

class Knowledge(knowledge.Knowledge):
    """Everything ``view`` tells its seat about the current deal (``bots.knowledge``): a seat
    that fails to follow shows a void in the led suit and, once a trump was named (G13) and he
    did not trump, in trumps too (G12); ``known`` holds the przykup in the declarer's hand
    (G8), the cards given (G9) and the marriages' partner cards (G13)."""

    def deck_of(self, view: dict) -> int:
        return DECK_MASK

    def read_view(self, view: dict) -> None:
        self.view = view
        self.phase = view["phase"]
        self.trump = C.SUITS.index(view["trump"]) if view["trump"] else NO
        self.active = list(view["active"])
        self.declarer = view["declarer"] if view["declarer"] is not None else NO
        self.sitting_out = view["sitting_out"]
        self.counts = [x["cards"] for x in view["seats"]]
        self.tricks = [x["tricks"] for x in view["seats"]]
        self.przykup = C.mask_of(_card(x) for x in view["przykup"]) if view["przykup"] else 0
        self.revealed = view["przykup"] is not None
        self.any_handout = view["options"].get("handout") == "any"
        self.shown = 0
        self.gifts: list[tuple[int, int]] = []        # (card or NO, to) in the order given
        self._trump = NO                              # the trump when the card was played

    def play(self, s: int, c: int, a: dict, trick: list) -> None:
        if not trick:
            if "meld" in a:
                self._trump = C.SUIT_OF[c]                                    # G13
                self.shown |= 1 << _card(a["meld"])
        elif (self.shows_void(s, c, trick)                                   # G12
              and self._trump != NO and C.SUIT_OF[c] != self._trump):
            self.voids[s] |= 1 << self._trump

    def action(self, s: int, a: dict) -> None:
        if a["type"] == "give":
            self.gifts.append((_card(a["card"]), a["to"]))

    def event(self, e: dict) -> None:
        if e["type"] == "handed":
            self.gifts.append((NO, e["to"]))

    def read_rest(self, view: dict) -> None:
        n, me = self.n, self.seat
        # cards known to be in a hand (and not yet played)
        self.melded = [0] * n                         # partner cards shown, by owner
        for m in view["marriages"]:
            for x in m["cards"]:
                c = _card(x)
                if self.shown >> c & 1:
                    self.melded[m["seat"]] |= 1 << c
        d = self.declarer
        if self.revealed and d != NO:
            self.known[d] |= self.przykup
            for c, to in self.gifts:
                if c != NO:
                    self.known[d] &= ~(1 << c)
                    self.known[to] |= 1 << c
        for s in range(n):               # a shown partner card is where it was shown
            for t in range(n):
                if t != s:
                    self.known[t] &= ~self.melded[s]
            self.known[s] |= self.melded[s]
        for s in range(n):
            if s != me:
                self.known[s] &= ~self.hand
        # the hidden gifts: recipients whose card this seat did not see
        self.hidden_to = [to for c, to in self.gifts if c == NO]
        self.led = C.SUIT_OF[self.trick[0][1]] if self.trick else NO
        self.sheet_rows: list | None = None           # (determinize: the parsed score sheet)


# --- determinization -------------------------------------------------------------------------

def _sample_hands(k: Knowledge, rng: random.Random) -> dict:
    """Deal the unseen cards to the other active seats (and to the przykup while bidding).

    A przykup card this seat did not see go anywhere stays with the declarer, except that each
    hidden gift took one card of the declarer's hand: in the default hand-out a przykup card
    (exactly one per hidden gift, unless a played card already proved which), with ``any`` a
    przykup card or any other unseen card."""
    me = k.seat
    d = k.declarer
    others = [s for s in k.active if s != me]
    sizes = {s: k.counts[s] - C.count(k.known[s]) for s in others}
    allowed = {s: k.allowed(s) for s in others}
    if not k.revealed:
        sizes["przykup"] = 3
    # przykup cards whose place is unknown: the known[d] set holds all unplayed przykup cards
    # not seen given; a hidden gift moves one of them (default) from d to its recipient
    moved_from = k.przykup & k.known[d] if (k.revealed and d != NO and d != me) else 0
    hidden = [to for to in k.hidden_to if to != me]
    if not hidden or not moved_from:
        return _finish(k, sizes, allowed, {}, rng)
    for _ in range(60):
        placed: dict[int, int] = {}
        left = dict(sizes)
        ok = True
        pool = C.cards_of(moved_from)
        for to in hidden:
            # a przykup card played by the recipient proves his gift
            proved = (k.played_by[to] | k.melded[to]) & k.przykup & ~k.hand
            if proved:                      # his gift is known to be that card
                continue
            opts = [c for c in pool if allowed[to] >> c & 1]
            if k.any_handout:
                opts.append(NO)             # the gift came from the declarer's own cards
            if not opts:
                ok = False
                break
            c = rng.choice(opts)
            if c == NO:
                continue
            pool.remove(c)
            placed[to] = placed.get(to, 0) | 1 << c
            # the card leaves d's known cards: d gets one unseen card in its place
            left[d] = left.get(d, 0) + 1
            left[to] -= 1
            if left[to] < 0:
                ok = False
                break
        if not ok or min(left.values()) < 0:
            continue
        if any(not allowed[d] >> c & 1 for c in pool):     # what stays with d fits its voids
            continue
        try:
            return _finish(k, left, allowed, placed, rng)
        except ValueError:
            continue
    raise ValueError("tysiac1001: no deal consistent with the view")


def _finish(k, sizes, allowed, placed, rng):
    moved = 0
    for m in placed.values():
        moved |= m
    known = list(k.known)
    if moved:
        known[k.declarer] &= ~moved
    free = k.unseen
    deal = sample_cards(C.cards_of(free), sizes, allowed, rng)
    out = {}
    for s in k.active:
        if s == k.seat:
            out[s] = k.hand
        else:
            out[s] = deal.get(s, 0) | known[s] | placed.get(s, 0)
    if "przykup" in deal:
        out["przykup"] = deal["przykup"]
    return out


def _parse_sheet(view):
    rows = []
    for r in view["score_sheet"]["rows"]:
        no, contract = r[0], r[1]
        deltas = []
        decl = NO
        for s, x in enumerate(r[2:]):
            if x.startswith(DECLARER_MARK):
                decl = s
                x = x[len(DECLARER_MARK):]
            deltas.append(int(x.replace("−", "-").replace("+", "")))
        rows.append((no, decl, "give_up" if contract == "—" else contract, tuple(deltas)))
    return rows


def determinize(view: dict, rng: random.Random, k: Knowledge | None = None) -> Tysiac1001:
    """A full state consistent with ``view``; ``k``: its ``Knowledge`` when the caller has it
    (the search samples one view many times; nothing here changes it)."""
    if k is None:
        k = Knowledge(view)
    if k.sheet_rows is None:                # parsed once per view
        k.sheet_rows = _parse_sheet(view)
    n = k.n
    hands = _sample_hands(k, rng)
    held = [hands.get(s, 0) for s in range(n)]
    przykup = k.przykup if k.revealed else hands["przykup"]
    bids = [x.get("bid") for x in view["seats"]]
    high = view["high_bid"] or 0
    given = []
    received = [NO] * n
    d = k.declarer
    for c, to in k.gifts:
        if c == NO:                         # some card of the recipient's sampled hand
            cand = held[to] & (przykup if not k.any_handout else DECK_MASK)
            cand = cand or held[to] or przykup
            c = (cand & -cand).bit_length() - 1
        given.append((c, to))
        received[to] = c
    left = przykup
    for c, _ in given:
        left &= ~(1 << c)
    lt = view["last_trick"]
    marriages = [(m["seat"], C.SUITS.index(m["suit"]), m["value"]) for m in view["marriages"]]
    meld = [0] * n
    for s, _, v in marriages:
        meld[s] += v
    delta = [0] * n
    if k.revealed and k.sitting_out is not None:
        delta[k.sitting_out] = dealer_credit(przykup)
    g = Tysiac1001.sampled(
        view, rng,
        sheet=list(k.sheet_rows),
        _checked_rows=-1,
        _end_mark=0,
        last_result=dict(view["last_result"]) if view.get("last_result") else None,
        sitting_out=k.sitting_out,
        active=list(k.active),
        hands=held,
        przykup=przykup,
        przykup_left=left if k.revealed else 0,
        revealed=k.revealed,
        bids=bids,
        passes=sum(1 for b in bids if b == "pass"),
        high=high,
        high_bidder=next((s for s in range(n) if bids[s] == high), NO) if high else NO,
        declarer=k.declarer,
        bid_won=view["bid"] or 0,
        contract=view["contract"] or 0,
        given=given,
        received=received,
        trick=list(k.trick),
        last_trick=[(x["seat"], _card(x["card"])) for x in lt["cards"]] if lt else [],
        last_winner=lt["winner"] if lt else NO,
        trump=k.trump,
        marriages=marriages,
        shown=k.shown,
        captured=list(k.captured),
        card_points=[sum(VALUE[c] for c in C.cards_of(m)) for m in k.captured],
        meld_points=meld,
        tricks_won=list(k.tricks),
        delta=delta,
        leader=view["leader"] if view["leader"] is not None else NO)
    if d != NO and not k.revealed:
        raise AssertionError("a declarer without a revealed przykup")
    return g


determinizer = knowledge.determinizer_of(determinize, Knowledge)    # the view read once


# --- hand judgement --------------------------------------------------------------------------

def estimate(hand: int, przykup_bonus: float = 10.0) -> float:
    """Rough points a declarer with ``hand`` takes: card points of the tricks he should win,
    the marriages he can declare (he needs a trick first: an ace helps) and a share of the
    przykup."""
    est = przykup_bonus
    aces = 0
    for s in range(4):
        suit = hand & SUIT[s]
        n = C.count(suit)
        a, t = C.make(ACE, s), C.make(TEN, s)
        if suit >> a & 1:
            aces += 1
            est += 11 + 5                              # the ace and what falls on it
            if suit >> t & 1:
                est += 10 + 4
        elif suit >> t & 1 and n >= 3:
            est += 6
        if n >= 4:
            est += 4 * (n - 3)                         # long suits win late tricks
    pairs = [s for s in range(4) if hand & PAIR[s] == PAIR[s]]
    for i, s in enumerate(sorted(pairs, key=lambda s: -MARRIAGE_VALUE[s])):
        w = 0.9 if aces else 0.6
        est += (MARRIAGE_VALUE[s] + 7) * (w if i == 0 else w * 0.7)
    return est


def keep_value(c: int, hand: int, trump: int = NO) -> float:
    """How much a card is worth keeping (lowest first for handing out)."""
    v = VALUE[c] + POWER[c]
    s = C.SUIT_OF[c]
    p = PARTNER[c]
    if p >= 0 and hand >> p & 1:
        v += 20 + MARRIAGE_VALUE[s] / 4
    if C.RANK_OF[c] == TEN and hand >> C.make(ACE, s) & 1:
        v += 8
    if s == trump:
        v += 8
    return v


# --- level 2: rules ---------------------------------------------------------------------------

def rule_policy(view: dict, rng: random.Random) -> dict:
    legal = view["legal_actions"]
    types = {a["type"] for a in legal}
    hand = C.mask_of(_card(x) for x in view["hand"])
    if "bid" in types or ("pass" in types and len(types) == 1):
        bids = [a for a in legal if a["type"] == "bid"]
        est = estimate(hand)
        if bids and bids[0]["value"] <= est - 5:
            return bids[0]                               # G6: the lowest raise while it pays
        return {"type": "pass"}
    if "play_on" in types:                               # G7: 10 cards, two go out
        keep = sorted(C.cards_of(hand), key=lambda c: keep_value(c, hand))[2:]
        est = estimate(C.mask_of(keep), 0)
        return {"type": "play_on"} if est >= 50 else {"type": "give_up"}
    if "give" in types:                                  # G9: the least useful card
        best = min(legal, key=lambda a: (keep_value(_card(a["card"]), hand), a["card"]))
        return best
    if "announce" in types:                              # G10: what the hand should make
        est = estimate(hand, 0)
        values = [a["value"] for a in legal]
        target = int(est // 5 * 5)
        v = max(values[0], min(target, values[-1]))
        return {"type": "announce", "value": v}
    return _rule_play(Knowledge(view), legal, rng)


def _higher_out(k: Knowledge, c: int) -> bool:
    """Whether a card of c's suit above c may be in another hand."""
    su = C.SUIT_OF[c]
    out = k.unseen | _others_known(k)
    out &= SUIT[su]
    return any(POWER[x] > POWER[c] for x in C.cards_of(out))


def _others_known(k: Knowledge) -> int:
    m = 0
    for s in range(k.n):
        if s != k.seat:
            m |= k.known[s]
    return m


def _marriage_parts(hand: int) -> int:
    m = 0
    for p in PAIR:
        if hand & p == p:
            m |= p
    return m


def _cheapest(cards, hand, trump):
    return min(cards, key=lambda c: (keep_value(c, hand, trump), c))


def _rule_play(k: Knowledge, legal, rng):
    hand = k.hand
    me = k.seat
    melds = [a for a in legal if "meld" in a]
    if melds:                                        # G13: declare the best marriage, queen led
        best = max(melds, key=lambda a: (MARRIAGE_VALUE[C.SUIT_OF[_card(a["card"])]],
                                         C.RANK_OF[_card(a["card"])] == QUEEN))
        return best
    cards = [_card(a["card"]) for a in legal]
    parts = _marriage_parts(hand)
    if not k.trick:
        return {"type": "play", "card": C.code(_lead(k, cards, parts))}
    who, best = winning(k.trick, k.trump, POWER)
    led = k.led
    value = sum(VALUE[c] for _, c in k.trick)
    last = len(k.trick) == 2
    wins = [c for c in cards if beats(c, best, k.trump, POWER)]
    d = k.declarer
    friend_winning = me != d and who != d
    if last:
        if friend_winning:                           # smear points on the other defender
            return {"type": "play", "card": C.code(max(
                cards, key=lambda c: (VALUE[c] - 30 * (parts >> c & 1), -POWER[c])))}
        if wins:
            c = min(wins, key=lambda c: (parts >> c & 1, POWER[c]))
            return {"type": "play", "card": C.code(c)}
        return {"type": "play", "card": C.code(_cheapest(cards, hand, k.trump))}
    # second to play
    nxt = k.active[(k.active.index(me) + 1) % 3]
    if wins:
        safe = [c for c in wins if not _higher_out(k, c)
                and (C.SUIT_OF[c] == k.trump or k.trump == NO or not k.voids[nxt] >> led & 1)]
        if safe and (value >= 10 or not friend_winning):
            return {"type": "play", "card": C.code(max(safe, key=lambda c: (VALUE[c], c)))}
        if value >= 10 and not (friend_winning and nxt != d):
            c = max(wins, key=lambda c: (POWER[c], -VALUE[c]))
            if not parts >> c & 1:
                return {"type": "play", "card": C.code(c)}
    return {"type": "play", "card": C.code(_cheapest(cards, hand, k.trump))}


def _lead(k: Knowledge, cards, parts):
    hand = k.hand
    others = [s for s in k.active if s != k.seat]

    def sure(c):
        su = C.SUIT_OF[c]
        if _higher_out(k, c):
            return False
        if su == k.trump or k.trump == NO:
            return True
        return not any(k.voids[s] >> su & 1 for s in others)

    winners = [c for c in cards if sure(c) and not parts >> c & 1]
    if winners:
        return max(winners, key=lambda c: (VALUE[c], C.SUIT_OF[c] == k.trump))
    # otherwise a low card of a long side suit, keeping marriages, trumps and guarded tens

    def key(c):
        su = C.SUIT_OF[c]
        return (parts >> c & 1, su == k.trump, VALUE[c] >= 10, -C.count(hand & SUIT[su]),
                VALUE[c], c)
    return min(cards, key=key)


# --- rollouts ----------------------------------------------------------------------------------

def rollout_policy(g: Tysiac1001, rng: random.Random) -> dict:
    legal = g._legal()
    ph = g.phase
    if ph == "bid":
        return legal[-1]                                            # pass
    if ph == "decide":
        return legal[0]                                             # play on
    if ph == "give":
        hand = g.hands[g.to_move]
        return min(legal, key=lambda a: keep_value(C.CARD[a["card"]], hand))
    if ph == "announce":
        return legal[0]
    melds = [a for a in legal if "meld" in a]
    if melds and rng.random() < 0.9:
        return rng.choice(melds)
    if g.trick and rng.random() < 0.7:
        # win cheaply if possible, else throw the lowest card
        best = g.trick[0][1]
        for _, c in g.trick[1:]:
            if beats(c, best, g.trump, POWER):
                best = c
        win = low = None
        for a in legal:
            c = C.CARD[a["card"]]
            if beats(c, best, g.trump, POWER) and (win is None or POWER[c] < POWER[win]):
                win = c
            if low is None or VALUE[c] < VALUE[low]:
                low = c
        return {"type": "play", "card": C.CODES[win if win is not None else low]}
    return rng.choice(legal)


def evaluate(g: Tysiac1001, seat: int, start) -> float:
    """The deal's score change of ``seat`` minus the others' mean, in hundreds; a won or lost
    game counts 10 more or less."""
    n = g.n
    d = [g.scores[s] - start.scores[s] for s in range(n)]
    others = sum(d[s] for s in range(n) if s != seat) / (n - 1)
    v = (d[seat] - others) / 100.0
    if g.to_move is None:
        v += 10.0 if g.winner == seat else -10.0
    return v


def deal_over(g: Tysiac1001, start) -> bool:
    return g.to_move is None or g.deal_no != start.deal_no


def solvable(g: Tysiac1001, start) -> bool:
    if g.phase != "play":
        return False
    return sum(C.count(g.hands[s]) for s in g.active) <= SOLVE_CARDS


def order_actions(g: Tysiac1001, actions: list) -> list:
    return sorted(actions, key=lambda a: -VALUE[C.CARD[a["card"]]] if a["type"] == "play" else 0)


__all__ = ["Knowledge", "determinize", "rule_policy", "rollout_policy", "evaluate", "deal_over",
           "solvable", "order_actions", "estimate", "keep_value", "has_marriage"]


# --- levels 3 and 4: the plug-in's own search -------------------------------------------------
#
# The deal is scored in one go at its end (G14, G15): the declarer gets +C or -C, the others
# their rounded totals.  So the contract C (announced after the hand-out, G10) and the hand-out
# itself (G9) are evaluated on shared samples: each sampled deal is played out once, and every
# contract is scored against the totals that play-out reached.  Bids (G6) are valued by
# simulating the rest of the auction with the others bidding by the rules' estimate, and
# playing the deal out with each possible declarer.

SEARCH_PHASES = ("bid", "decide", "give", "announce", "play")
WIN_MARGIN = 0.1                    # weight of the score margin (per 100 points) beside the win


class _Sim(Tysiac1001):
    """A sampled state whose deal stops, unscored, after the last trick."""

    def _score_deal(self):
        self.phase = "done"
        self.to_move = None


def _clone(g):
    """``search.fast_clone`` for a search state of this game: its lists hold ints and tuples
    (the score sheet's rows are tuples), so a shallow copy of each list is enough."""
    new = object.__new__(type(g))
    d = g.__dict__.copy()
    for key, v in d.items():
        if type(v) is list:
            d[key] = v[:]
    d["_cache"] = None
    new.__dict__ = d
    return new


def _sim(g):
    g.__class__ = _Sim
    return g


def _totals(g):
    return [g.card_points[s] + g.meld_points[s] for s in range(g.n)]


def _gains(n, d, contract, totals, extra, active):
    """G14, G15: every seat's gain for the deal (``extra``: gains already made, G16)."""
    out = list(extra)
    for s in active:
        if s == d:
            out[s] += contract if totals[s] >= contract else -contract
        else:
            x = totals[s]
            r = x % 5
            out[s] += x - r if r <= 2 else x + 5 - r
    return out


def _value(gains, me):
    """Deal-win share (the seat gaining most; ties shared) plus a small margin term."""
    best = max(gains)
    n = len(gains)
    win = 1.0 / gains.count(best) if gains[me] == best else 0.0
    others = (sum(gains) - gains[me]) / (n - 1)
    return win + WIN_MARGIN * (gains[me] - others) / 100.0


def _top_out(g, c, seat):
    """Whether another hand still holds a higher card of c's suit."""
    su = C.SUIT_OF[c]
    rest = 0
    for s in g.active:
        if s != seat:
            rest |= g.hands[s]
    rest &= SUIT[su]
    p = POWER[c]
    while rest:
        low = rest & -rest
        if POWER[low.bit_length() - 1] > p:
            return True
        rest ^= low
    return False


def _cheap_key(c, hand, trump):
    return keep_value(c, hand, trump)


def play_policy(g, rng) -> dict:
    """A fast, sensible card play on a full state: declare the best marriage, cash sure
    winners, lead low from long suits, win tricks cheaply, otherwise throw the least useful card."""
    c, meld = _play_choice(g)
    if meld:
        return {"type": "play", "card": C.CODES[c], "meld": C.CODES[PARTNER[c]]}
    return {"type": "play", "card": C.CODES[c]}


def _play_choice(g) -> tuple[int, bool]:
    """``play_policy``'s play as (card int, declares its marriage)."""
    seat = g.to_move
    hands = g.hands
    hand = hands[seat]
    trump = g.trump
    trick = g.trick
    if not trick:
        parts = 0
        best_pair = NO
        for su in range(4):
            if hand & PAIR[su] == PAIR[su]:
                parts |= PAIR[su]
                if g.tricks_won[seat] and (best_pair == NO or su > best_pair):
                    best_pair = su
        if best_pair != NO:                                          # G13
            return QUEENS_[best_pair], True
        cards = cards_of(hand)
        others = [s for s in g.active if s != seat]
        best = None
        bv = -1
        for c in cards:
            if parts >> c & 1 or _top_out(g, c, seat):
                continue
            su = SUIT_OF[c]
            if trump != NO and su != trump and any(
                    not hands[s] & SUIT[su] and hands[s] & SUIT[trump] for s in others):
                continue
            v = VALUE[c] + (5 if su == trump else 0)
            if v > bv:
                best, bv = c, v
        if best is not None:
            return best, False

        def key(c):
            su = SUIT_OF[c]
            return (parts >> c & 1, su == trump, VALUE[c] >= 10, -(hand & SUIT[su]).bit_count(),
                    VALUE[c], c)
        return min(cards, key=key), False
    cards = cards_of(g._playable(seat)[0])            # (no marriage: not on the lead)
    if len(cards) == 1:
        return cards[0], False
    who, best = trick[0]
    led = SUIT_OF[best]
    for s, c in trick[1:]:
        if beats(c, best, trump, POWER):
            best, who = c, s
    value = 0
    for _, c in trick:
        value += VALUE[c]
    parts = _marriage_parts(hand)
    wins = [c for c in cards if beats(c, best, trump, POWER)]
    d = g.declarer
    if len(trick) == 2:
        if wins:
            c = min(wins, key=lambda c: (parts >> c & 1, POWER[c] + (10 if SUIT_OF[c] == trump
                                                                      else 0)))
            if not parts >> c & 1 or value >= 10:
                return c, False
        if seat != d and who != d:                   # the other defender wins: give points
            c = max(cards, key=lambda c: (VALUE[c] - 30 * (parts >> c & 1) - 20 * (
                SUIT_OF[c] == trump), -POWER[c]))
            return c, False
        return min(cards, key=lambda c: (keep_value(c, hand, trump), c)), False
    if wins:
        act = g.active
        nxt = act[(act.index(seat) + 1) % 3]
        nh = hands[nxt]
        safe = []
        for c in wins:
            su = SUIT_OF[c]
            if _top_out(g, c, seat):
                continue
            if su != trump and trump != NO and not nh & SUIT[led] and nh & SUIT[trump]:
                continue
            safe.append(c)
        if safe and not (seat != d and who != d and nxt != d):
            c = max(safe, key=lambda c: (VALUE[c] - 30 * (parts >> c & 1), c))
            if not parts >> c & 1:
                return c, False
    return min(cards, key=lambda c: (keep_value(c, hand, trump), c)), False


QUEENS_ = [C.make(QUEEN, s) for s in range(4)]
KINGS_ = [C.make(KING, s) for s in range(4)]


def _give_rule(g):
    hand = g.hands[g.to_move]
    legal = g._legal()
    return min(legal, key=lambda a: (keep_value(C.CARD[a["card"]], hand), a["card"]))


def _announce_rule(g):
    """The rules' contract for the declarer of ``g`` in the announce phase."""
    lo, hi = g._contract_range()
    est = estimate(g.hands[g.declarer], 0)
    return max(lo, min(int(est // 5 * 5), hi))


def _finish_play(g, rng):
    """Play ``g`` (a _Sim from the give, announce or play phase) to the end; the totals."""
    while g.phase == "give":
        g._apply(_give_rule(g))
    if g.phase == "announce":
        g._apply({"type": "announce", "value": g._contract_range()[0]})
    play = g._play_card
    while g.phase == "play":
        c, meld = _play_choice(g)
        play(g.to_move, c, meld)
    return _totals(g)


def _extra(g):
    """Gains made in this deal before its scoring (the sitting-out dealer's credit, G16)."""
    return list(g.delta)


BID_TRIES = 6                       # determinizations tried per sample to match the bids
BID_SLACK = 5                       # estimate points a bid may miss the rules' model by


def _bid_constraints(view):
    """What the others' bids say of their hands (G6), read as the rules' bidding: a bid of v
    means an estimate of at least v + 5, a pass at lowest bid lo one below lo + 5 (unless lo
    was above 120 and so out of reach without a marriage).  {seat: (low, high)}."""
    me = view["seat"]
    high = 0
    out = {}
    for e in view["log"]:
        if e["type"] != "action":
            continue
        a = e["action"]
        s = e["seat"]
        if a["type"] not in ("bid", "pass"):
            continue
        if s != me:
            lo_e, hi_e = out.get(s, (-1e9, 1e9))
            if a["type"] == "bid":
                lo_e = max(lo_e, a["value"] + 5)
            else:
                lo = high + 5 if high else 40
                if lo <= 120:
                    hi_e = min(hi_e, lo + 5)
            out[s] = (lo_e, hi_e)
        if a["type"] == "bid":
            high = a["value"]
    return out


def _original(g, k, s):
    """Seat s's dealt hand in the sampled state ``g`` (before the przykup moved)."""
    h = g.hands[s] | k.played_by[s]
    if s == g.declarer and g.revealed:
        for c, _ in g.given:
            h |= 1 << c
        return h & ~g.przykup
    if g.received[s] >= 0:
        h &= ~(1 << g.received[s])
    return h


def _samples(view, rng, count, budget, clock, deadline, tally):
    """Up to ``count`` sampled deals fitted to the others' bids; stops early at the time cap
    (``tally``: samples given and whether the cap cut them short, for ``note_search``)."""
    cons = _bid_constraints(view) if BID_TRIES > 1 else {}
    k = Knowledge(view)
    for i in range(count):
        best = None
        bv = None
        for _ in range(BID_TRIES if cons else 1):
            g = determinize(view, rng, k)
            if not cons:
                best = g
                break
            miss = 0.0
            for s, (lo_e, hi_e) in cons.items():
                est = estimate(_original(g, k, s))
                if est < lo_e:
                    miss += lo_e - est
                elif est >= hi_e:
                    miss += est - hi_e + 1
            if bv is None or miss < bv:
                best, bv = g, miss
            if miss <= BID_SLACK:
                break
        tally[0] += 1
        yield _sim(best)
        if i + 1 < count and clock() > deadline:
            tally[1] = True
            return


def _declarer_rows(rows, me):
    """Per row (totals, extra, active) with ``me`` the declarer: (my total, my gain before
    scoring, the others' best gain, how many share it, the others' mean gain)."""
    out = []
    for totals, extra, active in rows:
        n = len(extra)
        others = []
        for s in range(n):
            if s == me:
                continue
            x = extra[s]
            if s in active:
                t = totals[s]
                r = t % 5
                x += t - r if r <= 2 else t + 5 - r
            others.append(x)
        top = max(others)
        out.append((totals[me], extra[me], top, others.count(top), sum(others) / (n - 1)))
    return out


def _contract_row_values(drows, c):
    """The value of contract ``c`` in each of ``drows`` (``_declarer_rows``): as ``_value``."""
    out = []
    wm = WIN_MARGIN / 100.0
    for t, base, top, cnt, mean in drows:
        mine = base + (c if t >= c else -c)
        win = 1.0 if mine > top else (1.0 / (cnt + 1) if mine == top else 0.0)
        out.append(win + wm * (mine - mean))
    return out


def _contract_values(rows, me, d, lo, hi):
    """For each contract lo..hi (step 5): the mean value over ``rows`` = (totals, extra,
    active), ``me`` being the declarer ``d``."""
    drows = _declarer_rows(rows, me)
    out = []
    for c in range(lo, hi + 1, 5):
        v = _contract_row_values(drows, c)
        out.append((c, sum(v) / len(v)))
    return out


def search_values(view, legal, rng, budget, stats, level):
    clock, deadline = timer(budget)
    ph = view["phase"]
    tally = [0, False]                             # samples done, cut by the time cap
    if ph not in SEARCH_PHASES:                    # (for experiments) the rules decide
        key = canonical(rule_policy(view, rng))
        out = [float(canonical(a) == key) for a in legal]
    elif ph == "announce":
        out = _announce_values(view, legal, rng, budget, clock, deadline, tally)
    elif ph in ("give", "decide"):
        out = _give_values(view, legal, rng, budget, clock, deadline, tally)
    elif ph == "bid":
        out = _bid_values(view, legal, rng, budget, clock, deadline, tally)
    else:
        out = _play_values(view, legal, rng, budget, clock, deadline, tally)
    note_search(stats, tally[0], tally[1])
    return out


def _best_contract(rows, me, d, lo, hi):
    """(value, contract) of the best contract in lo..hi over ``rows``."""
    top = max(r[0][d] for r in rows)
    hi = max(lo, min(hi, top // 5 * 5 + 5))
    vals = _contract_values(rows, me, d, lo, hi)
    c, v = max(vals, key=lambda x: (x[1], -x[0]))
    return v, c


def _announce_values(view, legal, rng, budget, clock, deadline, tally):
    me = view["seat"]
    rows = []
    for g in _samples(view, rng, budget["rollouts"], budget, clock, deadline, tally):
        extra = _extra(g)
        rows.append((_finish_play(g, rng), extra, g.active))
    drows = _declarer_rows(rows, me)
    top = max(r[0] for r in drows)
    out = []
    for a in legal:
        c = a["value"]
        if c > top + 5 and out:                     # never made in any sample: worse still
            out.append(out[-1] - 1e-3)
            continue
        v = _contract_row_values(drows, c)
        out.append(sum(v) / len(v) - 1e-6 * c)
    return out


def _combos(g):
    """The hand-outs still to make from ``g`` (give phase): tuples of give actions."""
    out = []
    first = g._legal()
    if len(g.given) == 1:
        return [(a,) for a in first]
    any_handout = g.options.get("handout") == "any"
    hand = g.hands[g.to_move]
    if any_handout and len(first) > 4:
        first = sorted(first, key=lambda a: (keep_value(C.CARD[a["card"]], hand), a["card"]))[:4]
    for a in first:
        second = [b for b in first if b["card"] != a["card"]]
        r2 = g._recipients()[1]
        out.extend((a, {"type": "give", "card": b["card"], "to": r2}) for b in second)
    return out


def _give_values(view, legal, rng, budget, clock, deadline, tally):
    me = view["seat"]
    decide = view["phase"] == "decide"
    combos = None
    rows: list = []
    count = None
    for g in _samples(view, rng, 10 ** 6, budget, clock, deadline, tally):
        if decide:
            g._apply({"type": "play_on"})
        if combos is None:
            combos = _combos(g)
            keys = [tuple(canonical(a) for a in cb) for cb in combos]
            rows = [[] for _ in combos]
            count = max(budget["min_samples"], budget["rollouts"] // len(combos))
        extra = _extra(g)
        for j, cb in enumerate(combos):
            c = _clone(g)
            for a in cb:
                c._apply(a)
            rows[j].append((_finish_play(c, rng), extra, c.active, c))
        if len(rows[0]) >= count:
            break
    vals = []
    for j in range(len(combos)):
        r = rows[j]
        sample = r[0][3]
        lo, hi = sample._contract_range()
        # the cap depends on the kept hand, the same in every sample
        v, _ = _best_contract([x[:3] for x in r], me, me, lo, hi)
        vals.append(v)
    if decide:
        best = max(vals)
        n = view["players"]
        gains = [0] * n
        for s in view["active"]:
            if s != me:
                gains[s] = 50                                         # G7
        out = []
        for a in legal:
            out.append(best if a["type"] == "play_on" else _value(gains, me))
        return out
    out = []
    for a in legal:
        k = canonical(a)
        out.append(max((v for v, key in zip(vals, keys) if key[0] == k), default=-1e9))
    return out


def _play_values(view, legal, rng, budget, clock, deadline, tally):
    me = view["seat"]
    n_act = len(legal)
    count = max(budget["min_samples"], -(-budget["rollouts"] // n_act))
    keys = [canonical(a) for a in legal]
    totals_v = [0.0] * n_act
    done = 0
    for g in _samples(view, rng, count, budget, clock, deadline, tally):
        extra = _extra(g)
        by_key = {canonical(a): a for a in g._legal()}
        d = g.declarer
        for j, k in enumerate(keys):
            c = _clone(g)
            c._apply(by_key[k])
            t = _finish_play(c, rng)
            totals_v[j] += _value(_gains(g.n, d, g.contract, t, extra, g.active), me)
        done += 1
    return [t / done for t in totals_v]


def _declare(g, j, rng):
    """Play the sampled bid-phase state ``g`` out with ``j`` as the declarer (rules' hand-out):
    (totals, extra gains, the rules' contract for j, whether j would play on after two passes)."""
    c = _clone(g)
    c.high_bidder = j
    c.high = c.high or 40
    c._end_auction()
    extra = list(c.delta)
    while c.phase == "give":
        c._apply(_give_rule(c))
    ann = _announce_rule(c)
    play_on = estimate(c.hands[j], 0) >= 50                        # the rules' G7 choice
    return _finish_play(c, rng), extra, ann, play_on


def _auction(active, passed, high, hb, me, maxes, caps):
    """The rest of the auction with every seat raising by 5 up to its max (G6): (declarer,
    floor), floor 0 for the two-pass case (G7)."""
    passed = set(passed)
    to = me
    while True:
        lo = high + 5 if high else 40
        if lo <= maxes[to] and lo <= caps[to]:
            high, hb = lo, to
        else:
            passed.add(to)
            if len(passed) == 2:
                break
        i = active.index(to)
        for k in (1, 2, 3):
            t = active[(i + k) % 3]
            if t not in passed:
                to = t
                break
    if hb >= 0:
        return hb, high
    return next(s for s in active if s not in passed), 0


def _bid_values(view, legal, rng, budget, clock, deadline, tally):
    me = view["seat"]
    n = view["players"]
    active = list(view["active"])
    bids = [x.get("bid") for x in view["seats"]]
    passed = [s for s in active if bids[s] == "pass"]
    high = view["high_bid"] or 0
    hb = next((s for s in active if bids[s] == high), NO) if high else NO
    lo = high + 5 if high else 40
    my_cap = max(a["value"] for a in legal if a["type"] == "bid") if len(legal) > 1 else 0
    count = max(budget["min_samples"], budget["rollouts"] // 3)
    samples = []                      # (maxes, caps, {declarer: (totals, extra, ann, play_on)})
    for g in _samples(view, rng, count, budget, clock, deadline, tally):
        maxes = [-1] * n
        caps = [0] * n
        outs = {}
        for s in active:
            if s == me or s in passed:
                continue
            maxes[s] = estimate(g.hands[s]) - 5
            caps[s] = 400 if has_marriage(g.hands[s]) else 120
        outs[me] = _declare(g, me, rng)
        for s in active:
            if s != me and s not in passed and (maxes[s] >= lo or len(passed) + 1 == 2
                                                or True):
                outs[s] = _declare(g, s, rng)
        samples.append((maxes, caps, outs))
    # my contract for each floor: the best over the samples where I declare
    my_rows = [(o[me][0], o[me][1], active) for _, _, o in samples]
    top = max(r[0][me] for r in my_rows)
    c_hi = max(lo, min(my_cap or lo, top // 5 * 5 + 5))
    table = {}
    drows = _declarer_rows(my_rows, me)
    for c in range(40, c_hi + 1, 5):
        table[c] = _contract_row_values(drows, c)
    means = {c: sum(v) / len(v) for c, v in table.items()}
    best_from = {}
    run = None
    for c in sorted(means, reverse=True):
        if run is None or means[c] > means[run]:
            run = c
        best_from[c] = run

    def value_of(m):
        tot = 0.0
        for i, (maxes, caps, outs) in enumerate(samples):
            mx = list(maxes)
            cp = list(caps)
            mx[me] = m
            cp[me] = my_cap
            d, floor = _auction(active, passed, high, hb, me, mx, cp)
            if d == me:
                c = best_from.get(max(floor, 40))
                if c is None:
                    c = max(floor, 40)
                    t, e, _, _ = outs[me]
                    tot += _value(_gains(n, me, c, t, e, active), me)
                else:
                    tot += table[c][i]
                continue
            t, e, ann, play_on = outs[d]
            if floor == 0 and not play_on:
                gains = list(e)
                for s in active:
                    if s != d:
                        gains[s] += 50                                # G7
                tot += _value(gains, me)
                continue
            c = max(floor, 40, ann)
            tot += _value(_gains(n, d, c, t, e, active), me)
        return tot / len(samples)

    v_pass = value_of(-1)
    v_bid = max(value_of(m) for m in range(lo, max(lo, c_hi) + 1, 5)) if my_cap else -1e9
    out = []
    for a in legal:
        if a["type"] == "pass":
            out.append(v_pass)
        else:
            out.append(v_bid - 1e-4 * (a["value"] - lo))
    return out
