"""web/lab_bridge.py's game steps in CPython (docs/LAB.md, "Boxes"): the lab worker's own loop
(``game_run_step``, op ``game_run`` in web/lab-worker.js) sends each bot file's decision to its
box as the box protocol's request and gets the same records as the page-driven ``game_send``."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import atut

_spec = importlib.util.spec_from_file_location(
    "atut_lab_bridge", Path(__file__).resolve().parents[1] / "web" / "lab_bridge.py")
lb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lb)

SPECS = [{"name": "first.py", "level": None}, {"name": "two.py", "level": 2}]


def _task(d):
    return ["sixty_six", 2, SPECS, [0, 1], [0, 1], d, 5, "deal"]


def _start(task):
    r = json.loads(lb.handle("game_start", json.dumps({"task": task})))
    assert r["ok"]
    return r["result"]


def _by_send(task, pick):
    r = _start(task)
    while "done" not in r:
        req = r["req"]
        answer = {"0": None} if req["op"] == "open" else {"ok": pick(req["view"]), "seconds": 0.001}
        out = lb.handle("game_send", json.dumps({"id": r["id"], "answer": answer}))
        r = json.loads(out)["result"]
    return r["done"]


def _by_run(task, pick, seen=None):
    r = _start(task)
    assert r["req"] == {"op": "open", "seats": [0]}
    out = lb.game_run_step(r["id"], json.dumps({"0": None}))
    while out.startswith("choose "):
        seat, text = out[len("choose "):].split(" ", 1)
        req = json.loads(text)
        assert set(req) == {"op", "view"} and req["op"] == "choose" and seat == "0"
        if seen is not None:
            seen.append(req["view"])
        out = lb.game_run_step(r["id"], json.dumps({"ok": pick(req["view"]), "seconds": 0.001}))
    reply = json.loads(out)
    assert reply["ok"]
    return reply["result"]["done"]


def _same(rec):
    return {k: v for k, v in rec.items() if k != "times"}


def test_the_workers_loop_plays_the_games_game_send_plays():
    first = lambda v: v["legal_actions"][0]                     # noqa: E731
    for d in range(3):
        seen = []
        rec = _by_run(_task(d), first, seen)
        assert _same(rec) == _same(_by_send(_task(d), first))
        assert rec["error"] is None and rec["decisions"]["0"] == len(seen) > 3
        # each request carries the view of the file's seat at its turn, as the engine shows it
        save = rec["save"]
        g = atut.new_game("sixty_six", players=2, seed=save["seed"], dealer=save["dealer"],
                          deck=save["deck"])
        views = []
        for a in save["actions"]:
            if g.to_move == 0:
                views.append(json.loads(json.dumps(g.view(0))))
            g.apply(a)
        assert seen == views


def test_a_bad_answer_ends_the_game_with_the_bots_error_and_a_bad_id_is_refused():
    rec = _by_run(_task(0), lambda v: {"type": "nonsense"})
    assert rec["error"]["kind"] == "illegal" and rec["error"]["seat"] == 0
    r = _start(_task(1))
    out = lb.game_run_step(r["id"], json.dumps({"0": None}))
    assert out.startswith("choose 0 ")
    out = lb.game_run_step(r["id"], json.dumps({"error": {"kind": "timeout", "messages": {
        "en": "no answer", "pl": "brak odpowiedzi"}, "line": None}, "seconds": 1.0}))
    done = json.loads(out)["result"]["done"]
    assert done["error"]["kind"] == "timeout"
    bad = json.loads(lb.game_run_step(12345, json.dumps(None)))
    assert bad["ok"] is False and "no game" in bad["error"]
