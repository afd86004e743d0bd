"""Bot plug-in for 66 (sixty_six) - the reference plug-in; see ``bots/__init__.py`` for the
interface.  Rule numbers (G5 ...) refer to the shared rules file ``004-sixty-six.md``.

What a seat knows (G15): its hand, the trump card while it lies on the table, every card played
(the view's ``log``), who took the trump card (exchange, G10, or the last draw, G7), both cards
of every marriage (G9: the other card stays in the declarer's hand), and, once the stock is gone
(G8), a void whenever a player fails to follow.  Everyone's card points follow from the log
(tricks and marriages), so the determinization knows them exactly too.
"""

from __future__ import annotations

import random

from .. import cards as C
from ..games.sixty_six import POWER, TARGET, VALUE, SixtySix
from . import blank_game, possible_cards, sample_cards

DECK_MASK = C.mask_of(C.deck(("A", "10", "K", "Q", "J", "9")))
SUIT = C.SUIT_MASK

# Level 4 solves once the stock is gone; the endgame is open (2 players) or sampled (3, 4).
SOLVE_CARDS = 12
BUDGETS = {
    3: {"rollouts": 300, "min_samples": 10},
    4: {"rollouts": 900, "min_samples": 24, "solve_nodes": 6000},
}


# --- what the seat knows -------------------------------------------------------------------

class Knowledge:
    """Everything ``view`` tells its seat about the current deal."""

    def __init__(self, view: dict):
        n = self.n = view["players"]
        self.seat = view["seat"]
        self.trump = C.SUITS.index(view["trump"])
        self.hand = C.mask_of(C.card(x) for x in view["hand"])
        tc = view.get("trump_card")
        self.trump_card = C.card(tc) if tc is not None else None
        self.points = [0] * n
        self.captured = [0] * n
        self.tricks_won = [0] * n
        self.voids = [0] * n                     # suit bits (1 << suit) shown void
        self.known = [0] * n                     # cards known to be in a seat's hand
        self.played = 0
        self.marriages: list[tuple[int, int, int]] = []
        self.exchanged = None
        exhausted = False
        pending: list[tuple[int, int]] = []      # (seat, card) of the trick being played
        for e in view["log"]:
            t = e["type"]
            if t == "action":
                a = e["action"]
                if a["type"] == "play":
                    c = C.card(a["card"])
                    s = e["seat"]
                    if exhausted and pending and C.suit_of(c) != C.suit_of(pending[0][1]):
                        self.voids[s] |= 1 << C.suit_of(pending[0][1])          # G8
                    pending.append((s, c))
                    self.played |= 1 << c
            elif t == "trick":
                cards = [C.card(x) for x in e["cards"]]
                w = e["winner"]
                self.points[w] += sum(VALUE[c] for c in cards)
                self.tricks_won[w] += 1
                self.captured[w] |= C.mask_of(cards)
                pending = []
            elif t == "marriage":
                s = e["seat"]
                value = e["value"]
                self.points[s] += value
                self.marriages.append((s, C.suit_of(C.card(e["cards"][0])), value))
                self.known[s] |= 1 << C.card(e["cards"][1])                    # G9: shown
            elif t == "exchange":
                took = C.card(e["took"])
                self.known[e["seat"]] |= 1 << took                              # G10
                self.exchanged = (e["seat"], took)
            elif t == "trump_drawn":
                self.known[e["seat"]] |= 1 << C.card(e["card"])                 # G7
            elif t == "draw" and e["stock"] == 0:
                exhausted = True
        self.exhausted = exhausted
        self.trick = [(x["seat"], C.card(x["card"])) for x in view["trick"]]
        for s in range(n):
            self.known[s] &= ~self.played
        self.known[self.seat] = self.hand
        seen = self.hand | self.played
        if self.trump_card is not None:
            seen |= 1 << self.trump_card
        for s in range(n):
            seen |= self.known[s]
        self.unseen = DECK_MASK & ~seen          # in other hands or the face-down stock
        self.counts = [x["cards"] for x in view["seats"]]
        self.stock_down = view["stock"] - (self.trump_card is not None)

    def possible(self, s: int) -> int:
        """Cards seat ``s`` may hold (known ones and unseen ones of suits it is not void in)."""
        return possible_cards(self.seat, s, self.hand, self.unseen, self.voids, self.known)


# --- determinization -------------------------------------------------------------------------

def determinize(view: dict, rng: random.Random) -> SixtySix:
    k = Knowledge(view)
    n, me = k.n, k.seat
    sizes = {"stock": k.stock_down}
    allowed = {}
    for s in range(n):
        if s != me:
            sizes[s] = k.counts[s] - C.count(k.known[s])
            m = DECK_MASK
            for su in range(4):
                if k.voids[s] >> su & 1:
                    m &= ~SUIT[su]
            allowed[s] = m
    deal = sample_cards(C.cards_of(k.unseen), sizes, allowed, rng)
    g = blank_game(SixtySix, view, rng)
    g.hands = [deal[s] | k.known[s] if s != me else k.hand for s in range(n)]
    g.trump_card = k.trump_card
    g.trump = k.trump
    stock = C.cards_of(deal["stock"])
    rng.shuffle(stock)
    g.stock = stock
    g.trick = list(k.trick)
    lt = view.get("last_trick")
    g.last_trick = [(x["seat"], C.card(x["card"])) for x in lt["cards"]] if lt else []
    g.last_winner = lt["winner"] if lt else None
    g.leader = view["leader"]
    g.points = k.points
    g.captured = k.captured
    g.tricks_won = k.tricks_won
    g.marriages = list(k.marriages)
    g.exchanged = k.exchanged
    g.deal_winner = view.get("deal_winner")
    return g


# --- shared card judgement --------------------------------------------------------------------

def _beats(c: int, best: int, led: int, trump: int) -> bool:
    """Whether ``c`` takes a trick whose current best card is ``best`` (G5)."""
    sc, sb = C.suit_of(c), C.suit_of(best)
    if sc == sb:
        return POWER[c] > POWER[best]
    return sc == trump


def _best(trick, trump):
    best = trick[0][1]
    led = C.suit_of(best)
    for _, c in trick[1:]:
        if _beats(c, best, led, trump):
            best = c
    return best


def _cheapest(cards, trump, marriage_parts=0):
    """The card that costs least to throw away: low value, not a trump, not part of a marriage."""
    return min(cards, key=lambda c: (C.suit_of(c) == trump, (marriage_parts >> c) & 1,
                                     VALUE[c], POWER[c], c))


def _marriage_parts(hand: int) -> int:
    m = 0
    for su in range(4):
        k, q = C.make(C.KING, su), C.make(C.QUEEN, su)
        if hand >> k & 1 and hand >> q & 1:
            m |= (1 << k) | (1 << q)
    return m


# --- level 2: rules ---------------------------------------------------------------------------

def rule_policy(view: dict, rng: random.Random) -> dict:
    legal = view["legal_actions"]
    k = Knowledge(view)
    tr = k.trump
    if any(a["type"] == "exchange" for a in legal):
        return {"type": "exchange"}                   # G10: the trump card beats the trump 9
    hand_cards = [C.card(a["card"]) for a in legal if a["type"] == "play" and "meld" not in a]
    parts = _marriage_parts(k.hand)
    if k.n >= 3 and len(hand_cards) > 1:
        # G12: with 3-4 players 66 is rare and the last trick usually decides: save the
        # highest trump for it (unless it is the only card we may play)
        keeper = _keeper(k)
        if keeper is not None:
            rest = [c for c in hand_cards if c != keeper]
            if rest and not _takes_66(k, keeper):
                hand_cards = rest
    if not k.trick:
        return _rule_lead(k, legal, hand_cards, parts, rng)
    return {"type": "play", "card": C.code(_rule_follow(k, hand_cards, parts))}


def _keeper(k: Knowledge):
    trumps = C.cards_of(k.hand & SUIT[k.trump])
    if not trumps:
        return None
    return max(trumps, key=lambda c: POWER[c])


def _takes_66(k: Knowledge, c: int) -> bool:
    """Whether playing ``c`` surely wins this trick and reaches 66 (G11)."""
    if k.trick:
        best = _best(k.trick, k.trump)
        if not _beats(c, best, C.suit_of(k.trick[0][1]), k.trump):
            return False
        if len(k.trick) < k.n - 1 and not _sure_winner(k, c):
            return False
        value = sum(VALUE[x] for _, x in k.trick) + VALUE[c]
        return k.points[k.seat] + value >= TARGET
    return False


def _sure_winner(k: Knowledge, c: int) -> bool:
    """No card the others may hold takes ``c`` when led (after the stock is gone)."""
    su = C.suit_of(c)
    higher = 0
    for x in C.cards_of(DECK_MASK & SUIT[su] & ~k.hand & ~k.played):
        if POWER[x] > POWER[c]:
            higher |= 1 << x
    for s in range(k.n):
        if s == k.seat:
            continue
        poss = k.possible(s)
        if poss & higher:
            return False
        if su != k.trump and poss & SUIT[k.trump]:
            # he can trump only when void in the suit led
            if k.n == 2 and k.stock_down == 0 and k.trump_card is None:
                if not (poss & SUIT[su]):            # 2 players: his hand is exactly known
                    return False
            else:
                return False
    return True


def _rule_lead(k, legal, cards, parts, rng):
    melds = [a for a in legal if "meld" in a]
    if melds:                                          # G9: score the marriage now, trump first
        melds.sort(key=lambda a: (C.suit_of(C.card(a["card"])) != k.trump,
                                  C.rank_of(C.card(a["card"])) != C.QUEEN))
        return melds[0]
    if k.exhausted:                                    # G8: following is compulsory now
        sure = [c for c in cards if _sure_winner(k, c)]
        if sure:                                       # cash sure winners, trumps first
            c = max(sure, key=lambda c: (C.suit_of(c) == k.trump, VALUE[c], POWER[c]))
            return {"type": "play", "card": C.code(c)}
    if k.n >= 3 and k.exhausted:
        # strip the others' trumps while ours (the kept one) stays the highest
        mine = [c for c in cards if C.suit_of(c) == k.trump]
        theirs = C.cards_of(k.unseen & SUIT[k.trump])
        top = _keeper(k)
        if mine and theirs and top is not None and \
                all(POWER[top] > POWER[x] for x in theirs):
            return {"type": "play", "card": C.code(min(mine, key=lambda c: POWER[c]))}
    # duck: the card that gives away least; keep trumps, tens and marriage cards
    c = _cheapest(cards, k.trump, parts)
    return {"type": "play", "card": C.code(c)}


def _rule_follow(k, cards, parts):
    tr = k.trump
    best = _best(k.trick, tr)
    led = C.suit_of(k.trick[0][1])
    value = sum(VALUE[c] for _, c in k.trick)
    last = len(k.trick) == k.n - 1
    my_pts = k.points[k.seat]
    wins = [c for c in cards if _beats(c, best, led, tr)]
    same = [c for c in wins if C.suit_of(c) == C.suit_of(best)] if C.suit_of(best) == led else []
    same = [c for c in wins if C.suit_of(c) == led and C.suit_of(best) == led]
    trumps = [c for c in wins if C.suit_of(c) == tr and c not in same]
    if wins and my_pts + value + max(VALUE[c] for c in wins) >= TARGET:
        if last or any(_sure_winner(k, c) for c in wins):
            return max(wins, key=lambda c: VALUE[c])       # G11: that trick ends the deal
    if same and (last or k.n == 2 or any(_sure_winner(k, c) for c in same)):
        # win in the suit led: bank the highest points that are safe
        return max(same, key=lambda c: (VALUE[c], -POWER[c]))
    if trumps and value + 0 >= 10:
        # worth a trump: the lowest that wins, keeping a trump marriage if possible
        return min(trumps, key=lambda c: ((parts >> c) & 1, POWER[c]))
    if trumps and k.exhausted and value >= 4:
        return min(trumps, key=lambda c: ((parts >> c) & 1, POWER[c]))
    if same:
        return min(same, key=lambda c: POWER[c])
    return _cheapest(cards, tr, parts)


# --- rollouts: a fast, slightly random version of the rules on a full state -------------------

def rollout_policy(g: SixtySix, rng: random.Random) -> dict:
    seat = g.to_move
    hand = g.hands[seat]
    tr = g.trump
    if not g.trick:
        if g.trump_card is not None and hand >> C.make(C.NINE, tr) & 1:
            return {"type": "exchange"}
        for su in (tr, 0, 1, 2, 3):
            q = C.make(C.QUEEN, su)
            kk = C.make(C.KING, su)
            if hand >> q & 1 and hand >> kk & 1:
                return {"type": "play", "card": C.CODES[q], "meld": C.CODES[kk]}
        cards = C.cards_of(hand)
        if g.n >= 3 and len(cards) > 1:
            cards = _without_keeper(cards, tr)
        a = rng.choice(cards)
        b = rng.choice(cards)
        # tournament: the cheaper of two random cards (trumps count as dear)
        ka = VALUE[a] + (12 if C.suit_of(a) == tr else 0)
        kb = VALUE[b] + (12 if C.suit_of(b) == tr else 0)
        c = a if ka <= kb else b
        return {"type": "play", "card": C.CODES[c]}
    playable = hand
    led_card = g.trick[0][1]
    led = C.suit_of(led_card)
    if g.trump_card is None:
        f = hand & SUIT[led]
        if f:
            playable = f
    best = led_card
    value = VALUE[led_card]
    for _, c in g.trick[1:]:
        value += VALUE[c]
        sc = C.suit_of(c)
        if (sc == C.suit_of(best) and POWER[c] > POWER[best]) or (sc == tr and C.suit_of(best) != tr):
            best = c
    sb = C.suit_of(best)
    if g.n >= 3 and playable & (playable - 1):
        keep = _without_keeper(C.cards_of(playable), tr)
        playable = C.mask_of(keep)
    win_same = None
    win_trump = None
    cheap = None
    for c in C.cards_of(playable):
        sc = C.suit_of(c)
        if sc == sb and POWER[c] > POWER[best]:
            if win_same is None or VALUE[c] > VALUE[win_same]:
                win_same = c
        elif sc == tr and sb != tr:
            if win_trump is None or POWER[c] < POWER[win_trump]:
                win_trump = c
        if cheap is None or (sc == tr, VALUE[c]) < (C.suit_of(cheap) == tr, VALUE[cheap]):
            cheap = c
    if win_same is not None and sb == led:
        c = win_same
    elif win_trump is not None and value >= 10:
        c = win_trump
    elif win_same is not None and rng.random() < 0.5:
        c = win_same
    else:
        c = cheap
    return {"type": "play", "card": C.CODES[c]}


def _without_keeper(cards: list, tr: int) -> list:
    """``cards`` without the highest trump, saved for the last trick (G12; 3-4 players)."""
    top = None
    for c in cards:
        if C.suit_of(c) == tr and (top is None or POWER[c] > POWER[top]):
            top = c
    if top is None:
        return cards
    return [c for c in cards if c != top]


# --- evaluation and endgame --------------------------------------------------------------------

def evaluate(g: SixtySix, seat: int, start) -> float:
    """1 for a won deal, 0 for a lost one, plus a small tie-break for the card-point margin."""
    won = 1.0 if g.deal_winner == seat else 0.0
    other = max(g.points[s] for s in range(g.n) if s != seat)
    return won + 0.02 * (g.points[seat] - other) / 120


def solve_evaluate(g: SixtySix, seat: int, start) -> float:
    """The solver plays for the win only: a 1/0 value lets alpha-beta cut far more."""
    return 1.0 if g.deal_winner == seat else 0.0


def solvable(g: SixtySix, start) -> bool:
    """Two players, no draws left (G8): the rest is a game of open cards, the same in every
    sample (the seat knows the other hand exactly).  With 3 or 4 players the paranoid solver
    would assume a coalition against the seat, so those keep to rollouts."""
    return g.n == 2 and g.trump_card is None and sum(C.count(h) for h in g.hands) <= SOLVE_CARDS


def state_key(g: SixtySix):
    return (tuple(g.hands), tuple(g.points), tuple(g.trick), g.to_move)


def order_actions(g: SixtySix, actions: list) -> list:
    """Marriages first, then strong cards: good moves early make alpha-beta cut more."""
    tr = g.trump

    def key(a):
        if a["type"] != "play":
            return (0, 0)
        c = C.CARD[a["card"]]
        return (-("meld" in a), -(POWER[c] + (10 if C.suit_of(c) == tr else 0)))
    return sorted(actions, key=key)
