"""Small helpers shared by the engine test files."""

from __future__ import annotations

from atut import cards as C


def cards_in(obj) -> set[str]:
    """Every card code anywhere in a JSON-safe structure (keys included)."""
    found = set()
    if isinstance(obj, str):
        if obj in C.CARD:
            found.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            found |= cards_in(k) | cards_in(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            found |= cards_in(v)
    return found


def play(game, card, companion=None, meld=None):
    """Apply a ``play`` action, with the optional ``companion`` and ``meld`` fields."""
    a = {"type": "play", "card": card}
    if companion:
        a["companion"] = companion
    if meld:
        a["meld"] = meld
    game.apply(a)


def legal_cards(game) -> set[str]:
    return {a["card"] for a in game.legal_actions() if a["type"] == "play"}


def plain(e: dict) -> dict:
    """An event without the fields that explain it (rule ids, score lines: ``EXPLAIN_FIELDS``,
    docs/ENGINE.md), as the rules' worked examples state it."""
    from atut.game import EXPLAIN_FIELDS
    return {k: v for k, v in e.items() if k not in EXPLAIN_FIELDS}


def plain_events(game) -> list[dict]:
    return [plain(e) for e in game.events]


def events(game, t) -> list[dict]:
    return [plain(e) for e in game.events if e["type"] == t]


def need_pyspiel():
    """pyspiel, or the calling test module skipped when open-spiel is not installed (never on
    CI, where it is part of requirements-dev.txt).  Call it at the module's top."""
    import os

    import pytest
    try:
        import pyspiel
    except ImportError:                                          # pragma: no cover
        if os.environ.get("CI") == "true":
            raise
        pytest.skip("open-spiel is not installed (pip install '.[openspiel]')",
                    allow_module_level=True)
    return pyspiel
