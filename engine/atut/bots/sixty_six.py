"""Bot plug-in for 66 (sixty_six) - the reference plug-in; see ``bots/interface.py`` for the
interface.  Rule numbers (G5 ...) are those of ``docs/rules/sixty_six.md``.

What a seat knows (G15): its hand, the trump card while it lies on the table, every card played
(the view's ``log``), who took the trump card (exchange, G10, or the last draw, G7), both cards
of every marriage (G9: the other card stays in the declarer's hand), and, once the stock is gone
(G8), a void whenever a player fails to follow.  Everyone's card points follow from the log
(tricks and marriages), so the determinization knows them exactly too.

With 3-4 players the search also reads the others' plays as those of the level-2 rules (a
good player's habits): a plain lead shows no marriage (G9) and, unless it may have been a sure
winner, no cheaper side card; a follower who stays below the best card of a side suit holds no
higher one of it; a trump played in is the lowest that wins; a discard on a trick worth 4 or
more shows at most one trump (the one kept for the last trick, G12).  Hands are sampled under
these constraints (dropped when a player's play contradicts them; what was seen while the stock
lasted allows for the cards drawn since).  With 3 players the rollouts play those same rules
from each seat's own knowledge of the sampled state (``rule_rollout_policy``).  With 3-4 players,
once the stock is gone (G8: no more draws, so a sampled state has no chance left), the
searching seat plays its last ``OWN_MAX`` cards in a rollout by trying every line of its own
against the others' rules (the last trick usually decides, G12); each such rollout costs more,
so these searches take fewer rollouts (``rollouts_3``, ``rollouts_4``).  That search keeps its
answers for the decision (``_own_memo``); with 3 players, where the others' rollout moves are
the rules' and so fixed, it settles the rest of the rollout, which then ends at once with the
value found (``deal_over``, ``evaluate``; the random draws its moves would have made are drawn
all the same, so every decision is the one the played-out rollouts give).
"""

from __future__ import annotations

import random
import sys

from .. import cards as C
from ..games.sixty_six import (
    ACTION,
    DECK,
    EXCHANGE_MOVE,
    HAND_SIZE,
    KINGS,
    MELD_FLAG,
    POWER,
    TARGET,
    VALUE,
    SixtySix,
)
from ..tricks import beats, winning
from . import knowledge
from .sampling import possible_cards, sample_cards
from .search import search

DECK_MASK = C.mask_of(DECK)
SUIT = C.SUIT_MASK
SUIT_OF = C.SUIT_OF

# Level 4 solves once the stock is gone; the endgame is open (2 players) or sampled (3, 4).
SOLVE_CARDS = 12
# ``rollouts_3``/``rollouts_4``: the rollouts with 3/4 players (``rollouts`` otherwise); with 3-4
# players each rollout also searches the seat's own last cards (``OWN_MAX``) and costs more.
BUDGETS = {
    3: {"rollouts": 300, "min_samples": 10, "rollouts_3": 160, "rollouts_4": 160},
    4: {"rollouts": 900, "min_samples": 24, "solve_nodes": 6000, "rollouts_3": 480,
        "rollouts_4": 460},
}


# --- what the seat knows -------------------------------------------------------------------

class Knowledge(knowledge.Knowledge):
    """Everything ``view`` tells its seat about the current deal (``bots.knowledge``): plays
    show voids only once the stock is gone (G8); ``known`` holds the marriages' partner cards
    (G9), the trump card taken by an exchange (G10) or the last draw (G7); ``seen_aside`` the
    trump card on the table; ``points`` follow from the tricks and marriages."""

    def deck_of(self, view: dict) -> int:
        return DECK_MASK

    def read_view(self, view: dict) -> None:
        n = self.n
        self.trump = C.SUITS.index(view["trump"])
        tc = view.get("trump_card")
        self.trump_card = C.card(tc) if tc is not None else None
        if self.trump_card is not None:
            self.seen_aside = 1 << self.trump_card
        self.points = [0] * n
        self.marriages: list[tuple[int, int, int]] = []
        self.exchanged = None
        # inferred from the others' play, assuming they play like the level-2 rules (used only
        # to sample their hands): cards a seat does not hold, seats holding no marriage
        self.lacks = [0] * n
        self.no_pair = [False] * n
        self.max_trumps = [9] * n
        self.lacks_pre = [0] * n                 # inferred before the stock was gone ...
        self.pre_draws = [None] * n              # ... at this count of draws
        self.draws = 0
        self.exhausted = False
        self._leads: list[tuple[int, int, int]] = []   # (seat, card, draws) of plain leads

    def play(self, s: int, c: int, a: dict, trick: list) -> None:
        if self.exhausted:
            self.shows_void(s, c, trick)                                      # G8
            if not trick and "meld" not in a:
                self.no_pair[s] = True          # G9: he would have declared it
        if not trick and "meld" not in a and self.n >= 3:
            self._leads.append((s, c, None if self.exhausted else self.draws))

    def trick_done(self, e: dict, trick: list) -> None:
        if self.exhausted and self.n >= 3:
            self._infer_follow(trick)
        super().trick_done(e, trick)
        w = e["winner"]
        for x in e["cards"]:
            self.points[w] += VALUE[C.CARD[x]]

    def event(self, e: dict) -> None:
        t = e["type"]
        if t == "marriage":
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
        elif t == "draw":
            self.draws += 1
            if e["stock"] == 0:
                self.exhausted = True

    def read_rest(self, view: dict) -> None:
        for s, c, at in self._leads:
            if s != self.seat:
                self._infer_lead(s, c, at)
        if self.exhausted and self.n >= 3 and len(self.trick) > 1:
            self._infer_follow(self.trick, complete=False)
        self.counts = [x["cards"] for x in view["seats"]]
        self.stock_down = view["stock"] - (self.trump_card is not None)

    def _infer_follow(self, trick, complete=True):
        """After the stock is gone (G8) a player following a side suit that nobody trumped
        wins the trick in that suit when he can (the rules: the lowest winner, or the highest
        when he is the last to play).  So one who stays below the best card holds no card of
        the suit above it, and the last player holds none above the card he played.  One who
        cannot follow trumps with his lowest winning trump (his highest is kept for the last
        trick, G12), and does so whenever the trick holds 4 points or more: a discard then
        shows at most one trump."""
        tr = self.trump
        led = C.suit_of(trick[0][1])
        if led == tr:
            return
        best = trick[0][1]
        value = VALUE[best]
        last = len(trick) - 1 if complete else -1
        for i in range(1, len(trick)):
            s, c = trick[i]
            sc, sb = C.suit_of(c), C.suit_of(best)
            if beats(c, best, tr, POWER) and self.points[s] + value + VALUE[c] >= TARGET:
                pass                                     # G11: any winner that reaches 66
            elif sb == led and sc == led:
                if POWER[c] < POWER[best]:
                    top = POWER[best]
                elif i == last:
                    top = POWER[c]
                else:
                    top = 99
                for x in C.cards_of(SUIT[led] & DECK_MASK):
                    if POWER[x] > top:
                        self.lacks[s] |= 1 << x
            elif sc == tr and (sb != tr or POWER[c] > POWER[best]):
                low = POWER[best] if sb == tr else 0
                for x in C.cards_of(SUIT[tr] & DECK_MASK & ~MARRIAGE_KQ):
                    if low < POWER[x] < POWER[c]:        # (a trump marriage is kept too)
                        self.lacks[s] |= 1 << x
            elif sc != tr and sc != led and sb == led and value >= 4:
                self.max_trumps[s] = 1
            if beats(c, best, tr, POWER):
                best = c
            value += VALUE[c]

    def _infer_lead(self, s, c, at):
        """The rules lead the cheapest card (G9: a marriage is declared first, so a plain lead
        shows there was none; trumps are kept) unless, after the stock is gone, they cash a
        sure winner or pull trumps.  A side-suit lead that cannot have been a sure winner (this
        seat holds a trump or a higher card of the suit) was the cheapest: the leader held no
        cheaper side-suit card.  ``at``: draws before the lead (None: after the stock)."""
        su = C.suit_of(c)
        if su == self.trump:
            return
        if at is None:
            higher = C.mask_of(x for x in C.cards_of(SUIT[su] & DECK_MASK) if POWER[x] > POWER[c])
            if not (self.hand & (SUIT[self.trump] | higher)):
                return
        cheaper = 0
        for x in C.cards_of(DECK_MASK & ~SUIT[self.trump]):
            if (POWER[x], x) < (POWER[c], c):
                cheaper |= 1 << x
        if at is None:
            self.lacks[s] |= cheaper
        else:
            self.lacks_pre[s] |= cheaper
            if self.pre_draws[s] is None:
                self.pre_draws[s] = at


# --- determinization -------------------------------------------------------------------------

_last = [None, None, None]          # the latest view, its Knowledge and its log's length


def determinize(view: dict, rng: random.Random) -> SixtySix:
    if _last[0] is view and _last[2] == len(view["log"]):   # the same search: read it once
        k = _last[1]
    else:
        k = Knowledge(view)
        _last[:] = [view, k, len(view["log"])]
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
    deal = _sample(k, sizes, allowed, rng)
    lt = view.get("last_trick")
    g = SixtySix.sampled(
        view, rng,
        hands=[deal[s] | k.known[s] if s != me else k.hand for s in range(n)],
        trump_card=k.trump_card,
        trump=k.trump,
        stock=C.cards_of(deal["stock"]),
        trick=list(k.trick),
        last_trick=[(x["seat"], C.card(x["card"])) for x in lt["cards"]] if lt else [],
        last_winner=lt["winner"] if lt else None,
        leader=view["leader"],
        points=list(k.points),
        captured=list(k.captured),
        tricks_won=list(k.tricks_won),
        marriages=list(k.marriages),
        exchanged=k.exchanged,
        deal_winner=view.get("deal_winner"))
    rng.shuffle(g.stock)                     # after ``sampled`` drew the game's RNG from ``rng``
    # the search's own fields, beside the game's:
    g.voids = list(k.voids)                  # kept up to date by the rule rollouts
    g.searcher = me if n >= 3 else None      # plays its own last cards by search (OWN_MAX)
    g.settled = None                         # a rollout's value once it is settled
    return g


INFER = True
PAIR_TRIES = 20

def _sample(k: Knowledge, sizes: dict, allowed: dict, rng: random.Random) -> dict:
    """The hidden cards dealt under the hard constraints (voids), and where the others' play
    allows it the inferred ones (``Knowledge.lacks``, ``no_pair``) too.  What was inferred
    before the stock was gone holds for a hand less the cards drawn since: those are dealt to
    extra places without that constraint."""
    cards = C.cards_of(k.unseen)
    if not INFER or k.n < 3:
        return sample_cards(cards, sizes, allowed, rng)
    strict = {q: m & ~k.lacks[q] if q != "stock" else m for q, m in allowed.items()}
    sz = dict(sizes)
    if INFER_PRE:
        for q in allowed:
            if q != "stock" and k.lacks_pre[q] and k.pre_draws[q] is not None:
                d = min(sz[q], k.draws - k.pre_draws[q])
                if d < sz[q]:
                    sz[(q, "drawn")] = d
                    sz[q] -= d
                    strict[(q, "drawn")] = strict[q]
                    strict[q] = strict[q] & ~k.lacks_pre[q]
    try:
        deal = _merge(sample_cards(cards, sz, strict, rng))
    except ValueError:                     # someone did not play like the rules: drop it
        return sample_cards(cards, sizes, allowed, rng)
    pairs = [q for q in allowed if q != "stock" and k.no_pair[q]]
    few = [q for q in allowed if q != "stock" and k.max_trumps[q] < 9]
    trumps = SUIT[k.trump]
    for _ in range(PAIR_TRIES if pairs or few else 0):
        if not any(_marriage_parts(deal[q] | k.known[q]) for q in pairs) and \
                not any(C.count((deal[q] | k.known[q]) & trumps) > k.max_trumps[q] for q in few):
            break
        deal = _merge(sample_cards(cards, sz, strict, rng))
    return deal


def _merge(deal: dict) -> dict:
    for q in [q for q in deal if type(q) is tuple]:
        deal[q[0]] |= deal.pop(q)
    return deal


INFER_PRE = True


# --- shared card judgement --------------------------------------------------------------------

# ``_cheapest``'s order as one int per trump suit and card: (a trump, [part of a marriage: bit
# 13, added per hand], value, power, the card) from the highest bits down.
CHEAP = tuple(tuple((C.SUIT_OF[c] == t) << 14 | VALUE[c] << 9 | POWER[c] << 6 | c
                    for c in range(48)) for t in range(4))


def _cheapest(cards, trump, marriage_parts=0):
    """The card that costs least to throw away: low value, not a trump, not part of a marriage
    (then the lower power, then the lower card int)."""
    key = CHEAP[trump]
    return min([key[c] | (marriage_parts >> c & 1) << 13 for c in cards]) & 63


def _marriage_parts(hand: int) -> int:
    """The kings and queens of ``hand`` whose partner it holds (a queen's int is its king's
    plus one)."""
    m = hand & hand >> 1 & KINGS
    return m | m << 1


# --- level 2: rules ---------------------------------------------------------------------------

def rule_policy(view: dict, rng: random.Random) -> dict:
    legal = view["legal_actions"]
    k = Knowledge(view)
    exchange = any(a["type"] == "exchange" for a in legal)
    melds = [C.card(a["card"]) for a in legal if "meld" in a]
    hand_cards = [C.card(a["card"]) for a in legal if a["type"] == "play" and "meld" not in a]
    return dict(ACTION[rule_move(k, exchange, melds, hand_cards)])


def rule_move(k, exchange: bool, melds: list, hand_cards: list) -> int:
    """The level-2 decision as an int move (``games.sixty_six``: a card, card + MELD_FLAG, or
    EXCHANGE_MOVE) from what ``k`` knows (a ``Knowledge``, or a ``_StateKnowledge`` in
    rollouts), the marriage cards that may be led with a meld and the cards that may be played
    (both in ascending order)."""
    if exchange:
        return EXCHANGE_MOVE                          # G10: the trump card beats the trump 9
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
        return _rule_lead(k, melds, hand_cards, parts)
    return _rule_follow(k, hand_cards, parts)


def _keeper(k: Knowledge):
    """The highest trump in hand (the lowest card int of the suit), or ``None``."""
    trumps = k.hand & SUIT[k.trump]
    if not trumps:
        return None
    return (trumps & -trumps).bit_length() - 1


def _takes_66(k: Knowledge, c: int) -> bool:
    """Whether playing ``c`` surely wins this trick and reaches 66 (G11)."""
    trick = k.trick
    if not trick:
        return False
    value = VALUE[c]
    for _, x in trick:
        value += VALUE[x]
    if k.points[k.seat] + value < TARGET:
        return False
    if not beats(c, winning(trick, k.trump, POWER)[1], k.trump, POWER):
        return False
    return len(trick) >= k.n - 1 or _sure_winner(k, c)


def _sure_winner(k: Knowledge, c: int) -> bool:
    """No card the others may hold takes ``c`` when led (after the stock is gone)."""
    su = SUIT_OF[c]
    # the higher cards of the suit are its lower ints (A, 10, K, Q, J, 9)
    higher = DECK_MASK & SUIT[su] & ~k.hand & ~k.played & ((1 << c) - 1)
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


def _rule_lead(k, melds, cards, parts):
    if melds:                                          # G9: score the marriage now, trump first
        c = min(melds, key=lambda c: (C.suit_of(c) != k.trump, C.rank_of(c) != C.QUEEN, c))
        return c + MELD_FLAG
    if k.exhausted:                                    # G8: following is compulsory now
        sure = [c for c in cards if _sure_winner(k, c)]
        if sure:                                       # cash sure winners, trumps first
            return max(sure, key=lambda c: (C.suit_of(c) == k.trump, VALUE[c], POWER[c]))
    if k.n >= 3 and k.exhausted:
        # strip the others' trumps while ours (the kept one) stays the highest
        mine = [c for c in cards if C.suit_of(c) == k.trump]
        theirs = C.cards_of(k.unseen & SUIT[k.trump])
        top = _keeper(k)
        if mine and theirs and top is not None and \
                all(POWER[top] > POWER[x] for x in theirs):
            return min(mine, key=lambda c: POWER[c])
    # duck: the card that gives away least; keep trumps, tens and marriage cards
    return _cheapest(cards, k.trump, parts)


def _rule_follow(k, cards, parts):
    """``cards``: ascending, so that within a suit the higher card (and the one worth more)
    comes first."""
    tr = k.trump
    trick = k.trick
    best = winning(trick, tr, POWER)[1]
    led = SUIT_OF[trick[0][1]]
    value = 0
    for _, c in trick:
        value += VALUE[c]
    last = len(trick) == k.n - 1
    sb = SUIT_OF[best]
    pb = POWER[best]
    wins = [c for c in cards if (POWER[c] > pb if SUIT_OF[c] == sb else SUIT_OF[c] == tr)]
    if not wins:
        return _cheapest(cards, tr, parts)
    same = [c for c in wins if SUIT_OF[c] == led] if sb == led else []
    trumps = [c for c in wins if SUIT_OF[c] == tr] if led != tr else []
    top = max([VALUE[c] for c in wins])
    if k.points[k.seat] + value + top >= TARGET:
        if last or any(_sure_winner(k, c) for c in wins):
            for c in wins:                                 # G11: that trick ends the deal
                if VALUE[c] == top:
                    return c
    if same and (last or k.n == 2 or any(_sure_winner(k, c) for c in same)):
        # win in the suit led: bank the highest points that are safe
        return same[0]
    if trumps and (value >= 10 or k.exhausted and value >= 4):
        # worth a trump: the lowest that wins, keeping a trump marriage if possible
        return min(trumps, key=lambda c: ((parts >> c) & 1, POWER[c]))
    if same:
        return same[-1]
    return _cheapest(cards, tr, parts)


# --- rollouts: a fast, slightly random version of the rules on a full state -------------------

def rollout_policy(g: SixtySix, rng: random.Random) -> dict:
    if g.to_move == getattr(g, "searcher", None) and g.trump_card is None and \
            C.count(g.hands[g.to_move]) <= OWN_MAX.get(g.n, 0):
        value, m, steps = _own_node(g, g.to_move)
        if g.n in RULE_ROLLOUTS and ROLLOUT_EPS == 0:
            # The rest of this rollout is settled: the others play the rules (as in the own
            # search) and this seat the line just found.  ``deal_over`` ends it here and
            # ``evaluate`` gives its value; the random draws those moves would have made
            # (``ROLLOUT_EPS``) are drawn all the same, so that the search's stream is that of
            # the played-out rollout.
            for _ in range(steps):
                rng.random()
            g.settled = value
        return ACTION[m]
    if g.n in RULE_ROLLOUTS and not rng.random() < ROLLOUT_EPS:
        return rule_rollout_policy(g, rng)
    return tournament_policy(g, rng)


def deal_over(g: SixtySix, start) -> bool:
    """The deal is over (one deal is one game, G14) or its rollout is settled (``settled``)."""
    return g.to_move is None or getattr(g, "settled", None) is not None


def tournament_policy(g: SixtySix, rng: random.Random) -> dict:
    """The fast rollout policy tuned for two players: a slightly random version of the rules.
    With 3-4 players the highest trump (the lowest card int of the suit) is kept for the last
    trick (G12) while another card may be played."""
    seat = g.to_move
    hand = g.hands[seat]
    tr = g.trump
    trick = g.trick
    if not trick:
        if g.trump_card is not None and hand >> C.make(C.NINE, tr) & 1:
            return ACTION[EXCHANGE_MOVE]
        pairs = hand & hand >> 1 & KINGS              # the kings whose queen is in hand
        if pairs:                                     # the trump marriage first
            su = tr if pairs & SUIT[tr] else SUIT_OF[(pairs & -pairs).bit_length() - 1]
            return ACTION[C.make(C.QUEEN, su) + MELD_FLAG]
        if g.n >= 3 and hand & (hand - 1):
            trumps = hand & SUIT[tr]
            hand &= ~(trumps & -trumps)
        cards = C.cards_of(hand)
        a = rng.choice(cards)
        b = rng.choice(cards)
        # tournament: the cheaper of two random cards (trumps count as dear)
        ka = VALUE[a] + (12 if SUIT_OF[a] == tr else 0)
        kb = VALUE[b] + (12 if SUIT_OF[b] == tr else 0)
        return ACTION[a if ka <= kb else b]
    playable = hand
    led_card = trick[0][1]
    led = SUIT_OF[led_card]
    if g.trump_card is None:
        f = hand & SUIT[led]
        if f:
            playable = f
    best = led_card
    value = VALUE[led_card]
    for i in range(1, len(trick)):
        c = trick[i][1]
        value += VALUE[c]
        if beats(c, best, tr, POWER):
            best = c
    sb = SUIT_OF[best]
    pb = POWER[best]
    if g.n >= 3 and playable & (playable - 1):
        trumps = playable & SUIT[tr]
        playable &= ~(trumps & -trumps)
    win_same = None
    win_trump = None
    cheap = None
    cheap_key = None
    for c in C.cards_of(playable):
        sc = SUIT_OF[c]
        if sc == sb and POWER[c] > pb:
            if win_same is None or VALUE[c] > VALUE[win_same]:
                win_same = c
        elif sc == tr and sb != tr:
            if win_trump is None or POWER[c] < POWER[win_trump]:
                win_trump = c
        key = (sc == tr) * 16 + VALUE[c]
        if cheap is None or key < cheap_key:
            cheap, cheap_key = c, key
    if win_same is not None and sb == led:
        c = win_same
    elif win_trump is not None and value >= 10:
        c = win_trump
    elif win_same is not None and rng.random() < 0.5:
        c = win_same
    else:
        c = cheap
    return ACTION[c]


# The searching seat (``searcher``, set on each sampled state by ``determinize``); in its
# rollouts it plays its last OWN_MAX cards after the stock is gone (G8: no more draws) by trying
# every line of its own against the others' level-2 rules, which then decide everything else.
OWN_MAX = {3: 3, 4: 3}


def _own_moves(g: SixtySix) -> list:
    """The seat's moves, the rules' one first (it often wins: then the others are skipped)."""
    moves = g._moves()
    if len(moves) > 1:
        r = _rule_rollout_move(g)
        moves.remove(r)
        moves.insert(0, r)
    return moves


# The own-line search's results: ``_own_node``'s answer per state, for one decision (cleared by
# ``search_values``).  A rollout meets the same states again after the first search of its own
# cards (the next own turn, when the others played as the search assumed).
_own_memo: dict = {}
OWN_MEMO_MAX = 20_000                 # entries (a decision makes a few thousand)


def _own_node(g: SixtySix, seat: int) -> tuple:
    """The own-line search at ``seat``'s turn: ``(value, best move, the others' moves to the
    end of the deal on the best line)``; the rules' move is tried first, the first best move
    is kept, and a won deal ends the search (the margin only breaks ties)."""
    moves = _own_moves(g)                  # first: it notes the voids shown (``_note_voids``)
    key = (seat, g.trump, g.exchanged, g.to_move, tuple(g.hands), tuple(g.trick),
           tuple(g.last_trick), tuple(g.points), tuple(g.captured), tuple(g.voids),
           tuple(g.marriages))
    found = _own_memo.get(key)
    if found is not None:
        return found
    best = bv = None
    bs = 0
    for m in moves:
        c = _copy(g)
        c._do(m)
        v, steps = _own_value(c, seat)
        if bv is None or v > bv:
            best, bv, bs = m, v, steps
            if v >= 1.0:                   # a won deal: enough (the margin only breaks ties)
                break
    if len(_own_memo) >= OWN_MEMO_MAX:     # a search that never passes ``search_values``
        _own_memo.clear()
    found = _own_memo[key] = (bv, best, bs)
    return found


def _own_value(g: SixtySix, seat: int) -> tuple:
    """``g`` (mutated) after ``seat``'s move: the others play the rules up to ``seat``'s next
    turn, which the own-line search values; ``(value, the others' moves to the end)``."""
    steps = 0
    while g.to_move is not None and g.to_move != seat:
        g._do(_rule_rollout_move(g))
        steps += 1
    if g.to_move is None:
        return evaluate(g, seat, None), steps
    value, _, more = _own_node(g, seat)
    return value, steps + more


def _copy(g: SixtySix) -> SixtySix:
    """``fast_clone`` for 66's search (the own-line search, and the generic search and solver
    through the ``clone`` hook): only the lists a move changes are copied (a play assigns
    ``last_trick``, never changes it; ``options`` is never changed)."""
    new = object.__new__(SixtySix)
    d = g.__dict__.copy()
    d["history"] = g.history[:]
    d["events"] = g.events[:]
    d["hands"] = g.hands[:]
    d["trick"] = g.trick[:]
    d["points"] = g.points[:]
    d["captured"] = g.captured[:]
    d["tricks_won"] = g.tricks_won[:]
    d["marriages"] = g.marriages[:]
    d["stock"] = g.stock[:]
    d["scores"] = g.scores[:]
    d["voids"] = g.voids[:]
    d["_cache"] = None
    new.__dict__ = d
    return new


class _StateKnowledge:
    """What seat ``seat`` of a full (sampled) state knows, for the level-2 rules in rollouts:
    the same fields as ``Knowledge``, read from the state instead of a view's log.  Voids are
    the ones the root view showed plus those shown in the rollout (``g.voids``, kept up to date
    by ``rule_rollout_policy``); cards known in a hand are shown marriage partners and the
    exchanged trump card."""

    __slots__ = ("n", "seat", "trump", "hand", "points", "voids", "trick", "exhausted",
                 "stock_down", "trump_card", "_g", "_seen", "_possible")

    def __init__(self, g: SixtySix, seat: int):
        self._g = g
        self.n = g.n
        self.seat = seat
        self.trump = g.trump
        self.hand = g.hands[seat]
        self.points = g.points
        self.voids = g.voids
        self.trick = g.trick
        tc = self.trump_card = g.trump_card
        self.exhausted = tc is None
        self.stock_down = len(g.stock)
        self._seen = None                    # (played, known, unseen), when first asked for

    def _see(self) -> tuple:
        """The cards played, the cards known in each hand and the unseen ones; read from the
        state only when a rule asks (many moves need none of them)."""
        if self._seen is not None:
            return self._seen
        g = self._g
        played = 0
        for m in g.captured:
            played |= m
        for _, c in g.trick:
            played |= 1 << c
        known = [0] * self.n
        for s, su, _ in g.marriages:
            known[s] |= (SUIT[su] & MARRIAGE_KQ) & g.hands[s]
        if g.exchanged is not None:
            s, c = g.exchanged
            known[s] |= (1 << c) & g.hands[s]
        known[self.seat] = self.hand
        seen = self.hand | played
        for m in known:
            seen |= m
        if self.trump_card is not None:
            seen |= 1 << self.trump_card
        self._possible = [None] * self.n
        self._seen = (played, known, DECK_MASK & ~seen)
        return self._seen

    @property
    def played(self) -> int:
        return self._see()[0]

    @property
    def known(self) -> list:
        return self._see()[1]

    @property
    def unseen(self) -> int:
        return self._see()[2]

    def possible(self, s: int) -> int:
        """``Knowledge.possible``, computed once per seat (the state does not change while
        one move is chosen)."""
        _, known, unseen = self._see()
        p = self._possible[s]
        if p is None:
            p = self._possible[s] = possible_cards(self.seat, s, self.hand, unseen, self.voids,
                                                   known)
        return p


MARRIAGE_KQ = C.mask_of(c for c in C.deck(("K", "Q")))


def rule_rollout_policy(g: SixtySix, rng: random.Random) -> dict:
    """Rollouts with 3-4 players: every seat plays the level-2 rules (``rule_move``) from what it
    knows in the sampled state; with probability ``ROLLOUT_EPS`` a seat plays the old
    tournament policy instead (some variety between samples)."""
    return ACTION[_rule_rollout_move(g)]


def _rule_rollout_move(g: SixtySix) -> int:
    """``rule_rollout_policy``'s move as an int move (``games.sixty_six``)."""
    if g.trump_card is None:
        _note_voids(g)
    seat = g.to_move
    k = _StateKnowledge(g, seat)
    hand = k.hand
    if not g.trick:
        exchange = g.trump_card is not None and hand >> C.make(C.NINE, g.trump) & 1
        melds = C.cards_of(_marriage_parts(hand))
        cards = C.cards_of(hand)
    else:
        exchange = False
        melds = ()
        cards = hand
        if g.trump_card is None:
            f = hand & SUIT[SUIT_OF[g.trick[0][1]]]
            if f:
                cards = f
        cards = C.cards_of(cards)
    return rule_move(k, exchange, melds, cards)


def _note_voids(g: SixtySix) -> None:
    """Add the voids shown (G8) in the current trick, and in the last one when it was played
    after the stock was gone (the leader's hand is then short of a full one), to ``g.voids``."""
    trick = g.trick
    if not trick:
        if g.to_move is None or g.hands[g.to_move].bit_count() >= HAND_SIZE[g.n]:
            return
        trick = g.last_trick
    if len(trick) > 1:
        voids = g.voids
        led = SUIT_OF[trick[0][1]]
        for i in range(1, len(trick)):
            s, c = trick[i]
            if SUIT_OF[c] != led:
                voids[s] |= 1 << led


ROLLOUT_EPS = 0.0
# Player counts whose rollouts play the rules: with 3 players they modelled the others better
# (card-point margin +11.2 against +8.1, same win share, 150 deals); with 4 the deal is mostly
# luck (a search that sees every hand wins only 1.5x the fair share) and they cost twice the
# time for no gain (1.47x against 1.54x), so 4 players keep the tournament policy.
RULE_ROLLOUTS = (3,)


clone = _copy                  # the plug-in hook: how the generic search and solver copy states


# --- search -------------------------------------------------------------------------------------

def search_values(view, legal, rng, budget, stats, level):
    """The generic search (``bots.search``); with 3-4 players it takes the rollouts of that
    player count (``rollouts_3``, ...)."""
    n = view["players"]
    _own_memo.clear()
    if n >= 3:
        budget = dict(budget, rollouts=budget.get(f"rollouts_{n}", budget["rollouts"]))
    return search(sys.modules[__name__], view, legal, rng, budget, stats)


# --- evaluation and endgame --------------------------------------------------------------------

def evaluate(g: SixtySix, seat: int, start) -> float:
    """1 for a won deal, 0 for a lost one, plus a small tie-break for the card-point margin; a
    settled rollout's value (``rollout_policy``) as it was found."""
    settled = getattr(g, "settled", None)
    if settled is not None:
        return settled
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
