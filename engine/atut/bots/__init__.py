"""Bots at four levels, for every game.

A bot is given only ``view(seat)`` of the seat to move (a JSON-safe dict) and returns one of the
view's ``legal_actions``.  It never receives the game object, so it cannot see a hidden card: the
search levels rebuild full game states from the view, sampling what the seat cannot see.

Levels (``make_bot(game_id, level, seed)``):

1. ``RandomBot``  - a uniformly random legal action.
2. ``RuleBot``    - the game's plug-in ``rule_policy(view, rng)``: a heuristic a good player
   would recognise.
3. ``SearchBot``  - determinized search (perfect-information Monte Carlo): sample full states
   consistent with the view (``determinize``), try every legal action in each sample, finish the
   deal with the plug-in's fast ``rollout_policy`` and score it with ``evaluate``; play the
   action with the best mean.  Budget: ``BUDGETS[3]`` (rollouts, counted, so decisions are
   seeded and repeatable; ``time_cap`` seconds is only a safety net).
4. ``StrongBot``  - the same with a larger budget, and when the plug-in says a sampled state can
   be solved (``solvable``: no more hidden draws, few cards left) each action is valued by an
   exact alpha-beta search of the open-card endgame instead of a rollout.

Every level is seeded: the RNG of a decision is derived from the bot's seed and the view, so the
same seed and the same view always give the same action (unless the time cap, a safety net sized
well above the counted budget, cuts a search short).

Fallbacks, so the page never breaks: a game with no plug-in (or a plug-in without
``rule_policy``) plays randomly at level 2; without ``determinize``, levels 3 and 4 play like
level 2.  Such a level is weaker than it claims: each game's plug-in must supply these.

Plug-in interface - module ``atut.bots.<game_id>`` (see ``bots/sixty_six.py``, the reference)
---------------------------------------------------------------------------------------------

Required for level 2:

``rule_policy(view, rng) -> action``
    The level-2 decision for every decision of the game (bids, musik/przykup, gives, calls,
    going alone, exchange, melds, jokers, emperor, card play).  ``view`` is the seat's view with
    ``legal_actions``; return one of those dicts (the very object or an equal dict).  ``rng`` is a
    ``random.Random``; use it only to break ties.

Required for levels 3 and 4:

``determinize(view, rng) -> Game``
    A full game state (an instance of the game's class) consistent with everything the seat has
    seen: its own hand, the public piles, the view's ``log`` of the current deal (cards played,
    voids shown by failing to follow, cards it gave or was given, revealed musik or przykup,
    melds shown, exchanges), with every card it cannot see dealt at random among the places
    where it may be.  The state must be the one the view shows: ``to_move`` is the view's seat,
    ``phase``, scores, trick, trump, deal number are the same, and ``_legal()`` equals the view's
    ``legal_actions`` (same canonical JSON, any order).  Set ``_recording = False`` (no events)
    for speed; ``clone()`` must be a correct copy.  ``sample_cards`` below helps to deal hidden
    cards under constraints.  The plug-in may use game internals freely.

Optional (defaults in brackets):

``rollout_policy(game, rng) -> action``  [a random element of ``game._legal()``]
    A fast policy on a full state, used to finish a deal in search; may use internals
    (``game._legal()``, hands as masks).  Must return an element of ``game._legal()``.

``deal_over(game, start) -> bool``  [``game.to_move is None or game.deal_no != start.deal_no``]
    Whether a rollout from the root state ``start`` is finished.  Multi-deal games stop at the
    end of the current deal (their ``_apply`` scores a deal and starts the next one).

``evaluate(game, seat, start) -> float``  [1/0 for a finished game won/lost by ``seat`` (a list
    winner counts if ``seat`` is in it); otherwise the change of ``scores[seat]`` since ``start``
    minus the mean change of the other seats' scores]
    The value of a finished rollout for ``seat``, higher is better.  Used for both rollouts and
    the exact endgame, so keep it on one scale (e.g. expected match-win chance or score margin).

``solvable(game, start) -> bool``  [False]
    Level 4: whether the rest of the deal in this sampled state has no chance events left (no
    draws from a stock, no hidden deal) and is small enough to solve exactly; the generic solver
    then runs alpha-beta with the root seat's side maximising ``evaluate`` and everyone else
    minimising it ("paranoid" search; exact for two sides), up to ``BUDGETS[4]["solve_nodes"]``
    nodes per decision sample (beyond that, or past the time cap, it falls back to rollouts).

``solve_evaluate(game, seat, start) -> float``  [``evaluate``]
    The solver's leaf value, if it should differ from the rollouts' (e.g. plain win/loss
    without a point-margin tie-break, which lets alpha-beta cut far more).

``state_key(game) -> hashable``  [none]
    Identifies a sampled state for the solver: equal keys are solved once per decision (e.g.
    two-player 66 once the stock is gone, where every sample is the same open position).

``same_side(game, a, b) -> bool``  [``a == b``]
    Partners (euchre's pairs) - the solver lets the root seat's partner maximise too.

``order_actions(game, actions) -> actions``  [unchanged]
    Move ordering for the solver (best first) - only speed.

``search_values(view, legal, rng, budget, stats, level) -> list[float]``  [``search`` below]
    Replaces the generic search at levels 3 and 4: one value per element of ``legal`` (higher is
    better), from determinized search however the game needs it (e.g. calling ``search`` with a
    prior from the rules, or a separate evaluation for bids).  Budgets are its to keep.

``BUDGETS = {3: {...}, 4: {...}}``  [``BUDGETS`` below]
    Per-game overrides of the level budgets (keys as in ``BUDGETS``); size them with
    ``python -m atut bench-bots`` (``arena.bench_bots``) so that a CPython decision takes about
    a third of the Pyodide budget (0.3 s at level 3, 1 s at level 4).
"""

from __future__ import annotations

import importlib
import math
import random
import time
import warnings
import zlib

from ..cards import SUIT_MASK
from ..game import canonical

# Budgets per level.  ``rollouts``: total rollouts (or solved samples) per decision, spread
# evenly over the legal actions; ``min_samples``: at least this many determinizations even when
# there are many actions; ``time_cap``: seconds, a safety net only; ``solve_nodes``: level 4's
# node limit per exact endgame solve; ``clock``: "wall" (the page) or "cpu" (the arena and
# benchmarks on a shared machine, where other processes' load must not cut searches short);
# ``rule_bonus``: added to the mean value of the level-2 action, so that the search departs
# from the rules only for a clearly better action (0: pure search); ``common_rollouts``: the
# rollouts of all actions in one sample share one random stream (less noise between actions;
# off until measured in the arena).
BUDGETS = {
    3: {"rollouts": 300, "min_samples": 8, "time_cap": 0.3, "solve_nodes": 0, "clock": "wall",
        "rule_bonus": 0.0, "common_rollouts": False},
    4: {"rollouts": 1000, "min_samples": 20, "time_cap": 1.0, "solve_nodes": 4000,
        "clock": "wall", "rule_bonus": 0.0, "common_rollouts": False},
}

NAMES = {"random": 1, "rules": 2, "search": 3, "strong": 4}

# When a search fails (a plug-in bug), raise (tests, the arena) or warn and play by the rules
# (the page: a game must go on).
STRICT = False


def plugin(game_id: str):
    """The bot plug-in module of a game, or ``None`` when the game has none yet."""
    name = f"atut.bots.{game_id}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name == name:
            return None
        raise


class Bot:
    """Base class: ``choose(view)`` returns one of ``view["legal_actions"]``."""

    level = 0

    def __init__(self, game_id: str, seed: int = 0, budget: dict | None = None):
        self.game_id = game_id
        self.seed = seed
        self.rng = random.Random(seed)
        self.plugin = plugin(game_id)
        self.stats: dict = {}

    def decision_rng(self, view: dict) -> random.Random:
        """A fresh RNG for one decision: a function of the bot's seed and of the view only."""
        return random.Random((self.seed * 0x9E3779B1) ^ zlib.crc32(canonical(view).encode()))

    def choose(self, view: dict) -> dict:
        legal = view.get("legal_actions") if isinstance(view, dict) else None
        if not legal:
            raise ValueError("the view has no legal actions: this seat is not to move")
        if view.get("game") not in (None, self.game_id):
            raise ValueError(f"this bot plays {self.game_id}, not {view.get('game')!r}")
        if len(legal) == 1:
            return legal[0]
        return self._choose(view, legal, self.decision_rng(view))

    def _choose(self, view, legal, rng):
        raise NotImplementedError


class RandomBot(Bot):
    """Level 1: a uniformly random legal action."""

    level = 1

    def _choose(self, view, legal, rng):
        return rng.choice(legal)


def _match(action, legal):
    """The element of ``legal`` equal to ``action`` (``ValueError`` if none)."""
    key = canonical(action)
    for a in legal:
        if canonical(a) == key:
            return a
    raise ValueError(f"bot plug-in chose an illegal action {key}")


class RuleBot(Bot):
    """Level 2: the plug-in's ``rule_policy``; random if the game has none yet."""

    level = 2

    def _choose(self, view, legal, rng):
        p = self.plugin
        if p is None or not hasattr(p, "rule_policy"):
            return rng.choice(legal)
        return _match(p.rule_policy(view, rng), legal)


class SearchBot(RuleBot):
    """Level 3: perfect-information Monte Carlo over determinizations of the view."""

    level = 3

    def __init__(self, game_id: str, seed: int = 0, budget: dict | None = None):
        super().__init__(game_id, seed)
        b = dict(BUDGETS[self.level])
        if self.plugin is not None:
            b.update(getattr(self.plugin, "BUDGETS", {}).get(self.level, {}))
        if budget:
            unknown = set(budget) - set(b)
            if unknown:
                raise ValueError(f"unknown budget keys {sorted(unknown)}; known: {sorted(b)}")
            b.update(budget)
        self.budget = b

    def _choose(self, view, legal, rng):
        p = self.plugin
        if p is None or not hasattr(p, "determinize"):
            return super()._choose(view, legal, rng)
        try:
            if hasattr(p, "search_values"):
                values = p.search_values(view, legal, rng, self.budget, self.stats, self.level)
            else:
                values = search(p, view, legal, rng, self.budget, self.stats)
        except Exception as e:           # a plug-in bug must not stop the page's game
            if STRICT:
                raise
            warnings.warn(f"{self.game_id} level {self.level} search failed ({e!r}); "
                          "playing by the rules instead", RuntimeWarning)
            self.stats["errors"] = self.stats.get("errors", 0) + 1
            return super()._choose(view, legal, rng)
        bonus = self.budget.get("rule_bonus", 0.0)
        if bonus and hasattr(p, "rule_policy"):
            # trust the rules unless the search finds something clearly better
            key = canonical(p.rule_policy(view, random.Random(rng.getrandbits(32))))
            for i, a in enumerate(legal):
                if canonical(a) == key:
                    values[i] += bonus
        best = max(range(len(legal)), key=lambda i: values[i])
        return legal[best]


class StrongBot(SearchBot):
    """Level 4: a larger budget and exact open-card endgames where the plug-in allows."""

    level = 4


LEVELS = {1: RandomBot, 2: RuleBot, 3: SearchBot, 4: StrongBot}


def parse_level(level) -> int:
    """A level from 1..4 or a name (random, rules, search, strong); ``ValueError`` otherwise."""
    if isinstance(level, str):
        s = level.strip().lower()
        if s in NAMES:
            return NAMES[s]
        if s in ("1", "2", "3", "4"):
            return int(s)
        raise ValueError(f"bot level must be 1-4 or one of {', '.join(NAMES)}, not {level!r}")
    if type(level) is not int or level not in (1, 2, 3, 4):
        raise ValueError(f"bot level must be 1, 2, 3 or 4, not {level!r}")
    return int(level)


def make_bot(game_id: str, level=1, seed: int = 0, budget: dict | None = None) -> Bot:
    """A bot for ``game_id`` at ``level`` (1-4 or a name); ``budget`` overrides level 3/4 budgets."""
    import atut
    if game_id not in atut.GAME_IDS:
        raise ValueError(f"unknown game {game_id!r}; the games are {', '.join(atut.GAME_IDS)}")
    level = parse_level(level)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, not {seed!r}")
    cls = LEVELS[level]
    if level >= 3:
        return cls(game_id, seed, budget)
    if budget:
        raise ValueError("only levels 3 and 4 take a budget")
    return cls(game_id, seed)


# --- the generic search ------------------------------------------------------------------

def fast_clone(game):
    """``game.clone()`` for search, but sharing the RNG (copying its state costs far more than
    the rest): deterministic all the same, since every search step is.  Lists (and lists in
    lists) and dicts are copied one level down, as ``Game.clone`` does."""
    new = object.__new__(type(game))
    d = game.__dict__.copy()
    for k, v in d.items():
        t = type(v)
        if t is list:
            d[k] = [x[:] if type(x) is list else x for x in v]
        elif t is dict:
            d[k] = v.copy()
    d["_cache"] = None                      # the base class's legal-action cache
    new.__dict__ = d
    return new


def _default_deal_over(game, start):
    return game.to_move is None or game.deal_no != start.deal_no


def _default_evaluate(game, seat, start):
    if game.to_move is None and game.winner is not None:
        w = game.winner
        return 1.0 if (seat in w if isinstance(w, (list, tuple)) else seat == w) else 0.0
    d = [game.scores[s] - start.scores[s] for s in range(game.n)]
    others = [d[s] for s in range(game.n) if s != seat]
    return d[seat] - (sum(others) / len(others) if others else 0.0)


def _random_rollout(game, rng):
    return rng.choice(game._legal())


def rollout(p, game, start, seat, rng) -> float:
    """Play ``game`` (mutated) to the end of the deal with the rollout policy; its value."""
    policy = getattr(p, "rollout_policy", _random_rollout)
    over = getattr(p, "deal_over", _default_deal_over)
    evaluate = getattr(p, "evaluate", _default_evaluate)
    steps = 0
    while not over(game, start):
        game._apply(policy(game, rng))
        steps += 1
        if steps > 10000:
            raise RuntimeError("rollout does not end: the plug-in's deal_over never holds")
    return evaluate(game, seat, start)


class _SolveLimit(Exception):
    pass


_last_nodes = [0]          # nodes of the latest ``solve`` (read by ``search``)


def solve(p, game, start, seat, max_nodes: int, deadline: float | None = None,
          clock=time.perf_counter) -> float:
    """Exact value of ``game`` for ``seat``'s side by alpha-beta (everyone else minimising);
    ``_SolveLimit`` past ``max_nodes`` nodes or past ``deadline`` (by ``clock``)."""
    over = getattr(p, "deal_over", _default_deal_over)
    evaluate = getattr(p, "solve_evaluate", None) or getattr(p, "evaluate", _default_evaluate)
    same = getattr(p, "same_side", None)
    order = getattr(p, "order_actions", None)
    nodes = [0]

    _last_nodes[0] = 0

    def ab(g, alpha, beta):
        if over(g, start):
            return evaluate(g, seat, start)
        nodes[0] += 1
        if nodes[0] > max_nodes:
            raise _SolveLimit
        if deadline is not None and not nodes[0] & 127 and clock() > deadline:
            raise _SolveLimit
        acts = g._legal()
        if order is not None:
            acts = order(g, acts)
        mover = g.to_move
        maxing = mover == seat or (same is not None and same(g, mover, seat))
        if maxing:
            v = -math.inf
            for a in acts:
                c = fast_clone(g)
                c._apply(a)
                v = max(v, ab(c, alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in acts:
            c = fast_clone(g)
            c._apply(a)
            v = min(v, ab(c, alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    try:
        return ab(game, -math.inf, math.inf)
    finally:
        _last_nodes[0] = nodes[0]


def search(p, view: dict, legal: list, rng: random.Random, budget: dict,
           stats: dict | None = None) -> list[float]:
    """Mean value of every legal action over determinizations of ``view`` (PIMC).

    ``budget["rollouts"]`` rollouts in all, spread evenly over the actions (at least
    ``min_samples`` determinizations); in each determinization every action gets the same
    sample, which reduces variance.  With ``solve_nodes`` and the plug-in's ``solvable``, a
    solvable sample values each action exactly instead."""
    seat = view["seat"]
    keys = [canonical(a) for a in legal]
    n_act = len(legal)
    samples = max(budget["min_samples"], -(-budget["rollouts"] // n_act))
    clock = time.process_time if budget.get("clock") == "cpu" else time.perf_counter
    deadline = clock() + budget["time_cap"]
    solvable = getattr(p, "solvable", None) if budget.get("solve_nodes") else None
    state_key = getattr(p, "state_key", None)
    cache: dict = {}
    totals = [0.0] * n_act
    done = 0
    solved = 0
    for i in range(samples):
        g = p.determinize(view, rng)
        if i == 0:
            check_determinization(g, view, keys)
        by_key = {canonical(a): a for a in g._legal()}
        exact = None
        if solvable is not None and solvable(g, g):
            sk = state_key(g) if state_key is not None else None
            if sk is not None and sk in cache:
                exact = cache[sk]
            else:
                try:
                    exact = []
                    left = budget["solve_nodes"]          # shared by the actions of a sample
                    for k in keys:
                        c = fast_clone(g)
                        c._apply(by_key[k])
                        exact.append(solve(p, c, g, seat, left, deadline, clock))
                        left -= _last_nodes[0]
                    solved += 1
                except _SolveLimit:
                    exact = None
                if sk is not None:
                    cache[sk] = exact
        if exact is not None:
            for j in range(n_act):
                totals[j] += exact[j]
        else:
            crn = rng.getrandbits(64) if budget.get("common_rollouts") else None
            for j, k in enumerate(keys):
                c = fast_clone(g)
                c._apply(by_key[k])
                # common random numbers: every action's rollout in a sample uses the same stream
                r = random.Random(crn) if crn is not None else rng
                totals[j] += rollout(p, c, g, seat, r)
        done += 1
        if clock() > deadline:
            break
    note_search(stats, done, done < samples, solved)
    return [t / done for t in totals]


def note_search(stats: dict | None, samples: int, capped: bool, solved: int | None = None):
    """Record one search decision in a bot's ``stats`` (read by the arena and bench-bots):
    samples done, exact solves (when the search has a solver), decisions, decisions cut by
    the time cap."""
    if stats is None:
        return
    stats["samples"] = samples
    if solved is not None:
        stats["solved"] = solved
    stats["decisions"] = stats.get("decisions", 0) + 1
    stats["capped"] = stats.get("capped", 0) + capped


def check_determinization(g, view: dict, keys: list[str]) -> None:
    """Raise ``AssertionError`` unless the sampled state matches the view (seat, legal actions)."""
    if g.to_move != view["seat"]:
        raise AssertionError(f"determinize: seat {g.to_move} to move, the view is seat "
                             f"{view['seat']}'s")
    got = sorted(canonical(a) for a in g._legal())
    if got != sorted(keys):
        raise AssertionError(f"determinize: legal actions {got} differ from the view's "
                             f"{sorted(keys)}")


# --- helpers for plug-ins -----------------------------------------------------------------

def possible_cards(seat: int, s: int, hand: int, unseen: int, voids: list[int],
                   known: list[int]) -> int:
    """Cards seat ``s`` may hold, as seen by ``seat``: its own hand if ``s == seat``, else the
    unseen cards of the suits ``s`` has not shown void in (``voids[s]``: a 4-bit suit mask)
    plus the cards known to be in its hand (``known[s]``)."""
    if s == seat:
        return hand
    m = unseen
    for su in range(4):
        if voids[s] >> su & 1:
            m &= ~SUIT_MASK[su]
    return m | known[s]


def sample_cards(cards: list[int], sizes: dict, allowed: dict, rng: random.Random) -> dict:
    """Deal ``cards`` (ints) at random into places: ``sizes[place]`` cards each (the sizes must
    add up to ``len(cards)``), a card going only to a place whose ``allowed[place]`` bit mask
    holds it (a place missing from ``allowed`` takes anything).  Returns ``{place: mask}``.

    Voids, cards known to be elsewhere etc. become ``allowed`` masks.  Random with retries,
    most constrained cards first; if no retry succeeds, a matching that respects every
    constraint is searched exhaustively; ``ValueError`` if none exists."""
    places = list(sizes)
    if sum(sizes.values()) != len(cards):
        raise ValueError(f"sample_cards: {len(cards)} cards for places of sizes {sizes}")
    full = -1
    ok = {c: [q for q in places if (allowed.get(q, full) >> c) & 1] for c in cards}
    order = sorted(cards, key=lambda c: len(ok[c]))
    for _ in range(30):
        left = dict(sizes)
        out = {q: 0 for q in places}
        shuffled = list(order)
        rng.shuffle(shuffled)
        shuffled.sort(key=lambda c: len(ok[c]))           # stable: random within equal freedom
        for c in shuffled:
            opts = [q for q in ok[c] if left[q] > 0]
            if not opts:
                break
            # weight by remaining capacity: close to a uniform deal when unconstrained
            total = sum(left[q] for q in opts)
            r = rng.randrange(total)
            for q in opts:
                r -= left[q]
                if r < 0:
                    break
            out[q] |= 1 << c
            left[q] -= 1
        else:
            return out
    # exhaustive: augmenting-path matching over place slots
    slots = [q for q in places for _ in range(sizes[q])]
    owner: list[int | None] = [None] * len(slots)

    def augment(c, seen):
        for i, q in enumerate(slots):
            if i in seen or not (allowed.get(q, full) >> c) & 1:
                continue
            seen.add(i)
            if owner[i] is None or augment(owner[i], seen):
                owner[i] = c
                return True
        return False

    cs = list(cards)
    rng.shuffle(cs)
    for c in cs:
        if not augment(c, set()):
            raise ValueError("sample_cards: no deal satisfies the constraints")
    out = {q: 0 for q in places}
    for i, q in enumerate(slots):
        out[q] |= 1 << owner[i]
    return out


def blank_game(cls, view: dict, rng: random.Random):
    """An empty instance of the game class ``cls`` with the base-class fields set from ``view``
    (players, dealer, scores, phase, deal number, to_move, options), no events recorded and its
    own RNG drawn from ``rng``.  A plug-in's ``determinize`` then sets the game's own fields."""
    g = object.__new__(cls)
    g.options = dict(view.get("options") or {})
    g.n = view["players"]
    g.seed = 0
    g.rng = random.Random(rng.getrandbits(64))
    g.first_dealer = view["dealer"]
    g.dealer = view["dealer"]
    g.first_deck = None
    g.history = []
    g.events = []
    g.scores = list(view["scores"])
    g.to_move = view["to_move"]
    g.winner = None
    g.phase = view["phase"]
    g.deal_no = view["deal_no"]
    g._deal_event = 0
    g._cache = None                         # the base class's legal-action cache
    g._recording = False
    return g
