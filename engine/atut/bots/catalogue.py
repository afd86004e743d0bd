"""The bot levels, described once as data: what every other place reads.

``LEVEL_TABLE`` lists each level's number, the name a link or a command may use for it, the
algorithm that decides (``bots.levels`` maps it to a class), its generic counted budgets (a
game's plug-in overrides them per level: ``BUDGETS`` in ``bots/<game>.py``) and how many
independent shards a decision's search is split into (``bots.shards``).  The engine
(``make_bot``, ``parse_level``), the searches (``search.BUDGETS``, ``shards.SHARDS``), the
arena, the soak and play commands, the tournament and the table's ``info`` (which gives the
page's menu its levels) read it; adding a level is one row here and a class for a new
algorithm.

Budget keys (``bots.search``): ``rollouts``: total rollouts (or solved samples) per decision,
spread evenly over the legal actions; ``min_samples``: at least this many determinizations
even when there are many actions; ``time_cap``: seconds, a safety net only; ``solve_nodes``:
the node limit per exact endgame solve; ``clock``: "wall" (the page) or "cpu" (the arena and
benchmarks on a shared machine, where other processes' load must not cut searches short);
``rule_bonus``: added to the mean value of the level-2 action, so that the search departs from
the rules only for a clearly better action (0: pure search); ``common_rollouts``: the rollouts
of all actions in one sample share one random stream (off until measured in the arena).
The tree search (``bots.ismcts``): ``iterations`` (fresh deals, one play-out each, counted)
and ``uct_c`` (its exploration constant on ``evaluate``'s scale); its exact endgames use
``rollouts``, ``min_samples`` and ``solve_nodes`` as ``bots.search`` does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from types import MappingProxyType


def timer(budget) -> tuple:
    """A search's ``(clock, deadline)``: the budget's clock (CPU time when its ``clock`` is
    "cpu", else wall time) and the time ``time_cap`` seconds from now by that clock, the
    safety net every search checks (``clock() > deadline``)."""
    clock = time.process_time if budget.get("clock") == "cpu" else time.perf_counter
    return clock, clock() + budget["time_cap"]


@dataclass(frozen=True)
class Level:
    number: int
    name: str                   # "search": ``--bots search``, ``bots=search`` in a link
    algorithm: str              # "random", "rules", "pimc", "pimc+solve", "ismcts" (bots.levels)
    about: str                  # one line for help texts and ``info``
    budget: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    shards: int = 1

    def to_dict(self) -> dict:
        return {"number": self.number, "name": self.name, "algorithm": self.algorithm,
                "about": self.about, "budget": dict(self.budget), "shards": self.shards}


def _b(**kw) -> MappingProxyType:
    return MappingProxyType(kw)


LEVEL_TABLE: tuple[Level, ...] = (
    Level(1, "random", "random", "a uniformly random legal action"),
    Level(2, "rules", "rules", "the game's rule policy: what a good player would recognise"),
    Level(3, "search", "pimc",
          "determinized search (perfect-information Monte Carlo) with fast play-outs",
          _b(rollouts=300, min_samples=8, time_cap=0.3, solve_nodes=0, clock="wall",
             rule_bonus=0.0, common_rollouts=False)),
    Level(4, "strong", "pimc+solve",
          "a larger determinized search with exact open-card endgames, in four shards",
          _b(rollouts=1000, min_samples=20, time_cap=1.0, solve_nodes=4000, clock="wall",
             rule_bonus=0.0, common_rollouts=False),
          shards=4),
    Level(5, "expert", "ismcts",
          "single-tree information-set MCTS over fresh deals, exact endgames",
          _b(iterations=2000, uct_c=0.4, rollouts=300, min_samples=8, time_cap=1.0,
             solve_nodes=6000, clock="wall", rule_bonus=0.0, common_rollouts=False)),
)

BY_NUMBER = MappingProxyType({lv.number: lv for lv in LEVEL_TABLE})
NUMBERS = tuple(lv.number for lv in LEVEL_TABLE)
NAMES = MappingProxyType({lv.name: lv.number for lv in LEVEL_TABLE})
SEARCH_LEVELS = tuple(lv.number for lv in LEVEL_TABLE if lv.budget)


def describe() -> list[dict]:
    """The table's public part as JSON-safe rows, for the table's ``info`` (the page's menu):
    number, name, algorithm and what it does; budgets and shards stay the engine's."""
    return [{"number": lv.number, "name": lv.name, "algorithm": lv.algorithm, "about": lv.about}
            for lv in LEVEL_TABLE]


def spelled() -> str:
    """``"1-4 or random, rules, search, strong"``: how help and error texts name the levels."""
    return f"{NUMBERS[0]}-{NUMBERS[-1]} or {', '.join(NAMES)}"
