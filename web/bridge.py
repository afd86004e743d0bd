"""The page's side of the engine, run by Pyodide inside the worker (web/worker.js): the
worker's one table session (``atut.table``) and the JSON messages to and from it.

``handle(op, args_json, caller)`` returns JSON text ``{"ok": true, "result": ...}``,
``{"ok": true, "jobs": [...]}`` or ``{"ok": true, "ask": {...}}`` (the op waits for the pool's
results or a student's bot's move: ``atut.table.ops``), or ``{"ok": false, "error": "message"}``.
``caller`` is who sent the request, as the worker knows it: ``page``, ``pool``, ``lab`` or
``worker``; the ops' registry (``atut.table.OPS``) says who may ask for what.  The ``debug_*``
ops answer only when the page was opened with ``debug=1`` (the worker sets ``DEBUG``).
"""

from __future__ import annotations

from atut.table import Dispatcher

DEBUG = False
DESK = Dispatcher()


def handle(op, args_json, caller="page"):
    DESK.debug = DEBUG
    return DESK.handle(op, args_json, caller)

