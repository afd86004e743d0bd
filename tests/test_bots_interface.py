"""The plug-in interface (``bots/interface.py``): every hook resolved once, defaults filled in."""

from __future__ import annotations

import types

import atut
from atut import bots as B
from atut.bots.interface import (
    Hooks,
    Plugin,
    default_deal_over,
    default_evaluate,
    default_order_actions,
    default_rollout_policy,
    default_same_side,
    default_solvable,
    default_state_key,
)


def test_hooks_fill_the_defaults_of_a_bare_plugin():
    bare = types.ModuleType("bare")
    h = B.hooks(bare)
    assert h.rule_policy is None and h.determinize is None
    assert h.rollout_policy is default_rollout_policy
    assert h.deal_over is default_deal_over
    assert h.evaluate is default_evaluate and h.solve_evaluate is default_evaluate
    assert h.solvable is default_solvable and h.state_key is default_state_key
    assert h.same_side is default_same_side and h.order_actions is default_order_actions
    assert h.budgets == {}
    assert B.hooks(h) is h
    assert B.hooks(None).determinize is None


def test_hooks_take_the_plugins_own_functions():
    for game_id in atut.built_games():
        p = B.plugin(game_id)
        h = B.hooks(p)
        for name in Hooks.__slots__:
            if name in ("module", "budgets"):
                continue
            if hasattr(p, name):
                assert getattr(h, name) is getattr(p, name), (game_id, name)
        assert h.budgets is p.BUDGETS
        assert h.solve_evaluate is getattr(p, "solve_evaluate", h.evaluate)


def test_every_hook_of_the_protocol_is_resolved():
    declared = {n for n in vars(Plugin) if not n.startswith("_")} | {"BUDGETS"}
    assert declared - {"BUDGETS"} <= set(Hooks.__slots__)
    assert set(Hooks.__slots__) - {"module", "budgets"} <= declared
