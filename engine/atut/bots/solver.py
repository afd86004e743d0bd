"""The generic exact endgame of level 4: alpha-beta on open cards (``solve``)."""

from __future__ import annotations

import math
import time

from .interface import default_order_actions, default_same_side, hooks


class _SolveLimit(Exception):
    """A solve went past its node limit or its deadline."""


_last_nodes = [0]          # nodes of the latest ``solve`` (read by ``search``)


def solve(p, game, start, seat, max_nodes: int, deadline: float | None = None,
          clock=time.perf_counter) -> float:
    """Exact value of ``game`` for ``seat``'s side by alpha-beta (everyone else minimising);
    ``_SolveLimit`` past ``max_nodes`` nodes or past ``deadline`` (by ``clock``).  ``p``: the
    plug-in module or its resolved ``hooks``."""
    h = hooks(p)
    over = h.deal_over
    evaluate = h.solve_evaluate
    same = h.same_side if h.same_side is not default_same_side else None
    order = h.order_actions if h.order_actions is not default_order_actions else None
    clone = h.clone
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
                c = clone(g)
                c._apply(a)
                v = max(v, ab(c, alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in acts:
            c = clone(g)
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
