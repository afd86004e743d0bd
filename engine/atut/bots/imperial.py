"""Bot plug-in for imperial; see ``bots/interface.py`` for the interface.  Rule numbers (G9 ...)
are those of ``docs/rules/imperial.md``.

What a seat knows (G9, docs/rules/imperial.md): its hand, trump and the trump card (2 players:
turned beside the pack, in nobody's hand; 3 players: the dealer's shown card, in his hand until
he plays it), every declaration (G9: the cards of each scored imperial and every honour held,
the ``revealed`` cards of the view), every card played (the view's ``log``) and so every void
shown by failing to follow (G13: a player who plays off the led suit has none of it, and one
who then plays neither the led suit nor a trump has no trump either).  The declarations also
bound the hidden cards (``Declared``): every honour of a hand was shown (G11), so with 2 players
an honour nobody showed is among the unused cards; each hand's best suit has the declared length
and value (G10); a hand beaten in the imperials holds fewer units than the top, and with no
imperials declared no hand holds one (G8).  Unknown: the rest of the other hands and, with 2
players, the 7 unused cards.

The only decision is which card to play.  Points in the play come from leading trump honours
(G14, +4 each) and from taking 7 or more tricks (G15); card values play no part, so a trick is
worth only its count and the lead it gives.

Search (levels 3 and 4, ``search_values``): early in the play, the generic determinized search
with ``rollout_policy`` play-outs, step for step as ``bots.search.search`` but with the
play-outs on compact masks (``pimc``, ``_playout``) and the view read once per decision
(``Sampler``); once the seat holds at most ``solve_cards`` cards (2 players: 8 at levels 3 and
4; 3 players: 7 and 8), every sampled deal is solved exactly with open hands (``Endgame``, on
bit masks with a transposition table; a counted budget of nodes per decision, ``solve_total``,
sized so that the time cap never cuts it): level 4 with 2 players by alpha-beta,
level 3 and every level with 3 players (``solve_model``) as the best reply to the others
playing the rules' ``rollout_policy``.  Measured level 4 against level 3 (2 players, seed 1,
200 deals): 0.506 [0.497, 0.516] with alpha-beta, 0.495 [0.486, 0.504] with the best reply.
Both score a deal as the arena does: won/shared/lost (the seat that gained most in the deal,
declarations included) times ``DEAL_WIN_SOLVE``, plus the gain over the best other seat as a
tie-break.  With 3 players the rollout phase uses ``rollouts_3p`` (a third hand to play out).

Measured ceiling (2026-11-29, arena deal mode, 200 duplicate deals, seed 1): a bot that
cheats (sees every hand and solves the whole play exactly) wins 0.539 of the deals against
level 2 with 2 players (0.540 as the best reply to the rules' play); with 3 players, as the
best reply to the rules' play, 0.363 (1.09 x fair).  Even for it 177 of the 200 two-player
deals end at 0.5 (the same seat wins whichever bot holds it): the declarations (G5-G11) decide
most deals, the play's points (G14, G15) are few.
"""

from __future__ import annotations

import random
import sys

from .. import cards as C
from ..game import canonical
from ..games.imperial import BONUS as BONUS_PTS
from ..games.imperial import DECK_MASK, HONOURS, POWER, VALUE, Imperial, find_imperials
from ..games.imperial import TARGET as TARGET_PTS
from ..tricks import beats, winning
from . import knowledge
from .catalogue import timer
from .sampling import sample_cards
from .search import check_determinization, note_search, search

SUIT = C.SUIT_MASK
BUDGETS = {
    3: {"rollouts": 240, "rollouts_3p": 170, "min_samples": 10, "solve_cards": 8,
        "solve_cards_3p": 7, "solve_samples": 16, "solve_nodes": 20000, "solve_total": 32000,
        "solve_model": 1},
    4: {"rollouts": 800, "rollouts_3p": 560, "min_samples": 24, "solve_cards": 8,
        "solve_cards_3p": 8, "solve_samples": 24, "solve_nodes": 60000, "solve_total": 110000,
        "solve_model": 0},
}
EPSILON = 0.0                    # share of random moves in rollouts
WIN_VALUE = 60.0                 # a won (lost) game is worth this many points of margin
LATER_LEAD = 0.5                 # share of a later honour lead's 4 points the search believes
LEAD_SURE_FIRST = False          # level 2: sure plain winners before honours that may lose
FOLLOW_GREEDY = 3                # level 2: not last, no safe winner: try the highest winner
LEAD_BOSS = 1                    # level 2: lead a plain boss card with this many unseen in suit
DISCARD_SHORT = False            # level 2: discard from the shortest plain suit
LEAD_DRAW = 1                    # level 2: lead trumps (this many or more) against honours
DRAW_HIGH = True
HONOUR_WIN = 0                   # level 2: win last with an honour when holding this many
LEAD_SHORT = False               # level 2: lead low from the shortest plain suit
LEAD_HIGH = True                 # level 2: lead high from the longest plain suit
ROLL_DRAW = True                 # rollouts: lead trumps against the others' honours
DEAL_WIN = 50.0                  # added for gaining more than every other seat in the deal
SPEND = 0.05                     # tie-break: the value of keeping honours, trumps, high cards


class Sim(Imperial):
    """The game as the search plays it: it also notes (seat, ply) of every honour lead, across
    deals, so that ``evaluate`` can tell the root action's lead from later ones, and what the
    root action (ply 0) gave away."""

    STATE_FIELDS = Imperial.STATE_FIELDS + ("sim_ply", "sim_leads", "sim_spent")

    def _apply(self, a):
        c = C.CARD[a["card"]]
        hon = HONOURS[(self.n, self.trump)]
        if not self.trick and hon >> c & 1:
            self.sim_leads = self.sim_leads + [(self.to_move, self.sim_ply)]
        if self.sim_ply == 0:
            # what the root action gives away: honours, then trumps, then high cards
            self.sim_spent = (hon >> c & 1) + 0.5 * (C.suit_of(c) == self.trump) + POWER[c] / 20
        self.sim_ply += 1
        super()._apply(a)

    def _deal(self, deck=None):
        """The search stops at the end of the deal: the next one is not dealt (its cards and
        declarations are luck), only its number and score-sheet row are opened."""
        self.deal_no += 1
        self.sheet.append([0] * self.n)
        self.phase = "over"
        self.to_move = None

    def shuffled(self):
        return None


# --- what the seat knows -------------------------------------------------------------------

class Knowledge(knowledge.Knowledge):
    """Everything ``view`` tells its seat about the current deal (``bots.knowledge``): a seat
    that plays neither the led suit nor trump shows a void in both (G13); ``known`` holds the
    declared cards (G9); ``taken`` is ``captured``."""

    def deck_of(self, view: dict) -> int:
        return DECK_MASK[self.n]

    def read_view(self, view: dict) -> None:
        self.trump = C.SUITS.index(view["trump"])
        self.trump_card = C.card(view["trump_card"])
        self.honours = HONOURS[(self.n, self.trump)]
        self.taken = self.captured
        if self.n == 2:
            self.seen_aside = 1 << self.trump_card      # beside the pack, in nobody's hand

    def play(self, s: int, c: int, a: dict, trick: list) -> None:
        if self.shows_void(s, c, trick) and C.SUIT_OF[c] != self.trump:   # G13: no led suit
            self.voids[s] |= 1 << self.trump                              # G13: and no trump

    def read_rest(self, view: dict) -> None:
        for s, cs in enumerate(view["revealed"]):     # G9: declared (not yet played)
            self.known[s] = C.mask_of(C.card(x) for x in cs)
        self.counts = [x["cards"] for x in view["seats"]]
        self.unused = 0
        for p in view.get("piles") or []:
            if p.get("id") == "unused":
                self.unused = p["count"]

    def honours_codes(self) -> list[str]:
        """The trump honours (G4) as card codes."""
        return C.codes(C.cards_of(self.honours))


# --- determinization ---------------------------------------------------------------------------

# (length, value) of one suit's 11-bit pattern as one int, length * 100 + value (G10)
_SUIT_KEY = []
for _m in range(1 << 9):
    _cs = [r for r in range(9) if _m >> r & 1]
    _SUIT_KEY.append(len(_cs) * 100 + sum(VALUE[r] for r in _cs))   # card r of suit 0 is int r
REPAIR_STEPS = 1000              # card swaps per sample to meet the declarations (G9)


def _best_key(hand: int) -> int:
    """G10's best suit of a hand as length * 100 + value (``best_suit`` as one int)."""
    return max(_SUIT_KEY[hand & 511], _SUIT_KEY[hand >> 11 & 511],
               _SUIT_KEY[hand >> 22 & 511], _SUIT_KEY[hand >> 33 & 511])


class Declared:
    """What the declarations (G9) say about each seat's hand at the start of the deal beyond
    the cards they showed: its best suit (G10: length and value total; so no longer suit, and
    no better one of that length), how many imperial units it holds (G8: none when nobody
    scored; fewer than the top when beaten; exactly the declared ones when it scored) and its
    trump honours (G11: all of them are shown, so an honour not shown is not in its hand)."""

    def __init__(self, view: dict, n: int, trump: int, trump_card: int):
        self.best = {}
        self.units = {}                          # seat -> declared units (scored seats)
        self.beaten = set()
        self.none = False
        self.honours_shown = set()
        for x in view["summary"]:
            key = x["key"]
            if key == "best_suit":
                self.best[x["seat"]] = x["length"] * 100 + x["value"]
            elif key == "no_imperials":
                self.none = True
            elif key == "imperial":
                self.units[x["seat"]] = self.units.get(x["seat"], 0) + x["units"]
            elif key == "imperials_beaten":
                self.beaten.update(x["seats"])
            elif key in ("honours", "no_honours"):
                self.honours_shown.add(x["seat"])
        self.top = max(self.units.values()) if self.units else 0
        self.n = n
        self.trump = trump
        self.extra = {view["dealer"]: 1 << trump_card} if n == 2 else {}
        self._memo: dict[int, int] = {}

    def violation(self, s: int, hand: int) -> int:
        """How far a start hand of seat ``s`` is from its declarations (0: consistent)."""
        key = hand << 2 | s
        v = self._memo.get(key)
        if v is None:
            v = self._memo[key] = self._violation(s, hand)
        return v

    def _violation(self, s: int, hand: int) -> int:
        v = 0
        b = self.best.get(s)
        if b is not None:
            got = _best_key(hand)
            if got != b:
                v += 1 + 3 * abs(got // 100 - b // 100)
        if self.none or s in self.beaten or s in self.units:
            u = 0
            for _k, _m, x in find_imperials(hand, self.n, self.trump, self.extra.get(s, 0)):
                u += x
            if self.none:
                v += 4 * u
            elif s in self.beaten:
                v += 4 * max(0, u - self.top + 1)
            else:
                v += 4 * abs(u - self.units[s])
        return v


class Sampler:
    """``determinize`` in two steps: what the view tells (``Knowledge``, ``Declared``, the size
    of every hidden place and the cards it may take), read once per decision, and ``deal``, one
    sample of the hidden cards.  ``game`` makes the sample a full state."""

    def __init__(self, view: dict):
        self.view = view
        k = self.k = Knowledge(view)
        n, me = k.n, k.seat
        dec = self.dec = Declared(view, n, k.trump, k.trump_card)
        sizes = self.sizes = {}
        allowed = self.allowed = {}
        for s in range(n):
            if s == me:
                continue
            sizes[s] = k.counts[s] - C.count(k.known[s])
            m = DECK_MASK[n]
            for su in range(4):
                if k.voids[s] >> su & 1:
                    m &= ~SUIT[su]
            if s in dec.honours_shown:
                m &= ~k.honours                  # G9, G11: its honours were all shown
            allowed[s] = m
        if n == 2:
            sizes["unused"] = k.unused
        self.unseen = C.cards_of(k.unseen)

    def deal(self, rng: random.Random) -> dict:
        """The hidden cards dealt at random (``{seat or "unused": mask}``), as ``determinize``
        deals them (the same draws from ``rng``)."""
        deal = sample_cards(self.unseen, self.sizes, self.allowed, rng)
        if REPAIR_STEPS:
            _repair(deal, self.k, self.dec, self.allowed, rng)
        return deal

    def hands(self, deal: dict) -> list[int]:
        k = self.k
        return [k.hand if s == k.seat else deal[s] | k.known[s] for s in range(k.n)]

    def game(self, deal: dict, rng: random.Random) -> Sim:
        """The full state of a ``deal``; one draw from ``rng`` (``Game.sampled``)."""
        view, k = self.view, self.k
        n = k.n
        hands = self.hands(deal)
        lt = view.get("last_trick")
        return Sim.sampled(
            view, rng,
            sim_ply=0,
            sim_leads=[],
            sim_spent=0.0,
            hands=hands,
            trump_card=k.trump_card,
            trump=k.trump,
            unused=deal.get("unused", 0),
            start_hands=[hands[s] | k.played_by[s] for s in range(n)],
            revealed=[C.mask_of(C.card(x) for x in cs) for cs in view["revealed"]],
            taken=list(k.taken),
            tricks_won=list(k.tricks_won),
            trick=list(k.trick),
            last_trick=[(x["seat"], C.card(x["card"])) for x in lt["cards"]] if lt else [],
            last_winner=lt["winner"] if lt else None,
            leader=view["leader"],
            deal_points=list(view["deal_points"]),
            sheet=[list(r[1:]) for r in view["score_sheet"]["rows"][:-1]],   # not the totals
            summary=[],
            prev_deal=[])


def determinize(view: dict, rng: random.Random) -> Imperial:
    sampler = Sampler(view)
    return sampler.game(sampler.deal(rng), rng)


def determinizer(view: dict):
    """``determinize`` for many samples of one view (the expert's tree): the view read once,
    and the declarations' memo of hand violations kept from one sample to the next."""
    sampler = Sampler(view)
    return lambda rng: sampler.game(sampler.deal(rng), rng)


def _pick(seq, getrandbits):
    """``rng.choice(seq)`` with ``getrandbits = rng.getrandbits``: the very same draws
    (``Random._randbelow``), without two calls per pick."""
    n = len(seq)
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return seq[r]


def _repair(deal: dict, k: Knowledge, dec: Declared, allowed: dict, rng) -> None:
    """Swap hidden cards between the places (other hands, 2p's unused cards) until every
    hand's start (held + played + shown) meets its declarations, or ``REPAIR_STEPS`` swaps
    were tried; a swap is kept when it does not make the hands less consistent."""
    fixed = {s: k.played_by[s] | k.known[s] for s in deal if s != "unused"}
    viol = {s: dec.violation(s, deal[s] | fixed[s]) for s in fixed}
    if not sum(viol.values()):
        return
    # a swap keeps every place's size: the places holding cards stay the same
    others = [x for x in deal if deal[x]]
    cards = {x: C.cards_of(deal[x]) for x in others}
    bad = [s for s in fixed if viol[s] and deal[s]]
    if len(others) < 2:
        return
    full = -1
    getrandbits = rng.getrandbits
    violation = dec.violation
    for _ in range(REPAIR_STEPS):
        if not bad:
            return
        p = _pick(bad, getrandbits)
        q = _pick(others, getrandbits)
        if q == p:
            continue
        a = _pick(cards[p], getrandbits)
        b = _pick(cards[q], getrandbits)
        if not (allowed.get(q, full) >> a & 1 and allowed.get(p, full) >> b & 1):
            continue
        hp = deal[p] & ~(1 << a) | 1 << b
        hq = deal[q] & ~(1 << b) | 1 << a
        vp = violation(p, hp | fixed[p])
        vq = violation(q, hq | fixed[q]) if q in fixed else 0
        if vp + vq <= viol[p] + viol.get(q, 0):
            deal[p], deal[q] = hp, hq
            cards[p] = C.cards_of(hp)
            cards[q] = C.cards_of(hq)
            viol[p] = vp
            if q in fixed:
                viol[q] = vq
            bad = [s for s in fixed if viol[s] and deal[s]]


# --- card judgement -------------------------------------------------------------------------

def _sure_winner(k: Knowledge, c: int) -> bool:
    """No card the others may hold takes ``c`` when it is led now."""
    su = C.suit_of(c)
    higher = 0
    for x in C.cards_of(k.unseen & SUIT[su]):
        if POWER[x] > POWER[c]:
            higher |= 1 << x
    for s in range(k.n):
        if s == k.seat:
            continue
        poss = k.possible(s)
        if poss & higher:
            return False
        if su != k.trump and poss & SUIT[k.trump] and not (k.voids[s] >> k.trump & 1):
            # he may trump it if he may be void in the suit: only known cards prove he is not
            if not (k.known[s] & SUIT[su]):
                return False
    return True


def _boss(k: Knowledge, c: int) -> bool:
    """No card another seat may hold is higher in ``c``'s suit."""
    su = C.suit_of(c)
    for s in range(k.n):
        if s != k.seat:
            for x in C.cards_of(k.possible(s) & SUIT[su]):
                if POWER[x] > POWER[c]:
                    return False
    return True


def _cheap_key(c: int, k) -> tuple:
    """Order of the cards to throw away: not an honour, not a trump, low first."""
    return ((k.honours >> c) & 1, C.suit_of(c) == k.trump, POWER[c])


# --- level 2: rules ---------------------------------------------------------------------------

def rule_policy(view: dict, rng: random.Random) -> dict:
    legal = view["legal_actions"]
    k = Knowledge(view)
    cards = [C.card(a["card"]) for a in legal]
    if not k.trick:
        c = _rule_lead(k, cards, rng)
    else:
        c = _rule_follow(k, cards)
    return {"type": "play", "card": C.code(c)}


def _rule_lead(k: Knowledge, cards: list[int], rng) -> int:
    tr = k.trump
    honours = [c for c in cards if k.honours >> c & 1]
    if honours:
        # G14: every trump honour led is +4.  Lead first the one that also wins the trick (it
        # keeps the lead for the next honour), else the highest: an honour kept in hand may
        # have to be spent following or trumping later, for nothing.
        sure = [c for c in honours if _sure_winner(k, c)]
        if sure or not LEAD_SURE_FIRST:
            return max(sure or honours, key=lambda c: POWER[c])
        plain_sure = [c for c in cards if _sure_winner(k, c)]
        if plain_sure:
            return max(plain_sure, key=lambda c: (C.suit_of(c) != tr, POWER[c]))
        return max(honours, key=lambda c: POWER[c])
    sure = [c for c in cards if _sure_winner(k, c)]
    if sure:
        # a trick that is ours anyway: take it now, plain suits before trumps
        return max(sure, key=lambda c: (C.suit_of(c) != tr, POWER[c]))
    if LEAD_DRAW:
        theirs = 0
        for s in range(k.n):
            if s != k.seat:
                theirs |= k.known[s] & k.honours
        mine = [c for c in cards if C.suit_of(c) == tr]
        if theirs and len(mine) >= LEAD_DRAW:
            # draw their trumps: an honour played to follow scores nothing (G14)
            return (max if DRAW_HIGH else min)(mine, key=lambda c: POWER[c])
    if LEAD_BOSS:
        boss = [c for c in cards if C.suit_of(c) != tr and _boss(k, c)
                and C.count(k.unseen & SUIT[C.suit_of(c)]) >= LEAD_BOSS]
        if boss:
            return max(boss, key=lambda c: (C.count(k.unseen & SUIT[C.suit_of(c)]), POWER[c]))
    plain = [c for c in cards if C.suit_of(c) != tr]
    if plain:
        # lead low from the longest plain suit: it draws the others' trumps sooner or later
        def key(c):
            su = C.suit_of(c)
            ln = C.count(k.hand & SUIT[su])
            return (-ln if LEAD_SHORT else ln, POWER[c] if LEAD_HIGH else -POWER[c],
                    rng.random())
        return max(plain, key=key)
    return min(cards, key=lambda c: POWER[c])


def _rule_follow(k: Knowledge, cards: list[int]) -> int:
    tr = k.trump
    best = winning(k.trick, tr, POWER)[1]
    last = len(k.trick) == k.n - 1
    wins = [c for c in cards if beats(c, best, tr, POWER)]
    plain_wins = [c for c in wins if not (k.honours >> c & 1)]
    if wins and last:
        # take the trick as cheaply as possible: the lead lets us lead our honours
        pool = plain_wins or (wins if _worth_an_honour(k) else [])
        if pool:
            return min(pool, key=lambda c: (C.suit_of(c) == tr, POWER[c]))
    elif wins:
        # not last: win only with a card the player(s) after us cannot beat
        safe = [c for c in wins if _safe_after(k, c)]
        pool = [c for c in safe if not (k.honours >> c & 1)] or \
            [c for c in safe if POWER[c] == max(POWER[x] for x in safe)]
        if pool:
            return min(pool, key=lambda c: (C.suit_of(c) == tr, POWER[c]))
        if FOLLOW_GREEDY and (FOLLOW_GREEDY > 1 or k.hand & k.honours):
            pw = [c for c in plain_wins if C.suit_of(c) == C.suit_of(k.trick[0][1])
                  or FOLLOW_GREEDY > 2]
            if pw:
                return max(pw, key=lambda c: POWER[c])
    if DISCARD_SHORT:
        led = C.suit_of(k.trick[0][1])
        if not k.hand & SUIT[led] and not k.hand & SUIT[tr]:
            # a free discard: from the shortest plain suit, to be void in it sooner (G13)
            return min(cards, key=lambda c: ((k.honours >> c) & 1, C.suit_of(c) == tr,
                                             C.count(k.hand & SUIT[C.suit_of(c)]), POWER[c]))
    return min(cards, key=lambda c: _cheap_key(c, k))


def _worth_an_honour(k: Knowledge) -> bool:
    """Spend an honour (not led, so worth nothing) to win: only for the 7th trick with 2."""
    if HONOUR_WIN and C.count(k.hand & k.honours) >= HONOUR_WIN:
        return True
    return k.n == 2 and k.tricks_won[k.seat] == 6


def _safe_after(k: Knowledge, c: int) -> bool:
    """No seat still to play in this trick may beat ``c`` (a rough, cautious test)."""
    led = C.suit_of(k.trick[0][1])
    played = {s for s, _ in k.trick}
    for s in range(k.n):
        if s == k.seat or s in played:
            continue
        poss = k.possible(s)
        if C.suit_of(c) == led:
            if any(POWER[x] > POWER[c] for x in C.cards_of(poss & SUIT[led])):
                return False
            if led != k.trump and poss & SUIT[k.trump] and not (k.known[s] & SUIT[led]):
                return False
        else:                                               # we trumped
            if any(POWER[x] > POWER[c] for x in C.cards_of(poss & SUIT[k.trump])) and \
                    not (k.known[s] & SUIT[led]):
                return False
    return True


# --- rollouts: a fast, slightly random version of the rules on a full state -------------------

def rollout_policy(g: Imperial, rng: random.Random) -> dict:
    """The level-2 rules on a full state (each player judged against the others' actual
    hands, which is cheap); deterministic, so that in one determinization the actions are
    compared on the same continuation (the sample is the only noise)."""
    seat = g.to_move
    hand = g.hands[seat]
    tr = g.trump
    hon = HONOURS[(g.n, tr)]
    others = 0
    for s in range(g.n):
        if s != seat:
            others |= g.hands[s]
    if EPSILON and rng.random() < EPSILON:
        return rng.choice(g._legal())
    if not g.trick:
        h = hand & hon
        if h:                                               # G14: lead the honours
            c = max(C.cards_of(h), key=POWER.__getitem__)
            return {"type": "play", "card": C.CODES[c]}
        best = None
        for c in C.cards_of(hand):
            su = C.suit_of(c)
            o = others & SUIT[su]
            if any(POWER[x] > POWER[c] for x in C.cards_of(o)):
                continue
            if su != tr and others & SUIT[tr] and not _all_follow(g, seat, su):
                continue
            if best is None or POWER[c] > POWER[best]:
                best = c
        if best is None and ROLL_DRAW and hand & SUIT[tr] and others & hon:
            # draw the others' trumps: an honour that follows scores nothing (G14)
            best = max(C.cards_of(hand & SUIT[tr]), key=POWER.__getitem__)
        if best is None:
            plain = hand & ~SUIT[tr] or hand
            best = max(C.cards_of(plain),
                       key=lambda c: (C.count(hand & SUIT[C.suit_of(c)]), -POWER[c]))
        return {"type": "play", "card": C.CODES[best]}
    led = C.suit_of(g.trick[0][1])
    playable = hand & SUIT[led] or hand & SUIT[tr] or hand
    best = g.trick[0][1]
    for _, c in g.trick[1:]:
        if beats(c, best, tr, POWER):
            best = c
    last = len(g.trick) == g.n - 1
    win = None
    cheap = None
    for c in C.cards_of(playable):
        if beats(c, best, tr, POWER) and not (hon >> c & 1):
            if last or _holds_after(g, seat, c, led):
                if win is None or (C.suit_of(c) == tr, POWER[c]) < (C.suit_of(win) == tr,
                                                                    POWER[win]):
                    win = c
        key = (hon >> c & 1, C.suit_of(c) == tr, POWER[c])
        if cheap is None or key < cheap[0]:
            cheap = (key, c)
    c = win if win is not None else cheap[1]
    return {"type": "play", "card": C.CODES[c]}


def _all_follow(g, seat, su) -> bool:
    for s in range(g.n):
        if s != seat and not g.hands[s] & SUIT[su]:
            return False
    return True


def _holds_after(g, seat, c, led) -> bool:
    """Nobody still to play in this trick can beat ``c`` with the cards he really holds."""
    played = {s for s, _ in g.trick}
    tr = g.trump
    for s in range(g.n):
        if s == seat or s in played:
            continue
        h = g.hands[s]
        f = h & SUIT[led]
        cand = f if f else (h & SUIT[tr])
        for x in C.cards_of(cand):
            if beats(x, c, tr, POWER):
                return False
    return True


# --- evaluation -------------------------------------------------------------------------------

def evaluate(g: Imperial, seat: int, start) -> float:
    """The points ``seat`` gained in the deal of ``start`` minus the others' mean; a game won or
    lost in that deal counts ``WIN_VALUE``.  The next deal's declarations (dealt at once when a
    deal ends) are luck, not play, and left out.

    A rollout leads the seat's honours later as if it knew every hand, and so it overrates
    keeping them: an honour led now is a sure +4 (G14), one kept may have to follow a trump lead
    for nothing.  Later honour leads of ``seat`` count only ``LATER_LEAD`` of their points."""
    if g.winner is not None and g.deal_no == start.deal_no:
        return WIN_VALUE if g.winner == seat else -WIN_VALUE
    row = g.sheet[start.deal_no - 1] if len(g.sheet) >= start.deal_no else g.deal_points
    others = [row[s] for s in range(g.n) if s != seat]
    value = row[seat] - sum(others) / len(others)
    if DEAL_WIN:
        lead = row[seat] - max(others)
        value += DEAL_WIN * ((lead > 0) - (lead < 0))
    root = getattr(start, "sim_ply", None)
    if root is not None:
        later = sum(1 for s, ply in g.sim_leads if s == seat and ply > root)
        value -= later * 4 * (1 - LATER_LEAD)
        if root == 0 and start.to_move == seat:
            # equal outcomes with open cards: keep what may matter when they are not open
            value -= SPEND * g.sim_spent
    return value


# --- exact open-card trick play (levels 3 and 4) --------------------------------------------
#
# On masks of their own: card ``suit * 9 + POWER - 1`` (9 bits a suit, a higher bit a higher
# card in this game's order, G13), so the highest card of a suit is its top bit.

INF = float("inf")
SM9 = [511 << (9 * s) for s in range(4)]
DEAL_WIN_SOLVE = 50.0            # solver and rollouts: a deal won (lost) is worth this (+/-)
_TO9 = {}
_FROM9 = {}
for _c in range(44):
    if POWER[_c]:
        _TO9[_c] = C.SUIT_OF[_c] * 9 + POWER[_c] - 1
        _FROM9[_TO9[_c]] = _c


def to9(mask: int) -> int:
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << _TO9[low.bit_length() - 1]
        mask ^= low
    return out


class SolveLimit(Exception):
    pass


class Endgame:
    """Alpha-beta with a transposition table over the rest of the deal's trick play with every
    hand open.  ``root`` maximises, every other seat minimises (exact with 2 players; with 3 the
    others are taken as allies, a cautious "paranoid" search).  The value of a finished deal is
    the arena's measure: ``DEAL_WIN_SOLVE`` x (+1 won, 0 shared, -1 lost; the seat that gained
    most in the deal wins) plus the root's gain minus the best other gain as a tie-break.  Only
    the play scores here: +4 for each trump honour led (G14, a follower's honour scores
    nothing) and the trick bonus (G15: 7-11 tricks +4, all 12 +8)."""

    def __init__(self, n: int, trump: int, root: int, max_nodes: int = 0,
                 deadline=None, clock=None):
        self.n = n
        self.tr = trump
        self.trm = SM9[trump]
        self.hon = to9(HONOURS[(n, trump)])
        self.root = root
        self.tt = {}
        self.nodes = 0
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.clock = clock

    def terminal(self, pts, tricks) -> float:
        n = self.n
        p = list(pts)
        for s in range(n):
            t = tricks[s]
            if t > 6:                                         # G15
                p[s] += 2 * 4 if t == 12 else 4
        me = p[self.root]
        others = [p[s] for s in range(n) if s != self.root]
        bo = max(others)
        if me > bo:
            w = 1.0
        elif me == bo:
            w = 2.0 / (1 + others.count(bo)) - 1.0            # shared: 2 seats 0, 3 seats -1/3
        else:
            w = -1.0
        return DEAL_WIN_SOLVE * w + (me - bo)

    def moves(self, h, rem, pos, best, led=-1):
        """Legal cards (G13) of hand ``h`` (``led``: the suit led, -1 to lead), one of each run
        of equivalent cards (adjacent among the cards still out, in one hand, both honours or
        neither), likely best first: to lead, honours then high cards; to follow, the cheapest
        card that takes the trick so far (``best``), then the cheapest others."""
        hon = self.hon
        tr = self.tr
        keyed = []
        m = h if led < 0 else h & SM9[led] or h & self.trm or h
        bs = best // 9
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            higher = rem & SM9[c // 9] & ~((low << 1) - 1)
            if higher:
                nh = higher & -higher
                if h & nh and (not hon & nh) == (not hon & low):
                    continue
            # the sort key times 64 plus the card: ties keep the cards' order (a stable sort)
            if not pos:
                k = (1 - (hon >> c & 1)) * 16 + 8 - c % 9
            else:
                cs = c // 9
                if (c > best) if cs == bs else cs == tr:
                    k = c % 9
                else:
                    k = 10 + c % 9 + 10 * (cs == tr) + 20 * (hon >> c & 1)
            keyed.append(k << 6 | c)
        keyed.sort()
        return [x & 63 for x in keyed]

    def _legal(self, h, led):
        """The cards of ``h`` that may be played (G13), ``led`` the suit led or -1 to lead."""
        if led < 0:
            return h
        return h & SM9[led] or h & self.trm or h

    def _tick(self):
        """Count a node; ``SolveLimit`` past the node cap or (checked every 256 nodes) the
        deadline."""
        n = self.nodes = self.nodes + 1
        if self.max_nodes and n > self.max_nodes:
            raise SolveLimit
        if self.deadline is not None and not n & 255 and self.clock() > self.deadline:
            raise SolveLimit

    def _in_play(self, hands, played):
        """(cards still in play, the best card of the trick so far and its index in
        ``played``, the suit led or -1) for the seat to move (G13)."""
        tr = self.tr
        rem = 0
        for x in hands:
            rem |= x
        if not played:
            return rem, 0, 0, -1
        best = played[0]
        bi = 0
        for i, c in enumerate(played):
            rem |= 1 << c
            if (c > best) if c // 9 == best // 9 else c // 9 == tr:
                best = c
                bi = i
        return rem, best, bi, played[0] // 9

    def last(self, hands, leader, pts, tricks) -> float:
        """The value once every hand holds one card: the last trick plays itself (G13, G14)."""
        n = self.n
        tr = self.tr
        best = hands[leader].bit_length() - 1
        w = leader
        if self.hon >> best & 1:                              # G14: an honour led scores 4
            pts = list(pts)
            pts[leader] += 4
        for i in range(1, n):
            s = (leader + i) % n
            c = hands[s].bit_length() - 1
            if (c > best) if c // 9 == best // 9 else c // 9 == tr:
                best = c
                w = s
        t = list(tricks)
        t[w] += 1
        return self.terminal(pts, t)

    def search(self, hands, leader, pts, tricks, alpha, beta) -> float:
        h = hands[leader]
        if not h & (h - 1):
            return self.last(hands, leader, pts, tricks) if h else self.terminal(pts, tricks)
        key = (hands, leader, pts, tricks)
        e = self.tt.get(key)
        a0, b0 = alpha, beta
        if e is not None:
            lo, hi = e
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        rem = 0
        for x in hands:
            rem |= x
        v = self._trick(hands, leader, pts, tricks, (), rem, 0, 0, -1, alpha, beta)
        lo, hi = e if e is not None else (-INF, INF)
        if v <= a0:
            hi = min(hi, v)
        elif v >= b0:
            lo = max(lo, v)
        else:
            lo = hi = v
        self.tt[key] = (lo, hi)
        return v

    def trick(self, hands, leader, pts, tricks, played, alpha, beta) -> float:
        """The value of the position with ``played`` cards in the trick led by ``leader``."""
        rem, best, bi, led = self._in_play(hands, played)
        return self._trick(hands, leader, pts, tricks, played, rem, best, bi, led, alpha, beta)

    def _trick(self, hands, leader, pts, tricks, played, rem, best, bi, led, alpha, beta):
        """``trick`` with what the trick so far tells passed down: ``rem`` the cards in play
        (the same through a trick), the best card ``best`` (index ``bi``), the suit ``led``."""
        n = self.n
        pos = len(played)
        if pos == n:                                          # G13: who takes the trick
            w = (leader + bi) % n
            t = list(tricks)
            t[w] += 1
            return self.search(hands, w, pts, tuple(t), alpha, beta)
        self._tick()
        seat = (leader + pos) % n
        h = hands[seat]
        tr = self.tr
        hon = self.hon
        maxing = seat == self.root
        v = -INF if maxing else INF
        for c in self.moves(h, rem, pos, best, led):
            hs = list(hands)
            hs[seat] = h & ~(1 << c)
            p = pts
            if not pos:
                nb, nbi, nled = c, 0, c // 9
                if hon >> c & 1:                              # G14: an honour led scores 4
                    p = list(pts)
                    p[seat] += 4
                    p = tuple(p)
            elif (c > best) if c // 9 == best // 9 else c // 9 == tr:
                nb, nbi, nled = c, pos, led
            else:
                nb, nbi, nled = best, bi, led
            x = self._trick(tuple(hs), leader, p, tricks, played + (c,), rem, nb, nbi, nled,
                            alpha, beta)
            if maxing:
                if x > v:
                    v = x
                    if v > alpha:
                        alpha = v
            elif x < v:
                v = x
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return v

    # --- the others playing like the rules (a model of level 2, as ``rollout_policy``) ---------

    def model(self, hands, seat, played, leader) -> int:
        """The card ``rollout_policy`` plays for ``seat`` on open hands (compact)."""
        n = self.n
        h = hands[seat]
        tr = self.tr
        trm = self.trm
        hon = self.hon
        others = 0
        for s in range(n):
            if s != seat:
                others |= hands[s]
        if not played:
            x = h & hon
            if x:                                             # G14: lead the honours
                return x.bit_length() - 1
            best = -1
            for su in range(4):
                m = h & SM9[su]
                if not m:
                    continue
                top = m.bit_length() - 1
                o = others & SM9[su]
                if o and o.bit_length() - 1 > top:
                    continue
                if su != tr and others & trm:
                    if any(not hands[s] & SM9[su] for s in range(n) if s != seat):
                        continue
                if best < 0 or top % 9 > best % 9:
                    best = top
            if best < 0 and h & trm and others & hon:         # draw the others' trumps
                best = (h & trm).bit_length() - 1
            if best < 0:
                plain = h & ~trm or h
                bk = None
                for su in range(4):
                    m = plain & SM9[su]
                    if m:
                        low = (m & -m).bit_length() - 1
                        k = ((h & SM9[su]).bit_count(), -(low % 9))
                        if bk is None or k > bk:
                            bk = k
                            best = low
            return best
        led = played[0] // 9
        playable = h & SM9[led] or h & trm or h
        best = played[0]
        for c in played[1:]:
            if (c > best) if c // 9 == best // 9 else c // 9 == tr:
                best = c
        last = len(played) == n - 1
        win = -1
        wk = None
        cheap = -1
        ck = None
        m = playable
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            cs = c // 9
            if ((c > best) if cs == best // 9 else cs == tr) and not hon & low:
                ok = True
                if not last:
                    for i in range(len(played) + 1, n):
                        hs = hands[(leader + i) % n]
                        cand = hs & SM9[led] or hs & trm
                        while cand:
                            lb = cand & -cand
                            x = lb.bit_length() - 1
                            cand ^= lb
                            if (x > c) if x // 9 == cs else x // 9 == tr:
                                ok = False
                                break
                        if not ok:
                            break
                if ok:
                    k = (cs == tr, c % 9)
                    if wk is None or k < wk:
                        wk = k
                        win = c
            k = (hon >> c & 1, cs == tr, c % 9)
            if ck is None or k < ck:
                ck = k
                cheap = c
        return win if win >= 0 else cheap

    def respond(self, hands, leader, pts, tricks, played=()) -> float:
        """The root's best play against the others playing ``model`` (exact, memoised)."""
        n = self.n
        pos = len(played)
        tr = self.tr
        if pos == n:
            best = played[0]
            bi = 0
            for i in range(1, n):
                c = played[i]
                if (c > best) if c // 9 == best // 9 else c // 9 == tr:
                    best = c
                    bi = i
            w = (leader + bi) % n
            t = list(tricks)
            t[w] += 1
            tricks = tuple(t)
            h = hands[w]
            if not h & (h - 1):
                return self.last(hands, w, pts, tricks) if h else self.terminal(pts, tricks)
            key = (hands, w, pts, tricks)
            v = self.tt.get(key)
            if v is None:
                v = self.tt[key] = self.respond(hands, w, pts, tricks, ())
            return v
        self._tick()
        seat = (leader + pos) % n
        h = hands[seat]
        if seat == self.root:
            rem, best, _bi, led = self._in_play(hands, played)
            cands = self.moves(h, rem, pos, best, led)
        else:
            cands = [self.model(hands, seat, played, leader)]
        v = -INF
        for c in cands:
            hs = list(hands)
            hs[seat] = h & ~(1 << c)
            p = pts
            if not pos and self.hon >> c & 1:                 # G14
                p = list(pts)
                p[seat] += 4
                p = tuple(p)
            x = self.respond(tuple(hs), leader, p, tricks, played + (c,))
            if x > v:
                v = x
        return v


def solve_root(g: Imperial, seat: int, max_nodes: int = 0, deadline=None, clock=None,
               model: bool = False, used: list | None = None) -> dict:
    """Exact value (``Endgame``) of each legal card of ``seat`` (to move) in the open state
    ``g``, as {card int: value}; ``SolveLimit`` past ``max_nodes`` nodes or the deadline.
    ``used``: its first element is increased by the nodes searched (a limit reached too)."""
    e = Endgame(g.n, g.trump, seat, max_nodes, deadline, clock)
    try:
        return _solve_root(e, g, seat, model)
    finally:
        if used is not None:
            used[0] += e.nodes


def _solve_root(e: Endgame, g: Imperial, seat: int, model: bool) -> dict:
    hands = tuple(to9(h) for h in g.hands)
    played = tuple(_TO9[c] for _, c in g.trick)
    pts = tuple(g.deal_points)
    tricks = tuple(g.tricks_won)
    pos = len(played)
    h = hands[seat]
    legal = e._legal(h, played[0] // 9 if pos else -1)
    out = {}
    for c in C.cards_of(legal):
        hs = list(hands)
        hs[seat] = h & ~(1 << c)
        p = pts
        if not pos and e.hon >> c & 1:
            p = list(pts)
            p[seat] += 4
            p = tuple(p)
        if model:
            out[_FROM9[c]] = e.respond(tuple(hs), g.leader, p, tricks, played + (c,))
        else:
            out[_FROM9[c]] = e.trick(tuple(hs), g.leader, p, tricks, played + (c,), -INF, INF)
    return out


def _playout(e: Endgame, hands: list, leader: int, played: list, pts: list, scores: list,
             tricks: list, c: int) -> tuple:
    """Play ``c`` (compact, for the seat to move) and then the rest of the deal as
    ``rollout_policy`` does (``Endgame.model``), the lists changed in place; returns (the
    winner of the game if it ended in the deal, else ``None``; the root seat's honour leads
    after its first card): ``Sim`` and ``Imperial._apply`` on compact masks."""
    n, tr, hon, me = e.n, e.tr, e.hon, e.root
    model = e.model
    later = 0
    ply = 0
    while True:
        pos = len(played)
        s = (leader + pos) % n
        if ply:
            c = model(hands, s, played, leader)
        hands[s] &= ~(1 << c)
        if not pos and hon >> c & 1:                          # G14: a trump honour led
            pts[s] += BONUS_PTS
            scores[s] += BONUS_PTS
            if ply and s == me:
                later += 1
            if scores[s] >= TARGET_PTS:                       # G16, E15: won at once
                return s, later
        ply += 1
        played.append(c)
        if pos + 1 < n:
            continue
        best = played[0]
        bi = 0
        for i in range(1, n):                                 # G13: who takes the trick
            x = played[i]
            if (x > best) if x // 9 == best // 9 else x // 9 == tr:
                best = x
                bi = i
        leader = (leader + bi) % n
        tricks[leader] += 1
        played = []
        if hands[leader]:
            continue
        for s in e.order:                                     # G15: the trick bonus
            t = tricks[s]
            if t > 6:
                p = 2 * BONUS_PTS if t == 12 else BONUS_PTS
                pts[s] += p
                scores[s] += p
                if scores[s] >= TARGET_PTS:
                    return s, later
        return None, later


def _playout_value(e: Endgame, row: list, won, later: int, spent: float) -> float:
    """``evaluate`` of a finished ``_playout`` (the same arithmetic, so the same floats):
    ``row`` the deal's points, ``spent`` the root card's ``Sim.sim_spent``."""
    me = e.root
    if won is not None:
        return WIN_VALUE if won == me else -WIN_VALUE
    others = [row[s] for s in range(e.n) if s != me]
    value = row[me] - sum(others) / len(others)
    if DEAL_WIN:
        lead = row[me] - max(others)
        value += DEAL_WIN * ((lead > 0) - (lead < 0))
    value -= later * 4 * (1 - LATER_LEAD)
    value -= SPEND * spent
    return value


def pimc(view: dict, legal: list, rng: random.Random, budget: dict,
         stats: dict | None = None) -> list[float]:
    """``bots.search.search`` with this plug-in, step for step: the same samples (``Sampler``,
    the same draws from ``rng``), the same rollouts and values; the rollouts run on compact
    masks (``_playout``), which ``rollout_policy`` (deterministic: ``EPSILON`` 0) allows."""
    if EPSILON:
        return search(sys.modules[__name__], view, legal, rng, budget, stats)
    sampler = Sampler(view)
    k = sampler.k
    n, seat, trump = k.n, k.seat, k.trump
    keys = [canonical(a) for a in legal]
    n_act = len(legal)
    samples = max(budget["min_samples"], -(-budget["rollouts"] // n_act))
    clock, deadline = timer(budget)
    crn = budget.get("common_rollouts")
    e = Endgame(n, trump, seat)
    e.order = [(view["dealer"] + i) % n for i in range(n)]   # G12: dealer first
    cards = [C.card(a["card"]) for a in legal]
    roots = [_TO9[c] for c in cards]
    hon = k.honours
    spent = [(hon >> c & 1) + 0.5 * (C.suit_of(c) == trump) + POWER[c] / 20 for c in cards]
    played = [_TO9[c] for _, c in k.trick]
    leader = view["leader"]
    scores = view["scores"]
    rows = view["score_sheet"]["rows"][:-1]
    deal_no = view["deal_no"]
    row = rows[deal_no - 1][1:] if len(rows) >= deal_no else view["deal_points"]
    tricks = k.tricks_won
    totals = [0.0] * n_act
    done = 0
    for i in range(samples):
        deal = sampler.deal(rng)
        if i == 0:
            check_determinization(sampler.game(deal, rng), view, keys)
        else:
            rng.getrandbits(64)                               # the draw of ``Game.sampled``
        if crn:
            rng.getrandbits(64)                               # unused: no randomness in play
        hands = [to9(h) for h in sampler.hands(deal)]
        for j in range(n_act):
            pts = list(row)
            won, later = _playout(e, hands[:], leader, played[:], pts, list(scores),
                                  list(tricks), roots[j])
            totals[j] += _playout_value(e, pts, won, later, spent[j])
        done += 1
        if clock() > deadline:
            break
    note_search(stats, done, done < samples, 0)
    return [t / done for t in totals]


def search_values(view: dict, legal: list, rng: random.Random, budget: dict, stats: dict,
                  level: int) -> list[float]:
    """Levels 3 and 4: once the seat holds at most ``solve_cards`` cards, every sampled deal
    (``determinize``) is solved exactly with open cards (``solve_root``) and each card's value
    averaged over ``solve_samples`` samples, each solve within ``solve_nodes`` nodes and all of
    them within ``solve_total``: past it the samples solved so far decide (counted work, sized
    so that the time cap never cuts it).  Before that (or if the first solve exceeds its
    limit), the generic search with rollouts, step for step (``pimc``)."""
    cards_left = len(view["hand"])
    if (cards_left > budget.get("solve_cards" if view["players"] == 2 else "solve_cards_3p", 0)
            or max(view["scores"]) + 6 * BONUS_PTS >= TARGET_PTS):
        # G16: near 120 a lead may end the game at once; the rollouts handle that.  With 3
        # players (G1: 36 cards, a third hand to play out) a rollout costs about 1.5 times as
        # much, so fewer of them keep the decision inside its time budget
        if view["players"] == 3 and "rollouts_3p" in budget:
            budget = dict(budget, rollouts=budget["rollouts_3p"])
        return pimc(view, legal, rng, budget, stats)
    clock, deadline = timer(budget)
    seat = view["seat"]
    idx = [C.card(a["card"]) for a in legal]
    totals = [0.0] * len(legal)
    done = 0
    samples = budget["solve_samples"]
    # with 3 players always the best reply to the rules: "paranoid" alpha-beta (both others
    # against the seat) is slower and too pessimistic
    model = bool(budget.get("solve_model")) or view["players"] == 3
    sampler = Sampler(view)
    per_sample = budget.get("solve_nodes", 0)
    total = budget.get("solve_total", 0)
    used = [0]
    for _i in range(samples):
        cap = per_sample
        if total:
            # the nodes left of the decision's budget: a counted amount of work, so that the
            # decision depends only on the seed and the view (the time cap is a safety net)
            left = total - used[0]
            if left <= 0:
                break
            cap = min(cap, left) if cap else left
        g = sampler.game(sampler.deal(rng), rng)              # = determinize(view, rng)
        try:
            vals = solve_root(g, seat, cap, deadline, clock, model, used)
        except SolveLimit:
            if done:
                break
            return pimc(view, legal, rng, budget, stats)
        for j, c in enumerate(idx):
            totals[j] += vals[c]
        done += 1
    # stopped by the clock, not by the counted node total or a sample's node cap
    note_search(stats, done, clock() > deadline, done)
    return [t / done for t in totals]


SOLVE_CARDS = 0                  # generic solver (``solvable``): off; ``search_values`` solves


def solvable(g: Imperial, start) -> bool:
    """No chance is left in a sampled deal (G3: the unused cards never come into play); small
    enough to solve when few cards are left."""
    return g.to_move is not None and C.count(g.hands[g.to_move]) <= SOLVE_CARDS


def order_actions(g: Imperial, actions: list) -> list:
    """Honours and high cards first (only speed)."""
    hon = HONOURS[(g.n, g.trump)]

    def key(a):
        c = C.CARD[a["card"]]
        return (-(hon >> c & 1), -(C.suit_of(c) == g.trump), -POWER[c])
    return sorted(actions, key=key)
