"""What the table session knows about particular games: the one place to move into the game
registry (each game declaring these itself) when there is one.

- ``REVIEW_SCALE``: a reviewed decision's loss is graded in these units of the game's measure
  (docs/BOTS.md "Analysis"); a game not named here grades in units of 1.
- ``DEAL_END_EVENTS``: the event types that close a deal's last trick in the log: every game's
  ``trick``, and cesarz's ``interrupted`` (a trick cut short by the emperor, G14).
"""

from __future__ import annotations

REVIEW_SCALE: dict[str, float] = {"sixty_six": 1.0, "euchre": 4.0, "imperial": 50.0,
                                  "cesarz": 1.0, "tysiac1001": 1.0}
DEAL_END_EVENTS: tuple[str, ...] = ("trick", "interrupted")


def review_scale(game_id: str) -> float:
    """The unit a loss of ``game_id`` is graded in."""
    return REVIEW_SCALE.get(game_id, 1.0)
