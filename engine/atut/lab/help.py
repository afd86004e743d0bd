"""The lab's help panel: every field of a game's view, described in Polish and English, and an
example view from a real position (filled in below)."""

from __future__ import annotations


def view_help(game_id: str) -> dict:
    raise NotImplementedError("view_help: in progress")
