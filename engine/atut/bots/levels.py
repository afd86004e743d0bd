"""The four bot levels and ``make_bot``.

A bot is given only ``view(seat)`` of the seat to move (a JSON-safe dict) and returns one of the
view's ``legal_actions``.  It never receives the game object, so it cannot see a hidden card: the
search levels rebuild full game states from the view, sampling what the seat cannot see.

1. ``RandomBot``  - a uniformly random legal action.
2. ``RuleBot``    - the game's plug-in ``rule_policy(view, rng)``: a heuristic a good player
   would recognise.
3. ``SearchBot``  - determinized search (perfect-information Monte Carlo, ``bots.search``):
   sample full states consistent with the view (``determinize``), try every legal action in each
   sample, finish the deal with the plug-in's fast ``rollout_policy`` and score it with
   ``evaluate``; play the action with the best mean.  Budget: ``BUDGETS[3]`` (rollouts, counted,
   so decisions are seeded and repeatable; ``time_cap`` seconds is only a safety net).
4. ``StrongBot``  - the same with a larger budget, and when the plug-in says a sampled state can
   be solved (``solvable``: no more hidden draws, few cards left) each action is valued by an
   exact alpha-beta search of the open-card endgame (``bots.solver``) instead of a rollout.

Every level is seeded: the RNG of a decision is derived from the bot's seed and the view, so the
same seed and the same view always give the same action (unless the time cap, a safety net sized
well above the counted budget, cuts a search short).

Fallbacks, so the page never breaks: a game with no plug-in (or a plug-in without
``rule_policy``) plays randomly at level 2; without ``determinize``, levels 3 and 4 play like
level 2.  Such a level is weaker than it claims: each game's plug-in must supply these.  When a
search fails (a plug-in bug), a ``strict`` bot raises (tests, the arena); otherwise it warns and
plays by the rules (the page: a game must go on).
"""

from __future__ import annotations

import random
import warnings
import zlib

from ..game import canonical
from . import ismcts, shards
from .catalogue import BY_NUMBER, NUMBERS, spelled
from .catalogue import NAMES as _NAMES
from .interface import hooks, plugin
from .search import BUDGETS, search

# the levels' numbers, names, budgets and shards: bots.catalogue (LEVEL_TABLE)
NAMES = dict(_NAMES)


class Bot:
    """Base class: ``choose(view)`` returns one of ``view["legal_actions"]``."""

    level = 0

    def __init__(self, game_id: str, seed: int = 0, budget: dict | None = None,
                 strict: bool = False):
        self.game_id = game_id
        self.seed = seed
        self.strict = strict
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
    for a in legal:
        if a is action:             # the policy returned one of them: the usual case
            return a
    key = canonical(action)
    for a in legal:
        if canonical(a) == key:
            return a
    raise ValueError(f"bot plug-in chose an illegal action {key}")


class RuleBot(Bot):
    """Level 2: the plug-in's ``rule_policy``; random if the game has none yet."""

    level = 2

    def _choose(self, view, legal, rng):
        policy = hooks(self.plugin).rule_policy
        if policy is None:
            return rng.choice(legal)
        return _match(policy(view, rng), legal)


class SearchBot(RuleBot):
    """Level 3: perfect-information Monte Carlo over determinizations of the view."""

    level = 3

    def __init__(self, game_id: str, seed: int = 0, budget: dict | None = None,
                 strict: bool = False):
        super().__init__(game_id, seed, strict=strict)
        b = dict(BUDGETS[self.level])
        b.update(hooks(self.plugin).budgets.get(self.level, {}))
        if budget:
            unknown = set(budget) - set(b)
            if unknown:
                raise ValueError(f"unknown budget keys {sorted(unknown)}; known: {sorted(b)}")
            b.update(budget)
        self.budget = b

    def evaluate(self, view: dict, legal: list | None = None,
                 rng: random.Random | None = None) -> tuple[list[float], list[float]] | None:
        """The search of one decision: ``(values, scores)``, one of each per element of
        ``legal`` (the view's legal actions by default), ``values`` the plug-in's mean values,
        ``scores`` the same with the budget's ``rule_bonus`` added to the rules' action: the bot
        plays the first action of highest score.  ``None`` when the level falls back to the rules
        (no ``determinize``, or a failed search of a bot that is not ``strict``).  ``rng``: the
        decision's RNG (``decision_rng(view)`` by default).  ``_choose`` and ``atut.analyse``
        share this one path."""
        if legal is None:
            legal = view["legal_actions"]
        if rng is None:
            rng = self.decision_rng(view)
        h = hooks(self.plugin)                  # once per decision
        if h.determinize is None:
            return None
        try:
            if self.shards > 1:
                values = self._sharded(view, legal, rng)
            else:
                values = h.search_values(view, legal, rng, self.budget, self.stats, self.level)
        except Exception as e:           # a plug-in bug must not stop the page's game
            return self._failed(e)
        values = list(values)
        scores = values[:]
        bonus = self.budget.get("rule_bonus", 0.0)
        if bonus and h.rule_policy is not None:
            # trust the rules unless the search finds something clearly better
            key = canonical(h.rule_policy(view, random.Random(rng.getrandbits(32))))
            for i, a in enumerate(legal):
                if canonical(a) == key:
                    scores[i] += bonus
        return values, scores

    def _failed(self, e: Exception) -> None:
        """A failed search: a strict bot raises; otherwise it warns, counts it and the bot
        plays by the rules (``None``)."""
        if self.strict:
            raise e
        warnings.warn(f"{self.game_id} level {self.level} search failed ({e!r}); "
                      "playing by the rules instead", RuntimeWarning, stacklevel=3)
        self.stats["errors"] = self.stats.get("errors", 0) + 1
        return None

    @property
    def shards(self) -> int:
        """How many shards a decision's search runs in (``bots.shards``)."""
        return shards.SHARDS.get(self.level, 1)

    def shard_jobs(self, view: dict, legal: list | None = None,
                   rng: random.Random | None = None) -> list[dict]:
        """The jobs of this decision's shards (``bots.shards``); they draw the first seeds of the
        decision's RNG, as ``evaluate`` does."""
        legal = view["legal_actions"] if legal is None else legal
        rng = self.decision_rng(view) if rng is None else rng
        return shards.make_jobs(self.game_id, self.level, view, legal, rng, self.budget,
                                self.shards)

    def _sharded(self, view, legal, rng):
        """The values of a search in shards, wherever the current runner runs them."""
        jobs = self.shard_jobs(view, legal, rng)
        found = shards.merge(shards.run(jobs), jobs)
        st = self.stats
        st["samples"] = found["samples"]
        if found["solved"] is not None:
            st["solved"] = found["solved"]
        st["decisions"] = st.get("decisions", 0) + 1
        st["capped"] = st.get("capped", 0) + found["capped"]
        return found["values"]

    def _choose(self, view, legal, rng):
        found = self.evaluate(view, legal, rng)
        if found is None:
            return super()._choose(view, legal, rng)
        scores = found[1]
        best = max(range(len(legal)), key=lambda i: scores[i])
        return legal[best]


class StrongBot(SearchBot):
    """Level 4: a larger budget and exact open-card endgames where the plug-in allows."""

    level = 4


class ExpertBot(SearchBot):
    """Level 5: single-tree information-set MCTS (``bots.ismcts``) over fresh deals of the
    hidden cards, the exact solver of ``bots.search`` once a sampled state is ``solvable``; the
    most visited action is played."""

    level = 5

    def _strong(self) -> StrongBot:
        """Level 4 with this bot's seed, clock and time cap, for the decisions the plug-in's
        ``TREE_ACTIONS`` leave out."""
        b = getattr(self, "_level4", None)
        if b is None:
            b = self._level4 = StrongBot(self.game_id, self.seed, {
                "clock": self.budget["clock"], "time_cap": self.budget["time_cap"]},
                strict=self.strict)
            b.stats = self.stats
        return b

    def evaluate(self, view: dict, legal: list | None = None,
                 rng: random.Random | None = None):
        if legal is None:
            legal = view["legal_actions"]
        if rng is None:
            rng = self.decision_rng(view)
        h = hooks(self.plugin)
        if h.determinize is None:
            return None
        tree = getattr(self.plugin, "TREE_ACTIONS", None)
        if tree is not None and any(a.get("type") not in tree for a in legal):
            # a decision the plug-in keeps to its own search (e.g. euchre's calls): level 4's
            return self._strong().evaluate(view, legal, rng)
        try:
            probe = h.determinize(view, random.Random(rng.getrandbits(32)))
            if self.budget.get("solve_nodes") and h.solvable(probe, probe):
                values = search(h, view, legal, rng, self.budget, self.stats)
                return values, list(values)
            values, visits = ismcts.search(self.plugin, view, legal, rng, self.budget,
                                           self.stats)
        except Exception as e:           # a plug-in bug must not stop the page's game
            return self._failed(e)
        # the most visited action first; among equal visits, the higher mean value
        lo, span = min(values), max(values) - min(values) + 1e-9
        scores = [n + 0.5 * (v - lo) / span for n, v in zip(visits, values)]
        return values, scores


# the class of each algorithm of the level table
ALGORITHMS = {"random": RandomBot, "rules": RuleBot, "pimc": SearchBot, "pimc+solve": StrongBot,
              "ismcts": ExpertBot}
LEVELS = {lv.number: ALGORITHMS[lv.algorithm] for lv in BY_NUMBER.values()}


def parse_level(level) -> int:
    """A level's number from its number or name (``bots.catalogue``); ``ValueError``
    otherwise."""
    if isinstance(level, str):
        s = level.strip().lower()
        if s in NAMES:
            return NAMES[s]
        if s.isdigit() and int(s) in NUMBERS:
            return int(s)
        raise ValueError(f"bot level must be {spelled()}, not {level!r}")
    if type(level) is not int or level not in NUMBERS:
        raise ValueError(f"bot level must be {spelled()}, not {level!r}")
    return int(level)


def make_bot(game_id: str, level=1, seed: int = 0, budget: dict | None = None,
             strict: bool = False) -> Bot:
    """A bot for ``game_id`` at ``level`` (1-4 or a name); ``budget`` overrides level 3/4
    budgets; a ``strict`` bot raises when its search fails instead of playing by the rules."""
    from ..games import spec
    spec(game_id)                               # ValueError for an unknown game
    level = parse_level(level)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, not {seed!r}")
    cls = LEVELS[level]
    if issubclass(cls, SearchBot):
        return cls(game_id, seed, budget, strict=strict)
    if budget:
        raise ValueError("only the search levels take a budget")
    return cls(game_id, seed, strict=strict)
