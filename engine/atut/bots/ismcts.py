"""Single-tree information-set Monte Carlo tree search (SO-ISMCTS), for every game's plug-in.

One tree over what the searching seat knows: each iteration deals the hidden cards afresh
(the plug-in's ``determinize``: every game's consistent deal, weighted by what the others'
bids and plays imply where the plug-in infers), walks the tree with only the actions that are
legal in that deal (each child counts how often it was available, so a card a seat held in few
deals is not over-explored), adds one node, finishes the deal with the plug-in's
``rollout_policy`` and backs the plug-in's ``evaluate`` up for the seat that chose each step.
No tree is kept between decisions; only what public events proved is pinned (the
determinization's job).  Once the plug-in says a sampled state is ``solvable`` (nothing hidden
left, few cards), the exact solver of ``bots.search`` values the root's actions instead.

Budget keys (``bots.catalogue``, the expert level): ``iterations`` (counted, so decisions are
seeded and repeatable), ``uct_c`` (the exploration constant, on ``evaluate``'s scale),
``time_cap`` and ``clock`` (a safety net, as in ``bots.search``), ``solve_nodes``.

Returns one value per legal action, the mean of its visits, and the visit counts: the bot plays
the most visited action (the mean breaks ties), a robust choice (Cowling, Powley and Whitehouse,
"Information Set Monte Carlo Tree Search", 2012).
"""

from __future__ import annotations

import math
import random

from ..game import canonical
from .catalogue import timer
from .interface import hooks
from .search import play_out


class _Node:
    __slots__ = ("kids", "n", "w", "avail")

    def __init__(self):
        self.kids: dict = {}          # key -> _Node
        self.n = 0                    # visits
        self.w = 0.0                  # total value for the seat that chose this node
        self.avail = 0                # iterations in which this node's action was legal


def _key(action: dict):
    """An action's key in the tree: its fields as a frozenset, a few times cheaper than its
    canonical JSON and equal exactly when the actions are (every game's actions hold scalars,
    each field always of one type, so ``True`` and ``1`` never meet in a field); an action
    holding a list or a dict falls back to its canonical JSON."""
    try:
        return frozenset(action.items())
    except TypeError:
        return canonical(action)


def _int_moves(g) -> bool:
    """Whether the state has the integer-move path (``_listed_moves``/``_moves`` and ``_do``)."""
    return hasattr(g, "_do") and (hasattr(g, "_listed_moves") or hasattr(g, "_moves"))


def search(p, view: dict, legal: list, rng: random.Random, budget: dict,
           stats: dict | None = None) -> tuple[list[float], list[int]]:
    """``(values, visits)``, one of each per element of ``legal``."""
    h = hooks(p)
    deal, clone = h.determinizer(view), h.clone
    over, evaluate = h.deal_over, h.evaluate
    seat = view["seat"]
    keys = [_key(a) for a in legal]
    root = _Node()
    kids = [_Node() for _ in keys]
    root.kids = dict(zip(keys, kids))
    c = budget["uct_c"]
    iterations = budget["iterations"]
    clock, deadline = timer(budget)
    done = 0
    for _ in range(iterations):
        g = deal(rng)
        g._one_deal = True                  # play stops where the deal ends (Game._next_deal)
        start = g
        fast = _int_moves(g)
        moves_of = getattr(type(g), "_listed_moves", None) or getattr(type(g), "_moves", None)
        by_key = {_key(a): a for a in g._legal()}
        # the root: every legal action is available in every deal
        node = root
        root.avail += 1
        for k in kids:
            k.avail += 1
        s = clone(g)
        path = []
        untried = [i for i, k in enumerate(kids) if k.n == 0]
        if untried:
            i = untried[rng.randrange(len(untried))]
        else:
            log_n = math.log(root.n)
            i = max(range(len(kids)), key=lambda j: kids[j].w / kids[j].n
                    + c * math.sqrt(log_n / kids[j].n))
        node = kids[i]
        s._apply(by_key[keys[i]])
        path.append((node, seat))
        expanded = node.n == 0
        # below the root: int moves where the game has them, action keys otherwise
        while not expanded and not over(s, start):
            mover = s.to_move
            if fast:
                acts = moves_of(s)
                ks = acts
            else:
                acts = s._legal()
                ks = [_key(a) for a in acts]
            table = node.kids
            fresh = []
            best, best_v = -1, -math.inf
            for j, k in enumerate(ks):
                child = table.get(k)
                if child is None:
                    fresh.append(j)
                    continue
                child.avail += 1
                if child.n:
                    v = child.w / child.n + c * math.sqrt(math.log(child.avail) / child.n)
                    if v > best_v:
                        best, best_v = j, v
            if fresh:
                j = fresh[rng.randrange(len(fresh))]
                child = table[ks[j]] = _Node()
                child.avail = 1
                expanded = True
            else:
                j = best
                child = table[ks[j]]
            if fast:
                s._do(acts[j])
            else:
                s._apply(acts[j])
            s._cache = None
            node = child
            path.append((child, mover))
        play_out(h, s, start, rng)
        values = {}
        root.n += 1
        for nd, who in path:
            v = values.get(who)
            if v is None:
                v = values[who] = evaluate(s, who, start)
            nd.n += 1
            nd.w += v
        done += 1
        if clock() > deadline:
            break
    if stats is not None:
        stats["samples"] = done
        stats["decisions"] = stats.get("decisions", 0) + 1
        stats["capped"] = stats.get("capped", 0) + (done < iterations)
    return ([k.w / k.n if k.n else 0.0 for k in kids], [k.n for k in kids])
