"""Learn to play: guided first deals (docs/PAGE.md "Learn to play").

A lesson is one seeded deal of a game, the person at seat 0 and level-2 bots in the other seats
(``bot_seed`` of the lesson's seed, as at any table), chosen so that it shows the game's main
rules when the person takes the suggested moves (``scripts/learn_seeds.py`` searched the seeds;
``tests/test_learn.py`` plays every lesson and checks what it claims).  ``step`` says, at each
position of the lesson, what is happening (the phase), what the person may do and the rule ids
that govern it, and which move is suggested with its reason.  Everything in a step comes from the
person's own view (the view's legal actions, its log, its hand) and from the refusals of the
person's own cards (``Game.explain``, the message the page shows when a card is tapped): never a
hidden card.  The page turns the rule ids into words (web/rules/<game>.<lang>.json) and the keys
into sentences (``learn.*`` in web/i18n/<game>.js).

Standard library only: runs on CPython and in Pyodide.
"""

from __future__ import annotations

import reprlib

LEVEL = 2               # the bots of a lesson, and the bot whose choice is suggested
SUGGEST_SEED = 0        # the suggesting bot's seed: the same view, the same suggestion
SEAT = 0                # the person's seat in a lesson

# The lessons of each game, in order: ``phases`` the phases (and kinds of action, ``action_kind``)
# the person acts in and ``rules`` the rule ids the deal names (its log, its score lines, the
# guide's steps) when the person takes the suggested moves; ``not_dealer``: the person is not
# the dealer (who sits out); ``why``: why this deal.  The i18n key ``learn.lesson.<id>`` says
# it to the person.
LESSONS: dict[str, list[dict]] = {
    "cesarz": [
        {"id": "cesarz-3", "players": 3, "seed": 10, "options": {},
         "phases": ["bid", "give", "play", "meld"],
         "rules": ["G7", "G8", "G9", "G11", "G13", "G14", "G16", "G17", "G20", "G22", "G23"],
         "why": "three players, all dealt in: you win the bidding, take the musik and give a "
                "card to each player, a meld makes trump, the emperor interrupts a trick, and "
                "you score as the declarer"},
        {"id": "cesarz-4", "players": 4, "seed": 0, "options": {}, "not_dealer": True,
         "phases": ["bid", "play", "companion"],
         "rules": ["G1", "G9", "G10", "G13", "G14", "G17", "G22", "G23"],
         "why": "four players (five are the same): the dealer sits out and is credited for the "
                "musik's aces, jokers and emperor; you play a joker with its companion"},
    ],
    "euchre": [
        {"id": "euchre-1", "players": 4, "seed": 2, "options": {},
         "phases": ["round1", "discard", "alone", "play"], "rules": ["G7", "G9", "G14"],
         "why": "you are the dealer: the upcard is ordered up in round one, you pick it up and "
                "discard, choose not to go alone, and the makers score"},
        {"id": "euchre-2", "players": 4, "seed": 50, "options": {},
         "phases": ["round1", "round2", "play"], "rules": ["G8", "G14"],
         "why": "everybody passes the upcard: trump is named in round two"},
        {"id": "euchre-3", "players": 4, "seed": 12, "options": {},
         "phases": ["defend", "play"], "rules": ["G10", "G14"],
         "why": "a maker goes alone and his partner sits out: you may defend alone"},
    ],
    "imperial": [
        {"id": "imperial-2", "players": 2, "seed": 7, "options": {},
         "phases": ["play"], "rules": ["G5", "G6", "G10", "G11", "G14", "G15"],
         "why": "two players, 32 cards: the turned honour, an imperial, the point and the "
                "honours scored as the deal starts, a trump honour led, the tricks bonus"},
        {"id": "imperial-3", "players": 3, "seed": 14, "options": {},
         "phases": ["play"], "rules": ["G6", "G10", "G11", "G14", "G15"],
         "why": "three players, 36 cards: the six is the low honour and no card is turned"},
    ],
    "sixty_six": [
        {"id": "sixty_six-2", "players": 2, "seed": 0, "options": {},
         "phases": ["play", "exchange"], "rules": ["G8", "G9", "G10", "G14"],
         "why": "two players: you swap the trump nine, a marriage is declared, the stock runs "
                "out and suit must then be followed, and 66 ends the deal"},
        {"id": "sixty_six-4", "players": 4, "seed": 5, "options": {},
         "phases": ["play"], "rules": ["G8", "G9", "G10", "G14"],
         "why": "four players: five cards each and a stock of three"},
    ],
    "tysiac1001": [
        {"id": "tysiac1001-3", "players": 3, "seed": 11, "options": {},
         "phases": ["bid", "give", "announce", "play", "meld"],
         "rules": ["G6", "G8", "G9", "G10", "G13", "G15", "G17"],
         "why": "three players: you win the bidding, take the przykup, hand two cards out, "
                "announce the contract, declare a marriage and make the contract"},
        {"id": "tysiac1001-3d", "players": 3, "seed": 2, "options": {},
         "phases": ["decide", "give", "announce", "play"],
         "rules": ["G7", "G8", "G9", "G10", "G17"],
         "why": "both other players pass before any bid: you take the przykup without a bid "
                "and decide to play on"},
        {"id": "tysiac1001-4", "players": 4, "seed": 4, "options": {}, "not_dealer": True,
         "phases": ["bid", "play"], "rules": ["G6", "G13", "G16", "G17"],
         "why": "four players: the dealer gets no cards and is credited for the przykup"},
    ],
}

# What each phase is about: its rule ids (docs/rules/<game>.md); the page words the phase with
# ``learn.phase.<phase>`` of the game.
PHASE_RULES: dict[str, dict[str, tuple[str, ...]]] = {
    "cesarz": {"bid": ("G5", "G7", "G8"), "give": ("G9", "G11"),
               "play": ("G12", "G18", "G19", "G20", "G27")},
    "euchre": {"round1": ("G3", "G7"), "round2": ("G8",), "discard": ("G9",),
               "alone": ("G10", "G11"), "defend": ("G10",),
               "play": ("G4", "G6", "G12", "G13", "G16", "G17")},
    "imperial": {"play": ("G13", "G14", "G19")},
    "sixty_six": {"play": ("G5", "G7", "G13", "G15")},
    "tysiac1001": {"bid": ("G4", "G5", "G6"), "decide": ("G7",), "give": ("G9",),
                   "announce": ("G10",), "play": ("G11", "G12", "G19")},
}

# The rule ids of each kind of action (its type, and a field it carries: "meld", "companion").
ACTION_RULES: dict[str, dict[str, tuple[str, ...]]] = {
    "cesarz": {"bid": ("G8",), "pass": ("G8",), "give": ("G11",), "play": ("G19",),
               "meld": ("G16", "G17"), "companion": ("G13", "G15")},
    "euchre": {"order_up": ("G7",), "pass": ("G7", "G8"), "name": ("G8",), "discard": ("G9",),
               "alone": ("G10",), "defend_alone": ("G10",), "play": ("G6",)},
    "imperial": {"play": ("G13",)},
    "sixty_six": {"play": ("G6",), "meld": ("G9",), "exchange": ("G10",)},
    "tysiac1001": {"bid": ("G6",), "pass": ("G6",), "play_on": ("G7",), "give_up": ("G7",),
                   "give": ("G9",), "announce": ("G10",), "play": ("G12",), "meld": ("G13",)},
}

# The rule ids that say how a deal is scored (the walk-through's lines name their own).
SCORE_RULES: dict[str, tuple[str, ...]] = {
    "cesarz": ("G21", "G22", "G23", "G24"), "euchre": ("G14", "G15"),
    "imperial": ("G12", "G15", "G16", "G17", "G18"), "sixty_six": ("G11", "G12", "G14"),
    "tysiac1001": ("G14", "G15", "G17", "G18"),
}

# The rule ids that say what a player count changes, and how a deal is set up (said at the start
# of a lesson).
COUNT_RULES: dict[str, dict[int, tuple[str, ...]]] = {
    "cesarz": {2: ("G1", "G2", "G3", "G4", "G6"), 3: ("G1", "G2", "G3", "G4", "G6"),
               4: ("G1", "G2", "G3", "G4", "G10"), 5: ("G1", "G2", "G3", "G4", "G10")},
    "euchre": {4: ("G1", "G2")},
    "imperial": {2: ("G1", "G2", "G3", "G5", "G7", "G9"), 3: ("G1", "G2", "G3", "G4", "G9")},
    "sixty_six": {n: ("G1", "G2", "G3", "G4") for n in (2, 3, 4)},
    "tysiac1001": {3: ("G1", "G2", "G3"), 4: ("G1", "G2", "G3", "G16")},
}


def lessons(game: str) -> list[dict]:
    """The lessons of ``game`` (copies): ValueError for a game without lessons."""
    if not isinstance(game, str) or game not in LESSONS:
        raise ValueError(f"no lessons for {reprlib.repr(game)} (games: {', '.join(LESSONS)})")
    return [dict(x, number=i, count=len(LESSONS[game])) for i, x in enumerate(LESSONS[game])]


def lesson(game: str, number=0) -> dict:
    """Lesson ``number`` of ``game``."""
    all_ = lessons(game)
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < len(all_):
        raise ValueError(f"{game} has lessons 0 to {len(all_) - 1}, not {reprlib.repr(number)}")
    return all_[number]


def _uniq(ids) -> list[str]:
    out = []
    for i in ids:
        if i not in out:
            out.append(i)
    return out


def action_kind(action: dict) -> str:
    """The kind of an action for its words and rules: a card played with a meld is "meld",
    with a companion "companion", else the action's type."""
    if action.get("type") == "play":
        if action.get("meld"):
            return "meld"
        if action.get("companion"):
            return "companion"
    return str(action.get("type"))


def suggest(game_id: str, view: dict) -> dict:
    """The suggested action on the person's turn: the level-2 bot's choice of ``view`` (a fixed
    seed) with the analysis's reason (``analysis.reason``, only what the view shows) or None."""
    from .analysis import reason
    from .bots import make_bot
    legal = view["legal_actions"]
    best = legal[0] if len(legal) == 1 else make_bot(game_id, LEVEL, SUGGEST_SEED).choose(view)
    why = None if len(legal) == 1 else reason(game_id, view, best)
    kind = action_kind(best)
    return {"action": dict(best), "kind": kind, "only": len(legal) == 1, "reason": why,
            "rules": list(ACTION_RULES.get(game_id, {}).get(kind, ()))}


def step(game, seat: int, info: dict, finished: dict | None = None) -> dict:
    """What the guide says now (JSON-safe).  ``game`` the table's game, ``seat`` the person's,
    ``info`` the lesson (its ``deal_no``, ``number``, ``count``, ``id``, ``players``),
    ``finished`` the person's log of the deal that ended last (``Table.finished``).

    ``{"lesson", "phase", "turn": the person's, "to_move", "may": [{"kind", "n", "rules"}],
    "rules", "suggest", "done", "end"}``: ``may`` the kinds of the legal actions, each with its
    rule ids and those that a refused card of the hand names (following, trumping); ``end`` once
    the lesson's deal is over: the event with the deal's score lines and the scores before and
    after it."""
    view = game.view(seat, explain=True)
    gid = view["game"]
    done = view["is_over"] or view["deal_no"] != info["deal_no"]
    out = {"lesson": {k: info[k] for k in ("id", "number", "count", "players")},
           "count_rules": list(COUNT_RULES.get(gid, {}).get(view["players"], ())),
           "phase": view["phase"], "turn": False, "to_move": view["to_move"], "may": [],
           "rules": [], "suggest": None, "done": done, "end": None,
           "score_rules": list(SCORE_RULES.get(gid, ()))}
    if done:
        log = list((finished or {}).get("log") or []) if not view["is_over"] else []
        ev = next((e for e in reversed(log) if e.get("lines")), None)
        if ev is None:          # a game's deal-end event may open the next deal's log
            ev = next((e for e in view["log"] if e.get("lines")), None)
        out["end"] = {"event": ev, "before": list(info["scores"]),
                      "after": deal_scores(view, ev)}
        out["phase"] = "over"
        return out
    rules = list(PHASE_RULES.get(gid, {}).get(view["phase"], ()))
    if view["to_move"] == seat and view.get("legal_actions"):
        out["turn"] = True
        legal = view["legal_actions"]
        kinds: dict[str, int] = {}
        for a in legal:
            k = action_kind(a)
            kinds[k] = kinds.get(k, 0) + 1
        refused = view.get("limits") or []
        for k, n in kinds.items():
            ids = list(ACTION_RULES.get(gid, {}).get(k, ()))
            if k == "play":
                ids += refused
            out["may"].append({"kind": k, "n": n, "rules": _uniq(ids)})
            rules += ids
        out["suggest"] = suggest(gid, game.view(seat))     # the plain view, as a bot's
    out["rules"] = _uniq(rules)
    return out


def deal_scores(view: dict, ev: dict | None) -> list[int]:
    """Every seat's score once the lesson's deal was scored: the deal-end event's ``scores``
    (per seat; per side in a game of partners, seats 0+2 and 1+3: euchre's G1), else the
    view's (the game is over)."""
    from .games import spec
    n = view["players"]
    scores = (ev or {}).get("scores")
    if isinstance(scores, list) and len(scores) == n:
        return list(scores)
    if isinstance(scores, list) and len(scores) == 2 and spec(view["game"]).partners:
        return [scores[s % 2] for s in range(n)]
    return list(view["scores"])
