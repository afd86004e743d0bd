"""Bot plug-in for euchre; see ``bots/__init__.py`` for the interface.  Rule numbers (G4 ...)
refer to the shared rules file ``001-euchre.md``.

What a seat knows (section 5 of the rules file): its hand, the upcard and whether the dealer
picked it up or it was turned down (G9), every call, trump, the alone decisions and who sits
out, every card played (the view's ``log``), and so every void shown by failing to follow the
led (effective) suit (G5, G6).  The dealer also knows his discard.  Unknown: the other hands,
the three unused cards, and (for everyone but the dealer) the discard - which is the upcard
itself only if the dealer threw it away.
"""

from __future__ import annotations

import random

from .. import cards as C
from ..games.euchre import DECK, DECK_MASK, EFF, EFF_MASK, POWER, RIGHT, TARGET, Euchre
from . import blank_game, sample_cards

SUITS = C.SUITS
BUDGETS = {
    3: {"rollouts": 700, "min_samples": 16},
    4: {"rollouts": 1300, "min_samples": 24, "solve_nodes": 1500},   # p95 about 1/3 s in CPython
}
SOLVE_CARDS = 8                        # level 4 solves the play exactly from this many cards
UPCARD_DISCARD_P = 0.05                # how often a dealer is taken to have buried the upcard

# --- hand strength: expected tricks of one hand for a trump suit -----------------------------

# trump by POWER: right 20, left 19, A 18, K 17, Q 16, 10 15, 9 14
TRUMP_TRICKS = {20: 1.0, 19: 0.85, 18: 0.7, 17: 0.55, 16: 0.45, 15: 0.4, 14: 0.35}


def strength(hand: int, t: int) -> float:
    """Rough expected tricks of ``hand`` with trump ``t`` (with an average partner's help
    counted by the caller): G4 ranks, long trumps, off aces, voids to ruff."""
    eff, power, masks = EFF[t], POWER[t], EFF_MASK[t]
    trumps = hand & masks[t]
    n_tr = C.count(trumps)
    est = 0.0
    for c in C.cards_of(trumps):
        est += TRUMP_TRICKS[power[c]]
    if n_tr >= 3:
        est += 0.25 * (n_tr - 2)
    for s in range(4):
        if s == t:
            continue
        m = hand & masks[s]
        k = C.count(m)
        if k == 0:
            if n_tr >= 2:
                est += 0.3                                  # a void to ruff in
            continue
        top = max(power[c] for c in C.cards_of(m))
        if top == 6:                                        # ace
            est += 0.7 if k <= 2 else 0.45
            if k >= 2 and any(power[c] == 5 for c in C.cards_of(m)):
                est += 0.3                                  # A K together
        elif top == 5 and k >= 2:
            est += 0.2
    return est


def best_discard(hand6: int, t: int) -> int:
    """The card of six whose loss leaves the strongest five (G9): usually a low off-suit card,
    best one that makes a void."""
    best, best_v = -1, -1e9
    for c in C.cards_of(hand6):
        v = strength(hand6 & ~(1 << c), t) - (0.01 * POWER[t][c])
        if v > best_v:
            best, best_v = c, v
    return best


PARTNER_HELP = 0.9                     # tricks an average partner adds
ORDER_AT = 3.0                         # call when hand + partner reach this
ALONE_AT = 4.3                         # go alone with this many tricks of one's own
DEFEND_ALONE_AT = 3.6


def call_value(hand: int, t: int, seat: int, dealer: int, upcard: int | None) -> float:
    """Expected tricks of ``seat``'s pair if trump is ``t`` (``upcard`` goes to the dealer)."""
    if upcard is not None and seat == dealer:
        hand6 = hand | (1 << upcard)
        est = strength(hand6 & ~(1 << best_discard(hand6, t)), t)
    else:
        est = strength(hand, t)
        if upcard is not None:
            v = TRUMP_TRICKS.get(POWER[t][upcard], 0.3)
            est += 0.5 * v if (dealer - seat) % 2 == 0 else -0.5 * v
    return est + PARTNER_HELP


# --- what the seat knows -------------------------------------------------------------------

class Knowledge:
    """Everything ``view`` tells its seat about the current deal."""

    def __init__(self, view: dict):
        self.seat = me = view["seat"]
        self.phase = view["phase"]
        self.dealer = view["dealer"]
        self.hand = C.mask_of(C.card(x) for x in view["hand"])
        self.trump = SUITS.index(view["trump"]) if view["trump"] else None
        self.upcard = C.card(view["upcard"])
        self.up_state = view["upcard_state"]
        self.maker = view["maker"]
        self.alone = view["alone"]
        self.lone_defender = view["lone_defender"]
        self.out = [bool(x.get("sitting_out")) for x in view["seats"]]
        self.counts = [x["cards"] for x in view["seats"]]
        self.tricks_won = [x["tricks"] for x in view["seats"]]
        self.trick = [(x["seat"], C.card(x["card"])) for x in view["trick"]]
        self.my_discard = -1
        self.discarded = False
        for p in view["piles"]:
            if p["id"] == "discard":
                self.discarded = True
                if "cards" in p:
                    self.my_discard = C.card(p["cards"][0])
        self.voids = [0, 0, 0, 0]                      # effective suits (bits) shown void
        self.played = 0
        t = self.trump
        pending: list[tuple[int, int]] = []
        for e in view["log"]:
            typ = e["type"]
            if typ == "action" and e["action"]["type"] == "play":
                c = C.card(e["action"]["card"])
                s = e["seat"]
                if pending and t is not None:
                    led = EFF[t][pending[0][1]]
                    if EFF[t][c] != led:
                        self.voids[s] |= 1 << led       # G6: failed to follow
                pending.append((s, c))
                self.played |= 1 << c
            elif typ == "trick":
                pending = []
        # where the upcard is, as far as this seat knows
        self.up_known = True                           # its place is known to this seat
        if self.up_state == "taken" and me != self.dealer and not (self.played >> self.upcard & 1):
            self.up_known = False                      # dealer's hand, or his discard
        known_out = self.hand | self.played | (1 << self.upcard)
        if self.my_discard >= 0:
            known_out |= 1 << self.my_discard
        self.unseen = DECK_MASK & ~known_out           # other hands, kitty, unknown discard
        # the upcard, when it may still be in the dealer's hand
        self.possible_up = 0 if self.up_known else 1 << self.upcard

    def team(self, s: int) -> int:
        return s & 1

    def partner(self, s: int) -> int:
        return (s + 2) & 3

    def outstanding(self) -> int:
        """Cards the others may still hold (unseen plus the dealer's kept upcard)."""
        return self.unseen | self.possible_up


# --- determinization -------------------------------------------------------------------------

def determinize(view: dict, rng: random.Random) -> Euchre:
    k = Knowledge(view)
    me = k.seat
    t = k.trump
    if k.up_known:
        choices = [None]
    else:
        # the dealer kept the upcard (usual) or buried it; he cannot hold it if he has no
        # card left or showed a void in trumps; try the other case if a case has no deal
        cannot_hold = k.voids[k.dealer] >> t & 1 or k.counts[k.dealer] == 0
        choices = ["buried"] if cannot_hold else (
            ["buried", "kept"] if rng.random() < UPCARD_DISCARD_P else ["kept", "buried"])
    for i, choice in enumerate(choices):
        try:
            hands_known, discard_known, deal = _sample(k, choice, rng)
            break
        except ValueError:
            if i == len(choices) - 1:
                raise
    g = blank_game(Euchre, view, rng)
    g.hands = [hands_known[s] | deal.get(s, 0) for s in range(4)]
    g.upcard = k.upcard
    g.kitty = deal["kitty"]
    g.up_state = k.up_state
    if k.discarded:
        g.discarded = discard_known if discard_known >= 0 else C.cards_of(deal["discard"])[0]
    else:
        g.discarded = -1
    g.trump = t
    g.maker = k.maker
    g.alone = k.alone
    g.lone_defender = k.lone_defender
    g.out = list(k.out)
    g.calls = [_call_tuple(c) for c in view["calls"]]
    g.trick = list(k.trick)
    g.tricks_won = list(k.tricks_won)
    g.played = k.played
    g.leader = view["leader"]
    g.nxt = [1, 2, 3, 0]
    g.active = 4
    if g.phase == "play":
        g._start_play()
        g.leader = view["leader"]
        g.to_move = view["to_move"]
    g.sheet = _sheet(view)
    lr = view.get("last_result")
    g.last_result = dict(lr) if lr else None
    lt = view.get("last_trick")
    g.last_trick = [(x["seat"], C.card(x["card"])) for x in lt["cards"]] if lt else []
    g.last_winner = lt["winner"] if lt else None
    return g


def _sample(k: Knowledge, upcard_place, rng):
    me, t = k.seat, k.trump
    hands_known = [0, 0, 0, 0]
    hands_known[me] = k.hand
    sizes: dict = {"kitty": 3}
    discard_known = k.my_discard
    if upcard_place == "buried":
        discard_known = k.upcard
    elif upcard_place == "kept":
        hands_known[k.dealer] |= 1 << k.upcard
    if k.discarded and discard_known < 0:
        sizes["discard"] = 1
    allowed = {}
    for s in range(4):
        if s == me:
            continue
        sizes[s] = k.counts[s] - C.count(hands_known[s])
        m = DECK_MASK
        if t is not None:
            for su in range(4):
                if k.voids[s] >> su & 1:
                    m &= ~EFF_MASK[t][su]
        allowed[s] = m
    deal = sample_cards(C.cards_of(k.unseen), sizes, allowed, rng)
    return hands_known, discard_known, deal


def _call_tuple(c: dict) -> tuple:
    if c["type"] == "name":
        return (c["seat"], "name", SUITS.index(c["suit"]))
    if c["type"] == "pass":
        return (c["seat"], "pass", c.get("round") == 2)
    return (c["seat"], c["type"], False)


def _sheet(view: dict) -> list[tuple]:
    out = []
    a = b = 0
    for r in view["score_sheet"]["rows"]:
        deal_no, maker, made, ca, cb = r
        out.append((deal_no, None if maker == "—" else maker, None if made == "—" else made,
                    ca - a, cb - b))
        a, b = ca, cb
    return out


# --- level 2: rules ---------------------------------------------------------------------------

def rule_policy(view: dict, rng: random.Random) -> dict:
    legal = view["legal_actions"]
    ph = view["phase"]
    k = Knowledge(view)
    me = k.seat
    if ph == "round1":                                              # G7
        t = C.suit_of(k.upcard)
        v = call_value(k.hand, t, me, k.dealer, k.upcard)
        return {"type": "order_up"} if v >= ORDER_AT else {"type": "pass"}
    if ph == "round2":                                              # G8
        up_suit = C.suit_of(k.upcard)
        options = [s for s in range(4) if s != up_suit]
        vals = {s: call_value(k.hand, s, me, k.dealer, None) for s in options}
        best = max(options, key=lambda s: (vals[s], rng.random()))
        can_pass = any(a["type"] == "pass" for a in legal)
        if vals[best] >= ORDER_AT + 0.1 or not can_pass:
            return {"type": "name", "suit": SUITS[best]}
        return {"type": "pass"}
    if ph == "discard":                                             # G9
        return {"type": "discard", "card": C.code(best_discard(k.hand, k.trump))}
    if ph == "alone":                                               # G10
        own = strength(k.hand, k.trump)
        return {"type": "alone", "value": own >= ALONE_AT}
    if ph == "defend":
        own = strength(k.hand, k.trump)
        return {"type": "defend_alone", "value": own >= DEFEND_ALONE_AT}
    cards = [C.card(a["card"]) for a in legal]
    return {"type": "play", "card": C.code(_rule_play(k, cards))}


def _beats(c: int, best: int, led: int, t: int) -> bool:
    e, p = EFF[t], POWER[t]
    if e[c] == t:
        return e[best] != t or p[c] > p[best]
    return e[c] == led and e[best] == led and p[c] > p[best]


def _boss(k: Knowledge, c: int, led: int | None = None) -> bool:
    """No card another player may hold beats ``c`` (trumps count unless everyone left to play
    is known void in trumps, or ``c`` is a trump)."""
    t = k.trump
    e, p = EFF[t], POWER[t]
    out = k.outstanding()
    s = e[c]
    for x in C.cards_of(out & EFF_MASK[t][s]):
        if p[x] > p[c]:
            return False
    if s != t and out & EFF_MASK[t][t]:
        return False
    return True


def _cheapest(k: Knowledge, cards: list[int]) -> int:
    t = k.trump
    return min(cards, key=lambda c: (EFF[t][c] == t, POWER[t][c], c))


def _rule_play(k: Knowledge, cards: list[int]) -> int:
    t = k.trump
    e, p = EFF[t], POWER[t]
    me = k.seat
    makers = k.maker is not None and (k.maker - me) % 2 == 0
    if not k.trick:                                                 # leading
        trumps = [c for c in cards if e[c] == t]
        trumps_out = k.outstanding() & EFF_MASK[t][t]
        if makers and trumps and trumps_out:
            top = max(trumps, key=lambda c: p[c])
            if _boss(k, top) or (k.maker == me and len(trumps) >= 3):
                return top                                          # pull trumps
        bosses = [c for c in cards if e[c] != t and _boss(k, c)]
        if bosses:
            return max(bosses, key=lambda c: p[c])
        if makers and trumps and k.maker != me and not k.alone:
            return max(trumps, key=lambda c: p[c])                  # lead trump to the maker
        off = [c for c in cards if e[c] != t]
        if off:
            # low from the shortest suit: make a void to ruff in later
            return min(off, key=lambda c: (C.count(k.hand & EFF_MASK[t][e[c]]), p[c]))
        return min(cards, key=lambda c: p[c])
    led = e[k.trick[0][1]]
    best_seat, best = k.trick[0]
    for s, c in k.trick[1:]:
        if _beats(c, best, led, t):
            best_seat, best = s, c
    active = 4 - sum(k.out)
    last = len(k.trick) == active - 1
    partner_winning = best_seat == k.partner(me)
    winners = [c for c in cards if _beats(c, best, led, t)]
    if partner_winning and (last or _boss(k, best)):
        return _cheapest(k, cards)
    if not winners:
        return _cheapest(k, cards)
    if partner_winning:
        # partner's card may be beaten later: take over only with a sure card
        sure = [c for c in winners if _boss(k, c)]
        if sure and e[best] != t:
            return min(sure, key=lambda c: p[c])
        return _cheapest(k, cards)
    if last:
        return min(winners, key=lambda c: p[c])
    following = [c for c in winners if e[c] == led]
    if following:
        sure = [c for c in following if _boss(k, c)]
        return min(sure, key=lambda c: p[c]) if sure else max(following, key=lambda c: p[c])
    return min(winners, key=lambda c: p[c])                         # ruff low


# --- rollouts: fast rules on a full state ---------------------------------------------------

def rollout_policy(g: Euchre, rng: random.Random) -> dict:
    ph = g.phase
    seat = g.to_move
    hand = g.hands[seat]
    if ph == "play":
        t = g.trump
        e, p = EFF[t], POWER[t]
        if g.trick:
            led_card = g.trick[0][1]
            led = e[led_card]
            follow = hand & EFF_MASK[t][led]
            playable = follow or hand
            best_seat, best = g.trick[0]
            for s, c in g.trick[1:]:
                ec = e[c]
                if (ec == t and (e[best] != t or p[c] > p[best])) or \
                        (ec == led and e[best] == led and p[c] > p[best]):
                    best_seat, best = s, c
            win = None
            low = None
            for c in C.cards_of(playable):
                ec = e[c]
                beats = (ec == t and (e[best] != t or p[c] > p[best])) or \
                    (ec == led and e[best] == led and p[c] > p[best])
                if beats and (win is None or p[c] < p[win]):
                    win = c
                key = (ec == t, p[c])
                if low is None or key < (e[low] == t, p[low]):
                    low = c
            if win is not None and ((best_seat - seat) & 1) and rng.random() < 0.9:
                return {"type": "play", "card": C.CODES[win]}
            return {"type": "play", "card": C.CODES[low]}
        trumps = hand & EFF_MASK[t][t]
        if trumps and ((g.maker - seat) & 1) == 0 and rng.random() < 0.8:
            c = max(C.cards_of(trumps), key=lambda c: p[c])       # makers pull trumps
            return {"type": "play", "card": C.CODES[c]}
        off = C.cards_of(hand & ~trumps)
        if off:
            aces = [c for c in off if p[c] == 6]
            c = aces[0] if aces and rng.random() < 0.9 else rng.choice(off)
        else:
            c = min(C.cards_of(trumps), key=lambda c: p[c])
        return {"type": "play", "card": C.CODES[c]}
    if ph == "round1":
        t = C.SUIT_OF[g.upcard]
        v = call_value(hand, t, seat, g.dealer, g.upcard)
        ok = v + rng.uniform(-0.3, 0.3) >= ORDER_AT
        return {"type": "order_up"} if ok else {"type": "pass"}
    if ph == "round2":
        up = C.SUIT_OF[g.upcard]
        best = max((s for s in range(4) if s != up), key=lambda s: strength(hand, s))
        forced = seat == g.dealer and not g.options["redeal"]
        if forced or strength(hand, best) + PARTNER_HELP + rng.uniform(-0.3, 0.3) >= ORDER_AT:
            return {"type": "name", "suit": SUITS[best]}
        return {"type": "pass"}
    if ph == "discard":
        return {"type": "discard", "card": C.CODES[best_discard(hand, g.trump)]}
    if ph == "alone":
        return {"type": "alone", "value": strength(hand, g.trump) >= ALONE_AT}
    if ph == "defend":
        return {"type": "defend_alone", "value": strength(hand, g.trump) >= DEFEND_ALONE_AT}
    return rng.choice(g._legal())


# --- evaluation and endgame --------------------------------------------------------------------

def evaluate(g: Euchre, seat: int, start) -> float:
    """The pair's point margin of the deal; reaching 10 (G15) counts as 4 points more."""
    mine, theirs = seat & 1, 1 - (seat & 1)
    v = (g.scores[mine] - start.scores[mine]) - (g.scores[theirs] - start.scores[theirs])
    if g.to_move is None and g.winner is not None:
        v += 4.0 if seat in g.winner else -4.0
    return float(v)


def same_side(g, a: int, b: int) -> bool:
    return (a - b) % 2 == 0


def solvable(g: Euchre, start) -> bool:
    """Only card play is left, and few cards (the sample's hands are open)."""
    if g.phase != "play":
        return False
    return sum(C.count(g.hands[s]) for s in range(4) if not g.out[s]) <= SOLVE_CARDS


def order_actions(g: Euchre, actions: list) -> list:
    """Strong cards first: good moves early make alpha-beta cut more."""
    t = g.trump
    if t is None:
        return actions
    p = POWER[t]
    return sorted(actions, key=lambda a: -p[C.CARD[a["card"]]] if a["type"] == "play" else 0)


__all__ = ["determinize", "rule_policy", "rollout_policy", "evaluate", "same_side", "solvable",
           "order_actions", "BUDGETS", "strength", "Knowledge"]

_ = (DECK, RIGHT, TARGET)
