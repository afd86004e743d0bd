"""Every doctest in the engine runs (and passes) in the test suite."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import atut

MODULES = ["atut"] + sorted(m.name for m in pkgutil.walk_packages(atut.__path__, "atut."))
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("name", MODULES)
def test_doctests_of(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=FLAGS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctests fail in {name}"


def test_the_engine_has_doctests_that_play_a_hand():
    finder = doctest.DocTestFinder()
    examples = sum(len(t.examples) for t in finder.find(atut))
    assert examples >= 10


@pytest.mark.parametrize("name, at_least", [("atut.botkit", 25), ("atut.lab", 5),
                                            ("atut.lab.help", 3)])
def test_the_bot_lab_modules_are_documented_by_examples(name, at_least):
    """The students' helpers (docs/LAB.md) teach by doctests, which the walk above runs."""
    assert name in MODULES
    module = importlib.import_module(name)
    examples = sum(len(t.examples) for t in doctest.DocTestFinder().find(module))
    assert examples >= at_least
