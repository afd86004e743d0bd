"""Bot plug-in for euchre; see ``bots/interface.py`` for the interface.  Rule numbers (G4 ...)
are those of ``docs/rules/euchre.md``.

What a seat knows (docs/rules/euchre.md, views): its hand, the upcard and whether the dealer
picked it up or it was turned down (G9), every call, trump, the alone decisions and who sits
out, every card played (the view's ``log``), and so every void shown by failing to follow the
led (effective) suit (G5, G6).  The dealer also knows his discard.  Unknown: the other hands,
the three unused cards, and (for everyone but the dealer) the discard - which is the upcard
itself only if the dealer threw it away.

Levels 3 and 4 use this plug-in's ``search_values`` (PIMC on the game's int moves): each sample
deals the hidden cards so that they fit what the others did - their calls and passes (G7, G8,
G10) as a level-2 caller would make them, and their card plays as the level-2 rules would play
them (``call_weight``, by rejection) - then every legal action is tried and the deal finished
with the level-2 calls and card play on masks (``_playout``); level 4 solves the open-card play
of the last ``SOLVE_CARDS`` cards exactly.  The value is the pair's point margin of the deal
(G14) plus ``DEAL_BONUS`` for the pair that scores and 4 for reaching 10 (G15).
"""

from __future__ import annotations

import math
import random

from .. import cards as C
from ..game import canonical
from ..games.euchre import (
    ALONE_NO,
    ALONE_YES,
    DECK,
    DECK_MASK,
    DEFEND_NO,
    DEFEND_YES,
    EFF,
    EFF_MASK,
    NAME,
    ORDER_UP,
    PASS,
    POWER,
    RIGHT,
    TARGET,
    Euchre,
    cards_of,
    trick_winner,
)
from ..tricks import beats, winning
from . import knowledge
from .catalogue import timer
from .sampling import match_cards
from .search import check_determinization, note_search
from .solver import _SolveLimit

SUITS = C.SUITS
BUDGETS = {
    3: {"rollouts": 500, "min_samples": 16},
    4: {"rollouts": 1300, "min_samples": 24, "solve_nodes": 1500},   # p95 about 1/3 s in CPython
    # the expert's exploration constant on this plug-in's scale: a deal's values spread about 9
    # times as far as 66's (scripts/value_spread.py), and against level 3 the expert rose from
    # 0.46 of the deals with the table's 0.4 to 0.53 with 15 (docs/BOTS.md, "The expert")
    5: {"uct_c": 15.0},
}
SOLVE_CARDS = 8                        # level 4 solves the play exactly from this many cards
# the expert's tree search plays the cards; the calls, going alone and the dealer's discard are
# valued by this plug-in's own search (against OpenSpiel's C++ IS-MCTS the tree's own calls
# lost 0.30 points a deal: docs/BOTS.md, "The expert")
TREE_ACTIONS = ("play",)
UPCARD_DISCARD_P = 0.05                # how often a dealer is taken to have buried the upcard
INFER_TRIES = 12                       # deals tried per sample to fit the others' calls
INFER_T = 0.4                          # softness of that fit (tricks of hand value)
PLAY_MISS = 0.2                        # likelihood factor of a play the rules would not make
PLAY_MISS_PARTNER = 0.8                # the partner's (he may search, not play by rules)

# --- hand strength: expected tricks of one hand for a trump suit -----------------------------

# trump by POWER: right 20, left 19, A 18, K 17, Q 16, 10 15, 9 14
TRUMP_TRICKS = {20: 1.0, 19: 0.85, 18: 0.7, 17: 0.55, 16: 0.45, 15: 0.4, 14: 0.35}


_STRENGTH: dict = {}                   # memo of strength (a pure function of hand and trump)


def strength(hand: int, t: int) -> float:
    """Rough expected tricks of ``hand`` with trump ``t``; memoised ``_strength``."""
    key = hand << 2 | t
    v = _STRENGTH.get(key)
    if v is None:
        if len(_STRENGTH) > 200_000:
            _STRENGTH.clear()
        v = _STRENGTH[key] = _strength(hand, t)
    return v


def _strength(hand: int, t: int) -> float:
    """Rough expected tricks of ``hand`` with trump ``t`` (with an average partner's help
    counted by the caller): G4 ranks, long trumps, off aces, voids to ruff."""
    power, masks = POWER[t], EFF_MASK[t]
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

class Knowledge(knowledge.Knowledge):
    """Everything ``view`` tells its seat about the current deal (``bots.knowledge``): voids
    are of effective suits (G5, G6); ``seen_aside`` the upcard and the dealer's own discard."""

    def deck_of(self, view: dict) -> int:
        return DECK_MASK

    def read_view(self, view: dict) -> None:
        self.dealers: dict = {}                 # ``_sample``'s prepared ``Dealer`` per case
        self.phase = view["phase"]
        self.dealer = view["dealer"]
        self.trump = SUITS.index(view["trump"]) if view["trump"] else None
        self.upcard = C.card(view["upcard"])
        self.up_state = view["upcard_state"]
        self.maker = view["maker"]
        self.alone = view["alone"]
        self.lone_defender = view["lone_defender"]
        self.out = [bool(x.get("sitting_out")) for x in view["seats"]]
        self.counts = [x["cards"] for x in view["seats"]]
        self.my_discard = -1
        self.discarded = False
        for p in view["piles"]:
            if p["id"] == "discard":
                self.discarded = True
                if "cards" in p:
                    self.my_discard = C.card(p["cards"][0])
        self.seen_aside = 1 << self.upcard
        if self.my_discard >= 0:
            self.seen_aside |= 1 << self.my_discard
        # the others' plays, to be fitted too: (seat, card, trick before it, cards gone
        # before it), and in ``read_rest`` the seat's cards played from then on
        self.play_facts: list[tuple] = []

    def play(self, s: int, c: int, a: dict, trick: list) -> None:
        if self.trump is not None:
            self.shows_void(s, c, trick, EFF[self.trump])      # G6: failed to follow
        if s != self.seat:
            self.play_facts.append((s, c, list(trick), self.played))

    def read_rest(self, view: dict) -> None:
        me = self.seat
        self.play_facts = [(s, c, before, gone, self.played_by[s] & ~gone)
                           for s, c, before, gone in self.play_facts]
        # the others' calls, to be fitted by the sampled hands (call_weight)
        facts = []
        stuck = not (view.get("options") or {}).get("redeal", False)
        for c in view["calls"]:
            s = c["seat"]
            if s == me:
                continue
            if c["type"] == "pass":
                facts.append((s, "r1", False) if c.get("round") != 2 else (s, "r2pass", None))
            elif c["type"] == "order_up":
                facts.append((s, "r1", True))
            elif c["type"] == "name" and not (stuck and s == self.dealer):
                facts.append((s, "name", SUITS.index(c["suit"])))
        if self.maker is not None and self.maker != me and self.phase in ("defend", "play"):
            facts.append((self.maker, "alone", bool(self.alone)))
        self.call_facts = facts
        # where the upcard is, as far as this seat knows
        self.up_known = True                           # its place is known to this seat
        if self.up_state == "taken" and me != self.dealer and not (self.played >> self.upcard & 1):
            self.up_known = False                      # dealer's hand, or his discard
        # the upcard, when it may still be in the dealer's hand
        self.possible_up = 0 if self.up_known else 1 << self.upcard
        # (``unseen``: the other hands, the kitty and the discard this seat did not see)

    def team(self, s: int) -> int:
        return s & 1

    def partner(self, s: int) -> int:
        return (s + 2) & 3

    def outstanding(self) -> int:
        """Cards the others may still hold (unseen plus the dealer's kept upcard)."""
        return self.unseen | self.possible_up


# --- determinization -------------------------------------------------------------------------

def determinize(view: dict, rng: random.Random, k: Knowledge | None = None,
                infer: bool = True) -> Euchre:
    """A full state consistent with ``view``; with ``infer`` the hidden hands are also drawn
    to agree with the calls the others made (``call_weight``)."""
    if k is None:
        k = Knowledge(view)
    hands, kitty, discarded = deal_hidden(k, rng, INFER_TRIES if infer else 1)
    lr = view.get("last_result")
    lt = view.get("last_trick")
    g = Euchre.sampled(
        view, rng,
        sheet=_sheet(view),
        last_result=dict(lr) if lr else None,
        last_trick=[(x["seat"], C.card(x["card"])) for x in lt["cards"]] if lt else [],
        last_winner=lt["winner"] if lt else None,
        hands=hands,
        upcard=k.upcard,
        kitty=kitty,
        up_state=k.up_state,
        discarded=discarded,
        trump=k.trump,
        maker=k.maker,
        alone=k.alone,
        lone_defender=k.lone_defender,
        out=list(k.out),
        calls=[_call_tuple(c) for c in view["calls"]],
        trick=list(k.trick),
        tricks_won=list(k.tricks_won),
        played=k.played,
        nxt=[1, 2, 3, 0],
        active=4,
        leader=view["leader"])
    if g.phase == "play":
        g._start_play()                     # the active seats (``nxt``, ``active``, G12)
        g.leader = view["leader"]
        g.to_move = view["to_move"]
    return g


determinizer = knowledge.determinizer_of(determinize, Knowledge)    # the view read once


def _deal_once(k: Knowledge, rng: random.Random):
    """One deal of the hidden cards: (hands, kitty, discarded)."""
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
    hands = [hands_known[s] | deal.get(s, 0) for s in range(4)]
    if k.discarded:
        discarded = discard_known if discard_known >= 0 else C.cards_of(deal["discard"])[0]
    else:
        discarded = -1
    return hands, deal["kitty"], discarded


def deal_hidden(k: Knowledge, rng: random.Random, tries: int = 1):
    """Hidden cards dealt consistently with the view; with ``tries`` > 1 by rejection: a deal
    is kept with probability ``call_weight`` (how well the others' calls fit their sampled
    hands), else the best of ``tries`` deals."""
    best = None
    for _ in range(tries):
        d = _deal_once(k, rng)
        if tries == 1 or not (k.call_facts or k.play_facts):
            return d
        u = rng.random()
        w = call_weight(k, d[0], d[2], u if best is None else max(u, best[0]))
        if w > u:
            return d
        if best is None or w > best[0]:
            best = (w, d)
    return best[1]


def _sig(x: float) -> float:
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def call_weight(k: Knowledge, hands: list, discarded: int, floor: float = 0.0) -> float:
    """How likely players who call like the level-2 rules (``call_value`` against
    ``ORDER_AT``, ``strength`` against ``ALONE_AT``) were to make the calls and passes the
    view shows (G7, G8, G10), had they held ``hands``: a product of logistic terms."""
    w = 1.0
    d, up = k.dealer, k.upcard
    up_suit = C.SUIT_OF[up]
    for s, kind, arg in k.call_facts:
        h = hands[s] | k.played_by[s]
        if s == d and k.up_state == "taken":
            # the five cards he held before picking up (G9); the discard may be the upcard
            h = (h | (1 << discarded if discarded >= 0 else 0)) & ~(1 << up)
        if kind == "r1":                                  # round 1: pass (arg False) or order
            v = call_value(h, up_suit, s, d, up) - ORDER_AT
            w *= _sig((v if arg else -v) / INFER_T)
        elif kind == "r2pass":
            best = max(call_value(h, su, s, d, None) for su in range(4) if su != up_suit)
            w *= _sig((ORDER_AT + 0.1 - best) / INFER_T)
        elif kind == "name":
            v = call_value(h, arg, s, d, None)
            w *= _sig((v - ORDER_AT - 0.1) / INFER_T)
        elif kind == "alone":                             # the maker's hand after his discard
            ha = hands[s] | k.played_by[s]
            v = strength(ha, k.trump) - ALONE_AT
            w *= _sig((v if arg else -v) / INFER_T)
    if w <= floor or not k.play_facts:
        return w
    # the plays: a player who plays like the level-2 rules (``_card``) with his sampled hand
    # would have played the card he did; a miss costs a factor PLAY_MISS (the weight only
    # falls, so stop once it is below ``floor``)
    t, maker, alone, dealer = k.trump, k.maker, k.alone, k.dealer
    active = 4 - sum(k.out)
    turned = 1 << up if k.up_state == "turned" else 0
    for s, c, before, gone, later in k.play_facts:
        h = hands[s] | later
        out = DECK_MASK & ~gone & ~h & ~turned
        if s == dealer and discarded >= 0:
            out &= ~(1 << discarded)
        if _card(h, before, s, out, t, maker, alone, active) != c:
            w *= PLAY_MISS_PARTNER if s == k.seat ^ 2 else PLAY_MISS
            if w <= floor:
                return w
    return w


def _sample(k: Knowledge, upcard_place, rng):
    """One deal of the hidden cards with the upcard ``upcard_place`` (``None``: known):
    (the known hands, the known discard or -1, {place: mask})."""
    case = k.dealers.get(upcard_place)
    if case is None:                          # the same for every sample of a decision
        case = k.dealers[upcard_place] = _case(k, upcard_place)
    hands_known, discard_known, sizes, cards, dealer = case
    if dealer is not None:
        return hands_known, discard_known, dealer.sample(rng)
    cards = list(cards)                       # nothing known: a plain deal
    _shuffle(cards, _steps(len(cards)), rng.getrandbits)
    deal = {}
    i = 0
    for q, n in sizes.items():
        m = 0
        for c in cards[i:i + n]:
            m |= 1 << c
        deal[q] = m
        i += n
    return hands_known, discard_known, deal


def _case(k: Knowledge, upcard_place) -> tuple:
    """What ``_sample`` deals: (the known hands, the known discard, the places' sizes, the
    hidden cards, their ``Dealer`` or ``None`` when a card may go anywhere)."""
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
    cards = C.cards_of(k.unseen)
    plain = all(m == DECK_MASK for m in allowed.values())
    dealer = None if plain else Dealer(cards, sizes, allowed)
    return hands_known, discard_known, sizes, cards, dealer


def _steps(n: int) -> tuple:
    """``Random.shuffle``'s steps for ``n`` items: swap x[i] with x[j], j drawn below i + 1
    from ``getrandbits`` of this many bits (redrawn while too large)."""
    return tuple((i, (i + 1).bit_length()) for i in reversed(range(1, n)))


def _shuffle(x: list, steps: tuple, getrandbits) -> None:
    """``rng.shuffle(x)``, draw for draw, with ``getrandbits = rng.getrandbits``."""
    for i, k in steps:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


class Dealer:
    """``sampling.sample_cards(cards, sizes, allowed, rng)`` for the many samples of one
    decision, deal for deal and draw for draw the same (a test compares them): what depends
    only on the arguments (the places each card may go to, the order by freedom) is worked out
    once, and the draws come straight from ``getrandbits``, as ``Random.shuffle`` and
    ``Random.randrange`` take them (``Random._randbelow``)."""

    def __init__(self, cards: list[int], sizes: dict, allowed: dict):
        if sum(sizes.values()) != len(cards):
            raise ValueError(f"sample_cards: {len(cards)} cards for places of sizes {sizes}")
        self.args = (list(cards), dict(sizes), dict(allowed))
        # the places by index, in ``sizes``' order: each card's places as indices
        self.places = places = list(sizes)
        self.sizes = [sizes[q] for q in places]
        full = -1
        self.ok = {c: [i for i, q in enumerate(places) if (allowed.get(q, full) >> c) & 1]
                   for c in cards}
        self.freedom = {c: len(v) for c, v in self.ok.items()}
        self.order = sorted(cards, key=self.freedom.__getitem__)
        self.steps = _steps(len(cards))

    def sample(self, rng: random.Random) -> dict:
        ok, freedom, steps, sizes = self.ok, self.freedom, self.steps, self.sizes
        getrandbits = rng.getrandbits
        for _ in range(30):
            left = list(sizes)
            out = [0] * len(sizes)
            shuffled = list(self.order)
            _shuffle(shuffled, steps, getrandbits)            # rng.shuffle(shuffled)
            shuffled.sort(key=freedom.__getitem__)            # stable: random within freedom
            for c in shuffled:
                # weight by remaining capacity: close to a uniform deal when unconstrained (a
                # full place adds nothing and is never picked, as if left out)
                opts = ok[c]
                total = 0
                for q in opts:
                    total += left[q]
                if not total:
                    break
                k = total.bit_length()                        # rng.randrange(total)
                r = getrandbits(k)
                while r >= total:
                    r = getrandbits(k)
                for q in opts:
                    r -= left[q]
                    if r < 0:
                        break
                out[q] |= 1 << c
                left[q] -= 1
            else:
                return dict(zip(self.places, out))
        return match_cards(*self.args, rng)


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
    best_seat, best = winning(k.trick, t, p, e)
    active = 4 - sum(k.out)
    last = len(k.trick) == active - 1
    partner_winning = best_seat == k.partner(me)
    winners = [c for c in cards if beats(c, best, t, p, e)]
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
    """The pair's point margin of the deal, ``DEAL_BONUS`` more for the pair that scored;
    reaching 10 (G15) counts as 4 points more."""
    mine, theirs = seat & 1, 1 - (seat & 1)
    v = (g.scores[mine] - start.scores[mine]) - (g.scores[theirs] - start.scores[theirs])
    if v:
        v += DEAL_BONUS if v > 0 else -DEAL_BONUS
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
           "order_actions", "search_values", "BUDGETS", "strength", "Knowledge"]

_ = (DECK, RIGHT, TARGET)


# --- levels 3 and 4: the plug-in's own search on int moves ------------------------------------

PLAY_EPS = 0.05                        # rollout card play: a random legal card this often
RB_PLAY = 0.0                          # added to the value of the level-2 card play
RB_CALLS = 0.0                         # the same for the calls (and the discard)
DEAL_BONUS = 4.0                       # added to the margin of a deal the pair scores in
CALL_NOISE = 0.3                       # rollout calls: uniform noise on the hand estimate


def _move(a: dict) -> int:
    t = a["type"]
    if t == "play" or t == "discard":
        return C.CARD[a["card"]]
    if t == "name":
        return NAME + SUITS.index(a["suit"])
    if t == "alone":
        return ALONE_YES if a["value"] else ALONE_NO
    if t == "defend_alone":
        return DEFEND_YES if a["value"] else DEFEND_NO
    return ORDER_UP if t == "order_up" else PASS


def _call_move(g: Euchre, rng: random.Random) -> int:
    """The rollout's decision in a calling phase: the level-2 estimate with some noise."""
    ph = g.phase
    seat = g.to_move
    hand = g.hands[seat]
    if ph == "round1":
        v = call_value(hand, C.SUIT_OF[g.upcard], seat, g.dealer, g.upcard)
        return ORDER_UP if v + rng.uniform(-CALL_NOISE, CALL_NOISE) >= ORDER_AT else PASS
    if ph == "round2":
        up = C.SUIT_OF[g.upcard]
        best = max((s for s in range(4) if s != up), key=lambda s: strength(hand, s))
        forced = seat == g.dealer and not g.options["redeal"]
        v = strength(hand, best) + PARTNER_HELP + rng.uniform(-CALL_NOISE, CALL_NOISE)
        return NAME + best if forced or v >= ORDER_AT + 0.1 else PASS
    if ph == "discard":
        return best_discard(hand, g.trump)
    if ph == "alone":
        return ALONE_YES if strength(hand, g.trump) >= ALONE_AT else ALONE_NO
    if ph == "defend":
        return DEFEND_YES if strength(hand, g.trump) >= DEFEND_ALONE_AT else DEFEND_NO
    return g._moves()[0]


def _card(hand: int, trick: list, seat: int, out: int, t: int, maker: int, alone: bool,
          active: int) -> int:
    """The level-2 card play (``_rule_play``) on masks; ``out`` holds the cards this seat
    cannot see (every card not played and not in its hand: no peeking at the sample)."""
    e, p, M = EFF[t], POWER[t], EFF_MASK[t]
    out_tr = out & M[t]

    def boss(c):
        s = e[c]
        if s != t and out_tr:
            return False
        pc = p[c]
        for x in cards_of(out & M[s]):
            if p[x] > pc:
                return False
        return True

    if not trick:
        cs = cards_of(hand)
        trumps = [c for c in cs if e[c] == t]
        makers = not (maker - seat) & 1
        if makers and trumps and out_tr:
            top = max(trumps, key=lambda c: p[c])
            if boss(top) or (maker == seat and len(trumps) >= 3):
                return top
        bosses = [c for c in cs if e[c] != t and boss(c)]
        if bosses:
            return max(bosses, key=lambda c: p[c])
        if makers and trumps and maker != seat and not alone:
            return max(trumps, key=lambda c: p[c])
        off = [c for c in cs if e[c] != t]
        if off:
            return min(off, key=lambda c: (C.count(hand & M[e[c]]), p[c]))
        return min(cs, key=lambda c: p[c])
    led = e[trick[0][1]]
    follow = hand & M[led]
    cs = cards_of(follow or hand)
    best_seat, best = trick[0]
    bp = p[best]
    for s, c in trick[1:]:
        ec = e[c]
        if (ec == t or ec == led) and p[c] > bp and (ec == t or e[best] != t):
            best_seat, best, bp = s, c, p[c]
    low = min(cs, key=lambda c: (e[c] == t, p[c]))
    eb = e[best]
    winners = [c for c in cs if (e[c] == t and (eb != t or p[c] > bp))
               or (e[c] == led and eb == led and p[c] > bp)]
    last = len(trick) == active - 1
    partner_winning = best_seat == (seat ^ 2)
    if partner_winning and (last or boss(best)):
        return low
    if not winners:
        return low
    if partner_winning:
        sure = [c for c in winners if boss(c)]
        if sure and eb != t:
            return min(sure, key=lambda c: p[c])
        return low
    if last:
        return min(winners, key=lambda c: p[c])
    following = [c for c in winners if e[c] == led]
    if following:
        sure = [c for c in following if boss(c)]
        return min(sure, key=lambda c: p[c]) if sure else max(following, key=lambda c: p[c])
    return min(winners, key=lambda c: p[c])


def _playout(g: Euchre, rng: random.Random) -> int:
    """Play the rest of the deal's tricks of ``g`` (not changed) with the level-2 card play
    (a random card with probability ``PLAY_EPS``); the makers' tricks."""
    t, maker, alone, active, nxt = g.trump, g.maker, g.alone, g.active, g.nxt
    hands = list(g.hands)
    trick = list(g.trick)
    seat = g.to_move
    tw = g.tricks_won
    made = tw[maker] + tw[maker ^ 2]
    done = tw[0] + tw[1] + tw[2] + tw[3]
    gone = g.played | (1 << g.upcard if g.up_state == "turned" else 0)
    M = EFF_MASK[t]
    e = EFF[t]
    mteam = maker & 1
    dealer, disc = g.dealer, g.discarded
    while done < 5:
        h = hands[seat]
        if PLAY_EPS and rng.random() < PLAY_EPS:
            if trick:
                f = h & M[e[trick[0][1]]]
                if f:
                    h = f
            c = rng.choice(cards_of(h))
        else:
            out = DECK_MASK & ~gone & ~h
            if seat == dealer and disc >= 0:
                out &= ~(1 << disc)                   # the dealer knows his discard
            c = _card(h, trick, seat, out, t, maker, alone, active)
        hands[seat] ^= 1 << c
        gone |= 1 << c
        trick.append((seat, c))
        if len(trick) < active:
            seat = nxt[seat]
            continue
        w = trick_winner(trick, t)
        done += 1
        if w & 1 == mteam:
            made += 1
        trick = []
        seat = w
    return made


def _value(g: Euchre, seat: int, made: int) -> float:
    """``evaluate`` of the deal ``g`` ends with ``made`` makers' tricks (G14, G15)."""
    m = g.maker
    if made >= 3:
        team, pts = m & 1, (1 if made < 5 else 4 if g.alone else 2)
    else:
        team, pts = 1 - (m & 1), (4 if g.lone_defender is not None else 2)
    v = float(pts + DEAL_BONUS if team == seat & 1 else -pts - DEAL_BONUS)
    if g.scores[team] + pts >= TARGET:
        v += 4.0 if team == seat & 1 else -4.0
    return v


def _fast_rollout(c: Euchre, start: Euchre, seat: int, rng: random.Random) -> float:
    """Finish the deal of ``c`` (changed): calls by ``_call_move``, tricks by ``_playout``."""
    deal_no = start.deal_no
    while c.phase != "play":
        if c.to_move is None or c.deal_no != deal_no:
            return evaluate(c, seat, start)
        c._do(_call_move(c, rng))
    if c.deal_no != deal_no:
        return evaluate(c, seat, start)
    return _value(c, seat, _playout(c, rng))


def _clone(g: Euchre) -> Euchre:
    """A copy for one rollout: only the fields play and the calls change are copied."""
    new = object.__new__(Euchre)
    d = g.__dict__.copy()
    d["hands"] = g.hands[:]
    d["trick"] = g.trick[:]
    d["tricks_won"] = g.tricks_won[:]
    d["calls"] = g.calls[:]
    d["out"] = g.out[:]
    d["nxt"] = g.nxt[:]
    d["scores"] = g.scores[:]
    d["sheet"] = g.sheet[:]
    new.__dict__ = d
    return new


def _solve(g: Euchre, seat: int, nodes: list) -> float:
    """Exact value for ``seat``'s pair of the open-card play left in ``g`` (alpha-beta over
    the makers' tricks, the pairs taking turns as the cards fall)."""
    t, active, nxt, maker = g.trump, g.active, g.nxt, g.maker
    e, p, M = EFF[t], POWER[t], EFF_MASK[t]
    mteam = maker & 1
    tw = g.tricks_won
    made0 = tw[maker] + tw[maker ^ 2]
    done0 = tw[0] + tw[1] + tw[2] + tw[3]
    hands = list(g.hands)

    def ab(trick, seat_to, made, done, alpha, beta):
        # value: makers' tricks at the end
        if done == 5:
            return made
        nodes[0] += 1
        if nodes[0] > nodes[1]:
            raise _SolveLimit
        h = hands[seat_to]
        if trick:
            f = h & M[e[trick[0][1]]]
            if f:
                h = f
        cs = sorted(cards_of(h), key=lambda c: -p[c])
        makers_move = (seat_to & 1) == mteam
        best = -1 if makers_move else 6
        for c in cs:
            hands[seat_to] ^= 1 << c
            tr = trick + [(seat_to, c)]
            if len(tr) < active:
                v = ab(tr, nxt[seat_to], made, done, alpha, beta)
            else:
                w = trick_winner(tr, t)
                v = ab([], w, made + ((w & 1) == mteam), done + 1, alpha, beta)
            hands[seat_to] ^= 1 << c
            if makers_move:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    made = ab(list(g.trick), g.to_move, made0, done0, -1, 6)
    return _value(g, seat, made)


def search_values(view: dict, legal: list, rng: random.Random, budget: dict,
                  stats: dict | None = None, level: int = 3) -> list[float]:
    """PIMC on int moves: samples fitted to the others' calls (``deal_hidden``), every legal
    action tried in each sample and the deal finished by the level-2 policy (``_playout``);
    at level 4 the open-card play of the last ``SOLVE_CARDS`` cards is solved exactly."""
    seat = view["seat"]
    k = Knowledge(view)
    moves = [_move(a) for a in legal]
    n = len(moves)
    samples = max(budget["min_samples"], -(-budget["rollouts"] // n))
    clock, deadline = timer(budget)
    tries = budget.get("infer_tries", INFER_TRIES)
    solve_nodes = budget.get("solve_nodes", 0)
    template = determinize(view, rng, k, infer=False)
    check_determinization(template, view, [canonical(a) for a in legal])
    exact_ok = bool(solve_nodes) and view["phase"] == "play" and \
        sum(x["cards"] for x in view["seats"] if not x["sitting_out"]) <= SOLVE_CARDS
    totals = [0.0] * n
    done = solved = 0
    for _i in range(samples):
        hands, kitty, discarded = deal_hidden(k, rng, tries)
        g = _clone(template)
        g.hands, g.kitty, g.discarded = hands, kitty, discarded
        vals = None
        if exact_ok:
            try:
                nodes = [0, solve_nodes]
                vals = []
                for m in moves:
                    c = _clone(g)
                    c._do(m)
                    if c.deal_no != g.deal_no or c.to_move is None:
                        vals.append(evaluate(c, seat, g))
                    else:
                        vals.append(_solve(c, seat, nodes))
                solved += 1
            except _SolveLimit:
                vals = None
        if vals is None:
            vals = []
            for m in moves:
                c = _clone(g)
                c._do(m)
                vals.append(_fast_rollout(c, g, seat, rng))
        for j in range(n):
            totals[j] += vals[j]
        done += 1
        if clock() > deadline:
            break
    note_search(stats, done, done < samples, solved)
    values = [x / done for x in totals]
    bonus = RB_PLAY if view["phase"] == "play" else RB_CALLS
    if bonus:
        # trust the level-2 action unless the search finds a clearly better one
        key = _move(rule_policy(view, random.Random(rng.getrandbits(32))))
        for j, m in enumerate(moves):
            if m == key:
                values[j] += bonus
    return values
