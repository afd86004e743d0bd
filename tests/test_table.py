"""The table session's registry (``atut.table.OPS``): every op declared once, documented, with
who may call it; the page's worker (web/worker.js) forwards what it does not handle itself
without knowing the names of the page's ops."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import atut
from atut.table import CALLERS, LAB, OPS, PAGE, POOL, WORKER, Table

WORKER_JS = Path(__file__).resolve().parents[1] / "web" / "worker.js"


def test_every_op_is_documented_and_has_callers():
    for name, op in OPS.items():
        assert op.name == name
        assert op.callers and op.callers <= set(CALLERS), name
        assert inspect.getdoc(op.handler), f"{name} has no docstring"
        assert not name.startswith("debug_") or op.debug, name


def test_the_worker_names_only_its_own_ops_and_the_python_ops_it_calls_itself():
    """worker.js names no op of the page: a page's request goes to Python as it is."""
    text = WORKER_JS.read_text(encoding="utf-8")
    own = set(re.findall(r"^  (?:async )?([a-z_]+)\(", text, re.M))
    assert {"keep", "resume", "save_file", "outside_port", "pool_ports"} <= own
    named = set(re.findall(r"""["']([a-z_]+)["']""", text)) & set(OPS)
    for name in named - own:
        assert OPS[name].callers & {WORKER, LAB, POOL}, f"worker.js routes the page's {name}"
    page_only = {n for n, op in OPS.items() if op.callers == {PAGE}}
    assert not (named & page_only), named & page_only


def test_the_typed_api_plays_a_game_to_its_end():
    t = Table()
    r = t.new_game("imperial", players=2, seed=4, seat=1, levels=[2])
    while not r["view"]["is_over"]:
        if t.game.to_move == t.seat:
            r = t.act(t.view()["legal_actions"][0])
        else:
            r = t.bot_step()
    assert r["result"]["type"] in ("deal_over", "game_over")
    again = Table()
    assert again.load(t.save(), seat=1, levels=[2])["view"] == t.view()
    assert atut.load_game(t.save()).is_over
