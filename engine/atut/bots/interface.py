"""The bot plug-in interface: what a game's plug-in (``GameSpec.bots``, ``atut.bots.<game_id>``
for the built-in games) supplies, and its defaults.

A game's plug-in is a module (see ``bots/sixty_six.py``, the reference).  ``Plugin`` below
declares every hook as a ``typing.Protocol``; a plug-in defines the ones it needs as module
functions (or constants), and ``hooks(module)`` resolves the whole interface once: the module's
own function where it has one, the default otherwise.  The search levels call ``hooks`` once per
decision (a test may swap a plug-in function between decisions), never per rollout step.

Required for level 2: ``rule_policy``.  Required for levels 3 and 4: ``determinize``.  Without
them a level falls back (``bots/levels.py``): level 2 plays randomly, levels 3-4 like level 2.
Everything else is optional; the defaults are documented on each hook.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:                                   # pragma: no cover
    from ..game import Game


class Plugin(Protocol):
    """The hooks of a bot plug-in module (``atut.bots.<game_id>``)."""

    BUDGETS: dict
    """``{3: {...}, 4: {...}}``: per-game overrides of the level budgets (keys as in
    ``bots.search.BUDGETS``) [none]; size them with ``python -m atut bench-bots``
    (``arena.bench_bots``) so that a CPython decision takes about a third of the Pyodide budget
    (0.3 s at level 3, 1 s at level 4)."""

    TREE_ACTIONS: tuple
    """The expert (level 5): the action types its tree search decides; a decision offering
    another type is left to the plug-in's own search at level 4 (e.g. euchre's calls, valued
    from the hand by its inference) [every type]."""

    def rule_policy(self, view: dict, rng: random.Random) -> dict:
        """Level 2 (required): the decision for every decision of the game (bids,
        musik/przykup, gives, calls, going alone, exchange, melds, jokers, emperor, card play).
        ``view`` is the seat's view with ``legal_actions``; return one of those dicts (the very
        object or an equal dict).  ``rng`` is a ``random.Random``; use it only to break ties."""

    def determinize(self, view: dict, rng: random.Random) -> Game:
        """Levels 3-4 (required): a full game state (an instance of the game's class, built by
        ``Game.sampled``) consistent with everything the seat has seen: its own hand, the public
        piles, the view's ``log`` of the current deal (cards played, voids shown by failing to
        follow, cards it gave or was given, revealed musik or przykup, melds shown, exchanges),
        with every card it cannot see dealt at random among the places where it may be.  The
        state must be the one the view shows: ``to_move`` is the view's seat, ``phase``, scores,
        trick, trump, deal number are the same, and ``_legal()`` equals the view's
        ``legal_actions`` (same canonical JSON, any order).  ``clone()`` must be a correct copy.
        ``bots.sampling.sample_cards`` deals hidden cards under constraints.  The plug-in may
        use game internals freely."""

    def determinizer(self, view: dict):
        """Optional: ``determinize`` split in two, for a search that deals many samples of one
        view (the expert's tree: one a play-out): what the view tells read once, and a callable
        ``deal(rng) -> Game`` that makes each sample with the very draws ``determinize(view,
        rng)`` makes.  [``lambda rng: determinize(view, rng)``]"""

    def rollout_policy(self, game: Game, rng: random.Random) -> dict:
        """A fast policy on a full state, used to finish a deal in search; may use internals
        (``game._legal()``, hands as masks).  Must return an element of ``game._legal()``.
        [a random element of ``game._legal()``]"""

    def rollout_play(self, game: Game, rng: random.Random) -> None:
        """Optional: one step of ``rollout_policy`` applied to ``game`` in place, with the same
        draws from ``rng`` and the same resulting state, but without building the action's
        dict for ``_apply`` to read back (a play-out's every step).
        [``game._apply(rollout_policy(game, rng))``]"""

    def clone(self, game: Game) -> Game:
        """A copy of a search state for one rollout or one solver node: ``_apply`` on the copy
        must leave ``game`` as it was (the plug-in may copy only the fields play changes, and
        share the RNG as ``fast_clone`` does).  Only speed: the generic search and solver call
        it.  [``bots.search.fast_clone``]"""

    def deal_over(self, game: Game, start: Game) -> bool:
        """Whether a rollout from the root state ``start`` is finished.  Multi-deal games stop
        at the end of the current deal (their ``_apply`` scores a deal and starts the next one).
        [``game.to_move is None or game.deal_no != start.deal_no``]"""

    def evaluate(self, game: Game, seat: int, start: Game) -> float:
        """The value of a finished rollout for ``seat``, higher is better.  Used for both
        rollouts and the exact endgame, so keep it on one scale (e.g. expected match-win chance
        or score margin).  [1/0 for a finished game won/lost by ``seat`` (a list winner counts if
        ``seat`` is in it); otherwise the change of ``scores[seat]`` since ``start`` minus the
        mean change of the other seats' scores]"""

    def solvable(self, game: Game, start: Game) -> bool:
        """Level 4: whether the rest of the deal in this sampled state has no chance events
        left (no draws from a stock, no hidden deal) and is small enough to solve exactly; the
        generic solver (``bots.solver.solve``) then runs alpha-beta with the root seat's side
        maximising ``evaluate`` and everyone else minimising it ("paranoid" search; exact for two
        sides), up to the budget's ``solve_nodes`` nodes per decision sample (beyond that, or
        past the time cap, it falls back to rollouts).  [False]"""

    def solve_evaluate(self, game: Game, seat: int, start: Game) -> float:
        """The solver's leaf value, if it should differ from the rollouts' (e.g. plain win/loss
        without a point-margin tie-break, which lets alpha-beta cut far more).  [``evaluate``]"""

    def state_key(self, game: Game) -> Hashable | None:
        """Identifies a sampled state for the solver: equal keys are solved once per decision
        (e.g. two-player 66 once the stock is gone, where every sample is the same open
        position).  [``None``: every sample is solved]"""

    def same_side(self, game: Game, a: int, b: int) -> bool:
        """Partners (euchre's pairs): the solver lets the root seat's partner maximise too.
        [``a == b``]"""

    def order_actions(self, game: Game, actions: list) -> list:
        """Move ordering for the solver (best first): only speed.  [unchanged]"""

    def search_values(self, view: dict, legal: list, rng: random.Random, budget: dict,
                      stats: dict, level: int) -> list[float]:
        """Replaces the generic search at levels 3 and 4: one value per element of ``legal``
        (higher is better), from determinized search however the game needs it (e.g. calling
        ``bots.search.search`` with a prior from the rules, or a separate evaluation for bids).
        Budgets are its to keep.  [``bots.search.search``]"""


# --- the defaults -----------------------------------------------------------------------------

def default_rollout_policy(game, rng):
    return rng.choice(game._legal())


def default_deal_over(game, start):
    return game.to_move is None or game.deal_no != start.deal_no


def default_evaluate(game, seat, start):
    if game.to_move is None and game.winner is not None:
        w = game.winner
        return 1.0 if (seat in w if isinstance(w, (list, tuple)) else seat == w) else 0.0
    d = [game.scores[s] - start.scores[s] for s in range(game.n)]
    others = [d[s] for s in range(game.n) if s != seat]
    return d[seat] - (sum(others) / len(others) if others else 0.0)


def default_solvable(game, start):
    return False


def default_state_key(game):
    return None


def default_same_side(game, a, b):
    return a == b


def default_order_actions(game, actions):
    return actions


class Hooks:
    """A plug-in's interface with every optional hook resolved (``hooks(module)``).

    ``rule_policy`` and ``determinize`` are ``None`` when the plug-in lacks them (the levels
    fall back); ``module`` is the plug-in (``None`` for a game without one).  The solver and the
    search compare a hook with its default (``is``) to skip a call that changes nothing."""

    __slots__ = ("module", "rule_policy", "determinize", "determinizer", "rollout_policy",
                 "rollout_play", "clone", "deal_over", "evaluate", "solvable", "solve_evaluate",
                 "state_key", "same_side", "order_actions", "search_values", "budgets")

    def __init__(self, module: Any):
        get = (lambda name, default: getattr(module, name, default)) if module is not None \
            else (lambda name, default: default)
        self.module = module
        self.rule_policy = get("rule_policy", None)
        self.determinize = get("determinize", None)
        determinize = self.determinize
        self.determinizer = get("determinizer", None) or (
            lambda view: (lambda rng: determinize(view, rng)))
        self.rollout_policy = get("rollout_policy", default_rollout_policy)
        policy = self.rollout_policy
        self.rollout_play = get("rollout_play", None) or (
            lambda game, rng: game._apply(policy(game, rng)))
        from .search import fast_clone  # here: search imports this module
        self.clone = get("clone", fast_clone)
        self.deal_over = get("deal_over", default_deal_over)
        self.evaluate = get("evaluate", default_evaluate)
        self.solvable = get("solvable", default_solvable)
        self.solve_evaluate = get("solve_evaluate", None) or self.evaluate
        self.state_key = get("state_key", default_state_key)
        self.same_side = get("same_side", default_same_side)
        self.order_actions = get("order_actions", default_order_actions)
        self.search_values = get("search_values", None) or self._generic_search_values
        self.budgets = get("BUDGETS", {})

    def _generic_search_values(self, view, legal, rng, budget, stats, level):
        from .search import search
        return search(self, view, legal, rng, budget, stats)


def hooks(module: Any) -> Hooks:
    """Every hook of the plug-in ``module`` resolved (a ``Hooks`` is returned as it is)."""
    if type(module) is Hooks:
        return module
    return Hooks(module)


def plugin(game_id: str):
    """The bot plug-in module of a game (its ``GameSpec.bots``), or ``None`` when the game has
    none."""
    from ..games import spec
    return spec(game_id).load("bots")
