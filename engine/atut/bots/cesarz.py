"""Bot plug-in for cesarz; see ``bots/interface.py`` for the interface.  Rule numbers (G14 ...)
are those of ``docs/rules/cesarz.md``.

What a seat knows (G27): its hand, the bids and the contract, the musik once it is shown (the
declarer took it, then gave one card to each other active player), the card it gave or was
given (G11), every card played with its companion (the view's ``log``), every meld (the partner
card stays in its owner's hand until played), the trump, every hand size, and a void whenever a
player refuses to follow (``no_follow``, G25) or plays a joker or the emperor bare (G13: he holds
no suited card).  Hands only shrink once play starts, so a void lasts for the deal.  Unknown:
the other hands, the musik while bidding, the cards given between two other players.
"""

from __future__ import annotations

import random

from .. import cards as C
from ..game import canonical
from ..games.cesarz import (
    DECK_MASK,
    EMPEROR,
    JOKER_MASK,
    JOKERS,
    MELD1,
    NO,
    POWER,
    SUITED_MASK,
    VALUE,
    Cesarz,
    card_key,
    entry_key,
    meld_partners,
    meld_parts,
    meld_value,
    musik_credit,
)
from . import knowledge
from .catalogue import timer
from .sampling import sample_cards
from .search import check_determinization, note_search

SUIT = C.SUIT_MASK
SUIT_OF = C.SUIT_OF
cards_of = C.cards_of
K_, Q_, PR_, YP_ = C.KING, C.QUEEN, C.PRINCE, C.YOUNG_PRINCESS
_SPECIALS = JOKER_MASK | 1 << EMPEROR
_JOKER_CODES = frozenset(C.CODES[j] for j in JOKERS)
_MELD_PART = C.mask_of(C.make(r, s) for r in (K_, Q_, PR_, YP_) for s in range(4))
# ``screen``/``keep`` (this plug-in's keys): with more than ``keep`` distinct actions, every
# action is first tried on ``screen`` sampled deals, and only the ``keep`` best (and the rules'
# action) share the rest of the budget.  ``multi_scale``: the rollouts are scaled by it with
# three or more active players (shorter deals, cheaper rollouts).
BUDGETS = {
    3: {"rollouts": 160, "min_samples": 8, "screen": 2, "keep": 8, "multi_scale": 1.5},
    4: {"rollouts": 500, "min_samples": 16, "screen": 3, "keep": 12, "multi_scale": 1.5},
}


def _card(x):
    return C.CARD[x]


# --- what the seat knows -------------------------------------------------------------------

class Knowledge(knowledge.Knowledge):
    """Everything ``view`` tells its seat about the current deal (``bots.knowledge``): a
    joker's companion is played with it, voids come from ``no_follow`` (G25) and from a joker
    or the emperor played bare (G13), ``known`` from the cards given (G11) and the melds'
    partner cards (G17); ``trick`` entries are ``(seat, card, companion, suit, meld)``."""

    def deck_of(self, view: dict) -> int:
        return DECK_MASK

    def read_view(self, view: dict) -> None:
        self.view = view
        self.phase = view["phase"]
        self.trump = C.SUITS.index(view["trump"]) if view["trump"] else NO
        self.active = list(view["active"])
        self.declarer = view["declarer"]
        self.counts = [x["cards"] for x in view["seats"]]
        self.melds: list[tuple[int, int, int, int]] = []
        self.musik = None
        for p in view["piles"]:
            if p["id"] == "musik" and "cards" in p:
                self.musik = [_card(x) for x in p["cards"]]
        self.given_unknown = []                       # recipients whose given card is hidden
        for g in view["given"]:
            if "card" in g:
                self.known[g["to"]] |= 1 << _card(g["card"])
            else:
                self.given_unknown.append(g["to"])
        for m in view["melds"]:
            c, p = _card(m["cards"][0]), _card(m["cards"][1])
            self.melds.append((m["seat"], c, p, m["value"]))
            self.known[m["seat"]] |= 1 << p           # G17: shown, stays in the hand

    def play(self, s: int, c: int, a: dict, trick: list) -> None:
        if "companion" in a:
            m = 1 << C.CARD[a["companion"]]
            self.played |= m
            self.played_by[s] |= m
        elif c >= EMPEROR:                             # the emperor or a joker, bare:
            self.voids[s] = 15                         # no suited card left (G13)

    def read_rest(self, view: dict) -> None:
        trick = [(x["seat"], _card(x["card"]),
                  _card(x["companion"]) if "companion" in x else NO,
                  C.SUITS.index(x["counts_as"]) if "counts_as" in x else NO,
                  _card(x["meld"]) if "meld" in x else NO) for x in view["trick"]]
        self.trick = [(s, c, k, cs if cs != NO else (C.SUIT_OF[c] if c < 44 else NO), m)
                      for s, c, k, cs, m in trick]
        self.led = C.SUITS.index(view["led"]) if view["led"] else NO


# --- determinization -------------------------------------------------------------------------

def determinize(view: dict, rng: random.Random, k: Knowledge | None = None) -> Cesarz:
    """A full state consistent with ``view``; ``k``: its ``Knowledge`` when the caller has it
    (the search samples one view many times; nothing here changes it)."""
    if k is None:
        k = Knowledge(view)
    n = k.n
    hands = _sample_hands(k, rng)
    held = [hands.get(s, 0) for s in range(n)]
    credit = 0
    for x in view["summary"]:
        if x["key"] == "musik_credit":
            credit = x["value"]
    given = []
    for x in view["given"]:
        c = _card(x["card"]) if "card" in x else _guess_given(held, x["to"])
        given.append((x["seat"], x["to"], c))
    g = Cesarz.sampled(
        view, rng,
        sheet=[list(r) for r in view["score_sheet"]["rows"]],
        previous_deal=dict(view["previous_deal"]) if view.get("previous_deal") else None,
        sitting_out=view["sitting_out"],
        active=list(k.active),
        hands=held,
        musik_revealed=k.musik is not None,
        musik=list(k.musik) if k.musik is not None else C.cards_of(hands["musik"]),
        exchange=[],
        captured=list(k.captured),
        card_points=list(view["deal_points"]["cards"]),
        meld_points=list(view["deal_points"]["melds"]),
        tricks_won=[x["tricks"] for x in view["seats"]],
        melds=list(k.melds),
        trump=k.trump,
        bids=[x.get("bid") for x in view["seats"]],
        passed=[x.get("bid") == "pass" for x in view["seats"]],
        declarer=view["declarer"],
        contract=view["contract"] or 0,
        credit=credit,
        credit_pairs=[],
        to_give=list(view["to_give"]),
        given=given,
        trick=list(k.trick),
        led=k.led,
        released=view["released"],
        emperor_trick=view["emperor_trick"],
        leader=view["leader"],
        trick_order=[],
        trick_pos=0,
        last_trick=[],
        last_winner=None,
        last_kind="",
        opener=view["opener"],
        high=view["high_bid"],
        high_bidder=view["high_bidder"])
    if g.phase == "play":                   # the seats of this trick, from the leader's
        order = [g.leader]
        while len(order) < len(g.active):
            order.append(g._next_active(order[-1]))
        g.trick_order = order
        g.trick_pos = order.index(g.to_move)
    return g


determinizer = knowledge.determinizer_of(determinize, Knowledge)    # the view read once


def _guess_given(hands, to):
    """Some card of the recipient's sampled hand (a given card hidden from this seat; it only
    matters for the view, never for the rules)."""
    h = hands[to]
    return (h & -h).bit_length() - 1 if h else 0


def _sample_hands(k: Knowledge, rng: random.Random) -> dict:
    """Deal the unseen cards: the musik while bidding; after the musik step, musik cards only
    to the declarer or (one each) to a player whose given card this seat did not see (G11)."""
    others = [s for s in k.active if s != k.seat]
    sizes = {s: k.counts[s] - C.count(k.known[s]) for s in others}
    allowed = {s: k.allowed(s) for s in others}
    if k.musik is None:
        sizes["musik"] = len(k.active)
    musik_left = C.mask_of(k.musik) & k.unseen if k.musik is not None else 0
    free = k.unseen & ~musik_left
    for _ in range(40):
        left = dict(sizes)
        placed = {s: 0 for s in others}
        ok = True
        # a recipient holds at most one musik card: none more once he has played one
        mm = C.mask_of(k.musik) if k.musik is not None else 0
        takers = [s for s in k.given_unknown if s != k.declarer and not k.played_by[s] & mm]
        for c in C.cards_of(musik_left):
            opts = []
            d = k.declarer
            if d != k.seat and d in left and left[d] > 0 and allowed[d] >> c & 1:
                opts += [d] * left[d]
            for s in takers:
                if left[s] > 0 and allowed[s] >> c & 1 and not placed[s] & musik_left:
                    opts += [s] * 3
            if not opts:
                ok = False
                break
            s = rng.choice(opts)
            placed[s] |= 1 << c
            left[s] -= 1
        if not ok:
            continue
        try:
            deal = sample_cards(C.cards_of(free), left, allowed, rng)
        except ValueError:
            continue
        for s in others:
            deal[s] = deal.get(s, 0) | placed[s] | k.known[s]
        deal[k.seat] = k.hand
        return deal
    # rare: the musik placement keeps failing; deal the unseen cards under the voids alone,
    # then under no constraint at all (the seat's own hand and legal actions stay exact)
    sizes = dict(sizes)
    if k.musik is None:
        sizes.pop("musik", None)
    rest = k.unseen
    pool = C.cards_of(rest)
    need = sum(sizes.values())
    musik_cards = []
    if k.musik is None:
        rng.shuffle(pool)
        musik_cards, pool = pool[:len(k.active)], pool[len(k.active):]
    if need != len(pool):
        raise ValueError("cesarz: no deal consistent with the view")
    for allow in (allowed, {}):
        try:
            deal = sample_cards(pool, sizes, allow, rng)
        except ValueError:
            continue
        for s in others:
            deal[s] = deal.get(s, 0) | k.known[s]
        if k.musik is None:
            deal["musik"] = C.mask_of(musik_cards)
        deal[k.seat] = k.hand
        return deal
    raise ValueError("cesarz: no deal consistent with the view")


# --- hand judgement --------------------------------------------------------------------------

def hand_melds(hand: int) -> list[tuple[int, int, int]]:
    """Disjoint melds of a hand, best first: (value, card, partner)."""
    out = []
    for s in range(4):
        k, q = C.make(K_, s), C.make(Q_, s)
        if hand >> k & 1 and hand >> q & 1:
            out.append((MELD1[s], q, k))
    prs = [C.make(PR_, s) for s in range(4) if hand >> C.make(PR_, s) & 1]
    yps = [C.make(YP_, s) for s in range(4) if hand >> C.make(YP_, s) & 1]
    best = musik_credit(prs + yps)[1] if prs and yps else []     # (no pair without both)
    for p, y in best:
        out.append((meld_value(p, y), p, y))
    out.sort(reverse=True)
    return out


def estimate(hand: int, players: int) -> float:
    """Rough points a declarer with ``hand`` (before the musik) makes: sure card points, melds
    he can lead, the emperor and jokers, and a share of the musik and of the rest."""
    est = 0.0
    for s in range(4):
        suit = hand & SUIT[s]
        a, t = C.make(C.ACE, s), C.make(C.TEN, s)
        if suit >> a & 1:
            est += 12 + 4
            if suit >> t & 1:
                est += 10
        elif suit >> t & 1 and C.count(suit) >= 3:
            est += 5
    melds = hand_melds(hand)
    for i, (v, _, _) in enumerate(melds):
        est += v * (1.0 if i == 0 else 0.7)
    if hand >> EMPEROR & 1:
        est += 18
    est += 6 * C.count(hand & JOKER_MASK)
    est += {2: 30, 3: 22, 4: 16}.get(players, 16)         # musik and the low cards' share
    return est


def keep_value(c: int, hand: int, trump: int) -> float:
    """How much a card is worth keeping (for giving away and discarding)."""
    if c == EMPEROR:
        return 100
    if c >= 44:
        return 40
    v = VALUE[c] + POWER[c]
    if meld_partners(c, hand):
        r = C.RANK_OF[c]
        v += 60 if r in (K_, Q_) else 25
    if C.SUIT_OF[c] == trump:
        v += 10
    return v


# --- level 2: rules ---------------------------------------------------------------------------

def rule_policy(view: dict, rng: random.Random) -> dict:
    legal = view["legal_actions"]
    t = legal[0]["type"]
    if t in ("bid", "pass"):
        return _rule_bid(view, legal)
    if t == "give":                             # (the hand and the trump: no Knowledge needed)
        hand = C.mask_of(C.CARD[x] for x in view["hand"])
        trump = C.SUITS.index(view["trump"]) if view["trump"] else NO
        c = min(C.cards_of(hand), key=lambda c: (keep_value(c, hand, trump), c))
        return {"type": "give", "card": C.code(c), "to": legal[0]["to"]}
    return _rule_play(Knowledge(view), legal, rng)


def _rule_bid(view, legal):
    bids = [a for a in legal if a["type"] == "bid"]
    if not bids:
        return {"type": "pass"}
    hand = C.mask_of(_card(x) for x in view["hand"])
    est = estimate(hand, len(view["active"]))
    if bids[0]["value"] <= est - 5:
        return bids[0]
    return {"type": "pass"}


def _best_key(k: Knowledge):
    if k.view["emperor_trick"]:
        return 10_000
    best = 0
    for e in k.trick:
        best = max(best, entry_key(e, k.trump, k.led))
    return best


def _trick_value(k: Knowledge) -> int:
    return sum(VALUE[e[1]] + (VALUE[e[2]] if e[2] != NO else 0) for e in k.trick)


def _higher_out(k: Knowledge, c: int) -> bool:
    """Whether an unseen (or another player's known) card of c's suit ranks above c."""
    su = C.SUIT_OF[c]
    out = (k.unseen | _others_known(k)) & SUIT[su]
    return any(POWER[x] > POWER[c] for x in C.cards_of(out))


def _others_known(k: Knowledge) -> int:
    m = 0
    for s in range(k.n):
        if s != k.seat:
            m |= k.known[s]
    return m


def _rule_play(k: Knowledge, legal, rng):
    hand = k.hand
    melds = [a for a in legal if "meld" in a]
    if melds:                                                  # §7: bank the best meld now
        def mv(a):
            c = _card(a["companion"] if "companion" in a else a["card"])
            return meld_value(c, _card(a["meld"]))
        best = max(melds, key=lambda a: (mv(a), "companion" not in a,
                                         -VALUE[_card(a.get("companion", a["card"]))]))
        # the emperor is worth more than a small meld: spend it only on a big one
        if "companion" not in best or mv(best) >= 60 or C.count(hand) <= 3:
            return best
        plain_melds = [a for a in melds if "companion" not in a]
        if plain_melds:
            return max(plain_melds, key=mv)
    plain = [a for a in legal if "companion" not in a and "meld" not in a
             and a["card"] not in ("EMPEROR", "RED_JOKER", "BLACK_JOKER", "BLUE_JOKER")]
    specials = [a for a in legal if a not in plain and "meld" not in a]
    parts = 0
    for _, c, p in hand_melds(hand):
        parts |= 1 << c | 1 << p
    if not plain:                                              # only jokers / the emperor left
        return max(specials, key=lambda a: VALUE[_card(a["companion"])] if "companion" in a
                   else 0)
    cards = [_card(a["card"]) for a in plain]
    if not k.trick:
        return {"type": "play", "card": C.code(_lead(k, cards, parts))}
    if k.view["emperor_trick"]:                                # G14: it is lost anyway
        return {"type": "play", "card": C.code(_cheapest(cards, hand, k.trump))}
    best = _best_key(k)
    value = _trick_value(k)
    last = _is_last(k)
    lead_suit = k.led if k.led != NO else None
    wins = []
    for c in cards:
        su = C.SUIT_OF[c]
        led = lead_suit if lead_suit is not None else su
        key = 200 + POWER[c] if su == k.trump else (100 + POWER[c] if su == led else 0)
        if key > best:
            wins.append(c)
    # the emperor: take a rich trick's followers with a valuable added card kept safe
    emp = [a for a in specials if a["card"] == "EMPEROR" and "companion" in a]
    if emp and not wins and value >= 20 and len(k.trick) >= 1:
        c = max((_card(a["companion"]) for a in emp), key=lambda c: (VALUE[c], -POWER[c]))
        return {"type": "play", "card": "EMPEROR", "companion": C.code(c)}
    # a joker: an off-suit high card counted as the led suit
    if not wins and value >= 10 and k.led != NO:
        jw = []
        for a in specials:
            if a["card"] != "EMPEROR" and "companion" in a:
                comp = _card(a["companion"])
                key = 200 + POWER[comp] if k.led == k.trump else 100 + POWER[comp]
                if key > best and (last or POWER[comp] >= POWER[C.make(C.TEN, 0)]):
                    jw.append((VALUE[comp], a))
        if jw:
            return max(jw, key=lambda x: x[0])[1]
    if wins:
        if last:
            c = max(wins, key=lambda c: (VALUE[c] - 3 * (parts >> c & 1), -POWER[c]))
            return {"type": "play", "card": C.code(c)}
        safe = [c for c in wins if not _higher_out(k, c) and C.SUIT_OF[c] != k.trump] \
            or [c for c in wins if C.SUIT_OF[c] == k.trump and not _higher_out(k, c)]
        if safe:
            return {"type": "play", "card": C.code(max(safe, key=lambda c: VALUE[c]))}
        if value >= 10:
            c = max(wins, key=lambda c: (POWER[c], -VALUE[c]))
            return {"type": "play", "card": C.code(c)}
    return {"type": "play", "card": C.code(_cheapest(cards, hand, k.trump))}


def _is_last(k: Knowledge) -> bool:
    """Whether the seat plays last to the current trick (later players have no cards)."""
    act = k.active
    leader = k.view["leader"]
    order = act[act.index(leader):] + act[:act.index(leader)]
    after = order[order.index(k.seat) + 1:]
    return all(k.counts[s] == 0 for s in after)


def _cheapest(cards, hand, trump):
    return min(cards, key=lambda c: (keep_value(c, hand, trump), c))


def _lead(k: Knowledge, cards, parts):
    hand = k.hand
    # a sure winner: the highest card of its suit still out, not a meld part
    sure = [c for c in cards if not _higher_out(k, c) and not parts >> c & 1
            and (C.SUIT_OF[c] == k.trump or k.trump == NO or
                 not any(k.voids[s] >> C.SUIT_OF[c] & 1 for s in k.active if s != k.seat))]
    if sure:
        return max(sure, key=lambda c: (VALUE[c], C.SUIT_OF[c] == k.trump))
    # otherwise a low card of the longest side suit, keeping melds and trumps
    def key(c):
        su = C.SUIT_OF[c]
        return (parts >> c & 1, su == k.trump, VALUE[c] >= 10, -C.count(hand & SUIT[su]),
                VALUE[c], c)
    return min(cards, key=key)


# --- rollouts ----------------------------------------------------------------------------------

# The cards that form a meld with each card (any hand): ``meld_partners(c, hand)`` is
# ``C.cards_of(_PARTNERS[c] & hand)``, the same cards in the same order.
_PARTNERS = [C.mask_of(meld_partners(_c, SUITED_MASK)) for _c in range(48)]


def _act(t) -> dict:
    """A play of the int policies below as an action dict."""
    c, k, p = t
    a = {"type": "play", "card": C.CODES[c]}
    if k != NO:
        a["companion"] = C.CODES[k]
    if p != NO:
        a["meld"] = C.CODES[p]
    return a


def _other_phase(g: Cesarz) -> dict:
    """The rollout's bid and give: pass; give the card least worth keeping."""
    if g.phase == "bid":
        return {"type": "pass"}
    hand = g.hands[g.to_move]
    c = min(C.cards_of(hand), key=lambda c: (keep_value(c, hand, g.trump), c))
    return {"type": "give", "card": C.CODES[c], "to": g.to_give[0]}


def noisy_rollout_policy(g: Cesarz, rng: random.Random) -> dict:
    """A fast, noisy policy for a full state, read from the hand masks (building every legal
    action, dozens with three jokers and the emperor, cost half the rollout): a meld when one
    may be declared (G17), else mostly a plain card (the cheapest that beats, or the cheapest),
    and now and then a joker or the emperor with a random companion (G12-G14)."""
    if g.phase != "play":
        return _other_phase(g)
    return _act(_noisy_play(g, rng))


def _noisy_play(g: Cesarz, rng: random.Random) -> tuple[int, int, int]:
    """``noisy_rollout_policy``'s play as ints: (card, companion, meld partner), ``NO`` for
    none."""
    hand = g.hands[g.to_move]
    suited = hand & SUITED_MASK
    specials = hand & _SPECIALS
    if not suited:                                          # bare joker / emperor (G13, G15)
        return rng.choice(cards_of(specials)), NO, NO
    led = g.led
    emp = g.emperor_trick
    if emp or led == NO or g.released:
        playable = suited
    else:
        playable = suited & SUIT[led] or suited
    cards = cards_of(playable)
    trick = g.trick
    if not emp:                                             # G17: lead, or beat the trick
        parts = meld_parts(hand) & playable
        if parts:
            melds = []
            for c in cards_of(parts):
                if not trick or g._would_win(c):
                    for p in cards_of(_PARTNERS[c] & hand):
                        melds.append((c, p))
            if melds and rng.random() < 0.9:
                c, p = rng.choice(melds)
                return c, NO, p
    if specials and rng.random() >= 0.85:
        x = rng.choice(cards_of(specials))
        return x, rng.choice(cards_of(suited)), NO
    if trick and not emp and rng.random() < 0.6:
        # try to win cheaply: the lowest card that beats, else the lowest card
        trump = g.trump
        best = 0
        for e in trick:
            v = entry_key(e, trump, led)
            if v > best:
                best = v
        win, low = None, None
        for c in cards:
            su = SUIT_OF[c]
            key = card_key(su, c, trump, led if led != NO else su)
            if key > best and (win is None or POWER[c] < POWER[win]):
                win = c
            if low is None or VALUE[c] < VALUE[low]:
                low = c
        return (win if win is not None else low), NO, NO
    return rng.choice(cards), NO, NO


def _others(d: list, seat: int, n: int) -> float:
    """What ``seat``'s gain is measured against: the other seat's gain with two players; with
    more, half the others' mean and half the best of them (the race to 2000, §9, is won
    against the leading rival, not against the average)."""
    if n == 2:
        return d[1 - seat]
    o = [d[s] for s in range(n) if s != seat]
    return 0.5 * sum(o) / len(o) + 0.5 * max(o)


def evaluate(g: Cesarz, seat: int, start) -> float:
    """The deal's score change of ``seat`` minus the others' (``_others``), in hundreds; a won
    or lost game counts 10 more or less."""
    n = g.n
    d = [g.scores[s] - start.scores[s] for s in range(n)]
    v = (d[seat] - _others(d, seat, n)) / 100.0
    if g.to_move is None:
        v += 10.0 if g.winner == seat else -10.0
    return v


# cards of the same suit ranking above each suited card (for "is it the highest still out")
_ABOVE = [0] * 48
for _c in range(44):
    if C.SUIT_OF[_c] >= 0 and SUITED_MASK >> _c & 1:
        _ABOVE[_c] = C.mask_of(x for x in C.cards_of(SUIT[C.SUIT_OF[_c]] & SUITED_MASK)
                               if POWER[x] > POWER[_c])
ROLLOUT_EPS = 0.15


def smart_rollout_policy(g: Cesarz, rng: random.Random) -> dict:
    """The rollout policy of the search: the level-2 rules' main lines on the open state (lead
    the highest card still out, win a trick cheaply or with the last card richly, take a rich
    trick with a joker's high companion or the emperor, else throw the cheapest card), with
    ``ROLLOUT_EPS`` of the moves left to the noisier ``noisy_rollout_policy``."""
    if g.phase != "play":
        return _other_phase(g)
    return _act(_smart_play(g, rng))


# The searches' play-outs (the plug-in's hook: the expert's tree; levels 3-4 play the same
# policy in their own search, ``ROLLOUT``).  Against level 3 in two-player cesarz, 100 duplicate
# deals, the expert won 0.475 of the deals with ``noisy_rollout_policy`` and 0.550 with this
# (docs/BOTS.md, "The expert").
rollout_policy = smart_rollout_policy


def rollout_play(g: Cesarz, rng: random.Random) -> None:
    """``rollout_policy``'s step played in place: its card ints go to ``Cesarz._play_card``
    (what ``_apply`` does with the action's dict)."""
    if g.phase != "play":
        g._apply(_other_phase(g))
    else:
        c, k, p = _smart_play(g, rng)
        g._play_card(c, k, p)


def _smart_play(g: Cesarz, rng: random.Random) -> tuple[int, int, int]:
    """``smart_rollout_policy``'s play as ints: (card, companion, meld partner)."""
    if rng.random() < ROLLOUT_EPS:
        return _noisy_play(g, rng)
    seat = g.to_move
    hands = g.hands
    hand = hands[seat]
    suited = hand & SUITED_MASK
    specials = hand & _SPECIALS
    if not suited:
        return rng.choice(cards_of(specials)), NO, NO
    led = g.led
    trump = g.trump
    emp = g.emperor_trick
    if emp or led == NO or g.released:
        playable = suited
    else:
        playable = suited & SUIT[led] or suited
    cards = cards_of(playable)
    trick = g.trick
    parts = meld_parts(hand)
    if not emp and parts & playable:
        bestm = None
        for c in cards_of(parts & playable):
            if not trick or g._would_win(c):
                for p in cards_of(_PARTNERS[c] & hand):
                    v = meld_value(c, p)
                    if bestm is None or v > bestm[0]:
                        bestm = (v, c, p)
        if bestm is not None:
            return bestm[1], NO, bestm[2]
    if emp:
        return _cheap(cards, parts), NO, NO
    order = g.trick_order
    if not trick:
        others = 0
        for s in order[1:]:
            others |= hands[s]
        sure = []
        for c in cards:
            if others & _ABOVE[c] or parts >> c & 1:
                continue
            su = SUIT_OF[c]
            if trump != NO and su != trump and any(
                    not hands[s] & SUIT[su] and hands[s] & SUIT[trump] for s in order[1:]):
                continue
            sure.append(c)
        if sure:
            c = max(sure, key=lambda c: VALUE[c])
        else:
            c = min(cards, key=lambda c: (parts >> c & 1, SUIT_OF[c] == trump,
                                          VALUE[c], -(hand & SUIT[SUIT_OF[c]]).bit_count()))
        return c, NO, NO
    best = 0
    value = 0
    for _, c, k, su, _m in trick:                 # entry_key of each entry, inline
        if k == NO:
            value += VALUE[c]
        else:
            value += VALUE[c] + VALUE[k]
            c = k
        if su == NO:
            continue
        if su == trump:
            v = 200 + POWER[c]
        elif su == led:
            v = 100 + POWER[c]
        else:
            continue
        if v > best:
            best = v
    wins = []
    for c in cards:
        su = SUIT_OF[c]
        key = 200 + POWER[c] if su == trump else (100 + POWER[c] if su == led else 0)
        if key > best:
            wins.append(c)
    if wins:
        later = [s for s in order[g.trick_pos + 1:] if hands[s]]
        if not later:
            c = max(wins, key=lambda c: (VALUE[c] - 3 * (parts >> c & 1), -POWER[c]))
            return c, NO, NO
        rest = 0
        for s in later:
            rest |= hands[s]
        safe = [c for c in wins if not rest & _ABOVE[c] and (
            SUIT_OF[c] == trump or trump == NO or not any(
                not hands[s] & SUIT[led] and hands[s] & SUIT[trump] for s in later))]
        if safe:
            return max(safe, key=lambda c: VALUE[c]), NO, NO
        if value >= 10:
            c = min(wins, key=lambda c: POWER[c]) if rng.random() < 0.5 else \
                max(wins, key=lambda c: POWER[c])
            return c, NO, NO
    elif value >= 10 and specials:
        if hand >> EMPEROR & 1 and value >= 20:
            c = max(cards_of(suited), key=lambda c: (VALUE[c], -POWER[c]))
            return EMPEROR, c, NO
        j = specials & JOKER_MASK
        if j and led != NO:
            base = 200 if led == trump else 100
            comps = [c for c in cards_of(suited) if base + POWER[c] > best
                     and not parts >> c & 1]
            if comps:
                c = max(comps, key=lambda c: (VALUE[c], -POWER[c]))
                return (j & -j).bit_length() - 1, c, NO
    return _cheap(cards, parts), NO, NO


def _cheap(cards, parts):
    """The cheapest card: no meld part, then lowest value and power, then lowest int (one int
    key: ``_CHEAP[c]`` orders by value + power, then card)."""
    return min(cards, key=lambda c: (parts >> c & 1) << 16 | _CHEAP[c])


_CHEAP = [(VALUE[_c] + POWER[_c]) << 8 | _c for _c in range(48)]


ROLLOUT = _smart_play               # the rollouts' play (ints); bids and gives: _other_phase


def _clone(g: Cesarz) -> Cesarz:
    """``search.fast_clone`` for a cesarz search state: the lists copied one level down are
    lists of ints, tuples and (the score sheet) rows never changed once written, so a shallow
    copy of each list is enough."""
    new = object.__new__(type(g))
    d = g.__dict__.copy()
    for k, v in d.items():
        if type(v) is list:
            d[k] = v[:]
    d["_cache"] = None
    new.__dict__ = d
    return new


def _quiet(g: Cesarz) -> Cesarz:
    """The sampled state as a search's: a rollout ends with the scoring of this deal, without
    shuffling and dealing a next one that nobody looks at (``Game._next_deal``)."""
    g._one_deal = True
    return g


def _rollout(g: Cesarz, seat: int, scores0: list, rng: random.Random) -> float:
    """Finish the deal of a ``_quiet`` state with ``smart_rollout_policy`` (its int form, played
    by ``Cesarz._play_card``); ``evaluate``'s value."""
    play = g._play_card
    policy = ROLLOUT
    while g.to_move is not None and g.phase != "deal":      # "deal": only counted, not dealt
        if g.phase == "play":
            c, k, p = policy(g, rng)
            play(c, k, p)
        else:
            g._apply(_other_phase(g))
    n = g.n
    d = [g.scores[s] - scores0[s] for s in range(n)]
    v = (d[seat] - _others(d, seat, n)) / 100.0
    if g.phase == "over":
        v += 10.0 if g.winner == seat else -10.0
    return v


def action_groups(legal: list) -> list[int]:
    """For every legal action the index of its representative: the three jokers are the same
    card in play (no rank, no points, G13; only the sitting-out dealer's musik credit tells
    them apart, G10), so a joker with a companion is tried once, whichever joker it is."""
    rep: dict = {}
    out = []
    for i, a in enumerate(legal):
        if a.get("card") in _JOKER_CODES:
            key = ("joker", a.get("companion"))
        else:
            key = (a.get("type"), a.get("card"), a.get("companion"), a.get("meld"),
                   a.get("value"), a.get("to"))
        out.append(rep.setdefault(key, i))
    return out


def search_values(view, legal, rng, budget, stats, level):
    """PIMC as the generic ``search``, with equivalent jokers merged (``action_groups``) and,
    with many actions (the jokers' and the emperor's companions), a screening round: every
    action on ``screen`` sampled deals, then the ``keep`` best and the rules' action on the
    rest.  A screened-out action's value is its screening mean less 1000."""
    seat = view["seat"]
    groups = action_groups(legal)
    uniq = sorted(set(groups))
    n = len(uniq)
    clock, deadline = timer(budget)
    total_r, min_s = budget["rollouts"], budget["min_samples"]
    if len(view["active"]) > 2:                   # fewer cards a deal: more samples, same time
        total_r = int(total_r * budget.get("multi_scale", 1.0))
    keep, screen = budget.get("keep", 0), budget.get("screen", 0)
    totals = [0.0] * n
    counts = [0] * n
    live = list(range(n))
    staged = bool(keep) and n > keep + 2 and screen > 0
    if staged:
        plan = [(screen, live)]
    else:
        plan = [(max(min_s, -(-total_r // n)), live)]
    done = 0
    first = True
    pruned = False
    know = Knowledge(view)
    stage = 0
    while stage < len(plan):
        samples, acts = plan[stage]
        for _ in range(samples):
            g = _quiet(determinize(view, rng, know))
            if first:
                check_determinization(g, view, [canonical(a) for a in legal])
                first = False
            sc = g.scores
            for j in acts:
                c = _clone(g)
                c._apply(legal[uniq[j]])
                totals[j] += _rollout(c, seat, sc, rng)
                counts[j] += 1
            done += 1
            if clock() > deadline:
                break
        if clock() > deadline:
            break
        stage += 1
        if staged and stage == 1:
            rule = rule_policy(view, random.Random(rng.getrandbits(32)))
            rk = canonical(rule)
            ri = next((groups[i] for i, a in enumerate(legal) if canonical(a) == rk), None)
            order = sorted(live, key=lambda j: -totals[j] / counts[j])
            best = order[:keep]
            if ri is not None:
                rj = uniq.index(ri)
                if rj not in best:
                    best.append(rj)
            left = max(min_s - screen, -(-(total_r - screen * n) // len(best)))
            plan.append((left, sorted(best)))
            pruned = True
    note_search(stats, done, clock() > deadline)
    keepset = set(plan[-1][1]) if pruned else set(range(n))
    val = []
    for j in range(n):
        v = totals[j] / counts[j] if counts[j] else -1e9
        val.append(v if j in keepset else v - 1000.0)
    index = {u: j for j, u in enumerate(uniq)}
    return [val[index[groups[i]]] for i in range(len(legal))]


def deal_over(g: Cesarz, start) -> bool:
    return g.to_move is None or g.deal_no != start.deal_no

