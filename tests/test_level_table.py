"""The bot levels are described once (``atut.bots.catalogue.LEVEL_TABLE``): every place that
needs a level's number, name, budgets or shards reads the table (docs/BOTS.md)."""

from __future__ import annotations

import pathlib
import re

import pytest

import atut
from atut import arena
from atut.bots import BUDGETS, LEVELS, NAMES, make_bot, parse_level, shards
from atut.bots.catalogue import LEVEL_TABLE, NUMBERS, SEARCH_LEVELS, describe
from atut.table.ops import info

ENGINE = pathlib.Path(atut.__file__).parent


def test_every_reader_follows_the_table():
    assert NUMBERS == tuple(sorted(NUMBERS)) and len(set(NUMBERS)) == len(NUMBERS)
    assert NAMES == {lv.name: lv.number for lv in LEVEL_TABLE}
    assert set(LEVELS) == set(NUMBERS)
    for lv in LEVEL_TABLE:
        assert LEVELS[lv.number].level == lv.number
        assert parse_level(lv.name) == parse_level(str(lv.number)) == lv.number
        assert arena.bot_name(lv.number) == f"{lv.number} {lv.name}"
        if lv.number in SEARCH_LEVELS:
            assert BUDGETS[lv.number] == dict(lv.budget)
            assert shards.SHARDS[lv.number] == lv.shards
            bot = make_bot("sixty_six", lv.number, seed=1)
            assert {k: bot.budget[k] for k in lv.budget if k not in ("rollouts", "min_samples",
                                                                      "solve_nodes")} \
                == {k: v for k, v in lv.budget.items()
                    if k not in ("rollouts", "min_samples", "solve_nodes")}
        else:
            with pytest.raises(ValueError, match="search levels"):
                make_bot("sixty_six", lv.number, budget={"rollouts": 1})
    got = info()
    assert got["levels"] == dict(NAMES)
    assert got["level_table"] == describe()


@pytest.mark.parametrize("bad", [0, 6, "6", "expert?", 3.0, True, None])
def test_a_level_not_in_the_table_is_refused_with_the_table_s_words(bad):
    with pytest.raises(ValueError, match="random, rules, search, strong, expert"):
        parse_level(bad)


def test_no_engine_module_lists_the_levels_by_hand():
    """The lists that used to name the levels in a dozen places: none outside the table (the
    rules modules, where (1, 2, 3, 4) counts seats, are not bot code)."""
    by_hand = re.compile(r"\(1, 2, 3, 4\)|\[1, 2, 3, 4\]|\{1: RandomBot|\"1,2,3,4\"|"
                         r"\"random\": 1, \"rules\": 2")
    found = [str(p.relative_to(ENGINE)) for p in ENGINE.rglob("*.py")
             if p.parent.name != "games" and by_hand.search(p.read_text())]
    assert found == []
