"""The table session: what the page's worker runs for a person playing against bots.

- ``session.Table``: one game, the person's seat, the bots; turns, undo, hints, the review and
  its grades, teaching mode, outside seats (a student's bot from the lab), save and resume.
- ``ops``: every operation, declared once with who may call it (the page, the pool of search
  workers, the lab), and the ``Dispatcher`` that runs them; ``web/bridge.py`` only turns JSON
  messages into its calls.
- ``exchange``: what an op needs from outside before it decides (a level-4 search's shards,
  a student's bot's move), asked for explicitly.
- ``checks``: the checks of what comes from outside (budgets, JSON nesting, jobs, seats).

    >>> from atut.table import Table
    >>> t = Table()
    >>> t.new_game("euchre", players=4, seed=1, levels=[1])["view"]["seat"]
    0
"""

from __future__ import annotations

from .exchange import Ask, Jobs, finish
from .ops import CALLERS, LAB, OPS, PAGE, POOL, WORKER, Dispatcher, Op, info
from .session import Table

__all__ = ["CALLERS", "LAB", "OPS", "PAGE", "POOL", "WORKER", "Ask", "Dispatcher", "Jobs", "Op",
           "Table", "finish", "info"]
