"""The game object every game module builds on.

A game is a pure state machine (after pokerkit and Santase's engine): it never waits for
anyone.  ``to_move`` says who acts, ``legal_actions()`` lists what that seat may do in the
current ``phase``, ``apply(action)`` takes one of them or raises ``IllegalAction`` and changes
nothing, and ``view(seat)`` shows a seat exactly what it may know.  Everything that needs no
decision (dealing, drawing, scoring, the next deal) happens inside ``apply``.

A game module subclasses ``Game`` and supplies:

``GAME_ID``, ``PLAYERS`` (supported counts), ``OPTIONS`` ({key: allowed values, default first}),
``deck_for(players)`` (the game's cards as ints),
``_start(deck)`` (set up the first deal; ``deck`` is a list of ints or ``None`` to shuffle),
``_legal()`` (fresh action dicts for ``to_move``),
``_apply(action)`` (carry out an action known to be legal; it must not fail; search code that
calls it directly must then use ``_legal()``, not the cached ``legal_actions()``),
``_view(view, seat)`` (fill the game-specific part of a view).

Save files store the constructor arguments and the actions taken; loading replays them, so a
loaded game continues exactly as the saved one would.
"""

from __future__ import annotations

import json
import random
import re
import reprlib
from bisect import bisect_left
from typing import Any

from . import cards as C

SAVE_FORMAT = "atut-save"
SAVE_VERSION = 1


class IllegalAction(ValueError):
    """An action that is not legal now.  The game is left exactly as it was."""


def short(text: str, limit: int = 400) -> str:
    """A message cut to about ``limit`` characters, its start and its end kept (the rule id and
    the reason come last): an error about a huge value stays readable."""
    if len(text) <= limit:
        return text
    return text[:limit * 2 // 3] + " … " + text[-(limit // 3):]


# one encoder for every call: ``json.dumps`` with these arguments builds a new one each time
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


def canonical(action: Any) -> str:
    """The canonical JSON of an action, as the page's ``data-action`` carries it (that of
    ``json.dumps(action, sort_keys=True, separators=(",", ":"))``)."""
    return _CANONICAL.encode(action)


class Game:
    GAME_ID = ""
    PLAYERS: tuple[int, ...] = ()
    OPTIONS: dict[str, tuple] = {}
    # The game's own fields, beside ``BASE_FIELDS``: every attribute its ``__init__`` sets, so
    # that ``sampled`` can build a complete state (a test checks the two agree).
    STATE_FIELDS: tuple[str, ...] = ()
    # The fields ``Game.__init__`` sets (``sampled`` sets them from the view)
    BASE_FIELDS = ("options", "n", "seed", "rng", "first_dealer", "dealer", "first_deck",
                   "history", "events", "scores", "to_move", "winner", "phase", "deal_no",
                   "_deal_event", "_recording", "_cache", "_log_cache")

    # --- construction -------------------------------------------------------------------

    def __init__(self, players: int | None = None, seed: int = 0, dealer: int | None = None,
                 deck: list[str] | None = None, options: dict | None = None):
        if players is None:
            players = self.PLAYERS[0]
        if isinstance(players, bool) or not isinstance(players, int) or players not in self.PLAYERS:
            raise ValueError(f"{self.GAME_ID} is played by {_counts(self.PLAYERS)} players, "
                             f"not {reprlib.repr(players)}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer, not {reprlib.repr(seed)}")
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)
                                   or not 0 <= dealer < players):
            raise ValueError(f"dealer must be a seat from 0 to {players - 1}, "
                             f"not {reprlib.repr(dealer)}")
        self.options = self.check_options(options)
        self.n = players
        self.seed = seed
        self.rng = random.Random(seed)
        drawn = self.rng.randrange(players)   # always drawn: a given dealer keeps the shuffles
        self.first_dealer = drawn if dealer is None else dealer
        self.dealer = self.first_dealer
        first = None
        self.first_deck = None
        if deck is not None:
            first = C.parse_deck(deck, self.deck_for(players))
            self.first_deck = C.codes(first)
        self.history: list[dict] = []
        self.events: list[dict] = []
        self.scores: list[int] = [0] * players
        self.to_move: int | None = None
        self.winner: Any = None
        self.phase = "deal"
        self.deal_no = 0
        self._deal_event = 0
        self._recording = True
        self._cache: list[dict] | None = None      # legal actions of the current state
        self._log_cache = None                     # what each seat sees of ``events``
        self._start(first)

    @classmethod
    def check_options(cls, options) -> dict:
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ValueError(f"options must be a dict, not {reprlib.repr(options)}")
        out = {k: v[0] for k, v in cls.OPTIONS.items()}
        for k, v in options.items():
            if k not in cls.OPTIONS:
                known = ", ".join(cls.OPTIONS) or "none"
                raise ValueError(f"{cls.GAME_ID} has no option {reprlib.repr(k)} "
                                 f"(options: {known})")
            allowed = cls.OPTIONS[k]
            if not any(type(v) is type(a) and v == a for a in allowed):
                raise ValueError(f"option {k!r} of {cls.GAME_ID} must be one of "
                                 f"{', '.join(json.dumps(a) for a in allowed)}, "
                                 f"not {reprlib.repr(v)}")
            out[k] = v
        return out

    @classmethod
    def sampled(cls, view: dict, rng: random.Random, **state) -> Game:
        """A full state for search, consistent with a seat's ``view`` (a bot plug-in's
        ``determinize``; hidden cards are the caller's sample).

        The base fields come from the view (players, dealer, scores, phase, deal number,
        ``to_move``, options); nothing is recorded (``_recording`` is off, no history or events)
        and the game's own RNG is ``random.Random(rng.getrandbits(64))``, one draw from ``rng``.
        ``state`` gives every one of the class's ``STATE_FIELDS``, as the game keeps them (masks,
        lists, tuples; they are used as given, not copied): ``ValueError`` for a missing or an
        unknown field.  No legality or consistency check is made (``_legal()`` must equal the
        view's ``legal_actions``: ``bots.search.check_determinization``)."""
        fields = cls.STATE_FIELDS
        if len(state) != len(fields) or not state.keys() >= set(fields):
            missing = [f for f in fields if f not in state]
            unknown = sorted(set(state) - set(fields))
            raise ValueError(f"{cls.__name__}.sampled: "
                             + "; ".join(([f"missing state fields {missing}"] if missing else [])
                                         + ([f"unknown state fields {unknown} (not in "
                                             f"{cls.__name__}.STATE_FIELDS)"] if unknown else [])))
        g = object.__new__(cls)
        g.options = dict(view.get("options") or {})
        g.n = view["players"]
        g.seed = 0
        g.rng = random.Random(rng.getrandbits(64))
        g.first_dealer = view["dealer"]
        g.dealer = view["dealer"]
        g.first_deck = None
        g.history = []
        g.events = []
        g.scores = list(view["scores"])
        g.to_move = view["to_move"]
        g.winner = None
        g.phase = view["phase"]
        g.deal_no = view["deal_no"]
        g._deal_event = 0
        g._recording = False
        g._cache = None                         # the legal-action cache
        g._log_cache = None
        g.__dict__.update(state)
        return g

    @classmethod
    def deck_for(cls, players: int) -> list[int]:
        raise NotImplementedError

    def shuffled(self) -> list[int]:
        """A fresh shuffled deck for the next deal, from the game's seeded RNG."""
        d = self.deck_for(self.n)
        self.rng.shuffle(d)
        return d

    # A search marks the states it plays (``bots.search``, ``bots.ismcts``, ``bots.solver``):
    # their play stops where the deal ends (the plug-in's ``deal_over``), so ``_next_deal``
    # only counts the next deal instead of shuffling and dealing cards nobody looks at.  (Not
    # an instance field: a game played for real never has it.)
    _one_deal = False

    def _next_deal(self) -> None:
        """The next deal, once the dealer has moved on and no one has won: dealt from a fresh
        shuffle (``shuffled``).  In a search state (``_one_deal``) it is only counted:
        ``deal_no`` one more, phase "deal", the new dealer to move and nothing legal, which is
        all a search reads of a deal that is over (``deal_over``, ``evaluate``)."""
        if self._one_deal:
            self.deal_no += 1
            self.phase = "deal"
            self.to_move = self.dealer
            self._cache = None
            return
        self._deal(self.shuffled())

    # --- the public API -----------------------------------------------------------------

    @property
    def game_id(self) -> str:
        return self.GAME_ID

    @property
    def players(self) -> int:
        return self.n

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    def legal_actions(self) -> list[dict]:
        if self.to_move is None:
            return []
        return list(map(dict.copy, self._legal_now()))

    def _legal_now(self) -> list[dict]:
        """The legal actions of the current state, computed once per state."""
        if self._cache is None:
            self._cache = self._legal()
        return self._cache

    def apply(self, action: dict) -> None:
        a = (self._find_legal(action) if self.to_move is not None and type(action) is dict
             else None)
        if a is None:
            raise IllegalAction(self.explain(action))     # the reason, from the one place
        seat = self.to_move
        self.history.append(a)
        self._cache = None
        if self._recording:
            self.record({"type": "action", "seat": seat, "action": dict(a)},
                        self._action_visible_to(seat, a))
        self._apply(a)

    def explain(self, action: Any) -> str | None:
        """Why ``action`` is not legal now, or ``None`` when it is: the very message
        ``apply(action)`` would raise ``IllegalAction`` with (the rule id, such as ``G8``, where
        a rule of the game forbids it; see ``docs/rules/<game>.md``)."""
        if self.to_move is None:
            return "the game is over: no action is legal"
        if type(action) is not dict:
            return f"an action is a dict with a 'type', not {reprlib.repr(action)}"
        if self._find_legal(action) is not None:
            return None
        return short(self._refusal(action))

    def _find_legal(self, action: dict) -> dict | None:
        """The element of the legal actions equal to ``action`` (values of the same types:
        ``True`` is not ``1``), or ``None``."""
        legal = self._legal_now()
        i = -1
        while True:
            try:
                i = legal.index(action, i + 1)          # the next equal one (compared in C)
            except ValueError:
                return None
            a = legal[i]
            for k, v in a.items():
                if type(v) is not type(action[k]):
                    break
            else:
                return a

    def _refusal(self, action: dict) -> str:
        try:
            canonical(action)
        except (TypeError, ValueError, RecursionError):
            return f"an action must be JSON-safe: {reprlib.repr(action)}"
        return self._explain(action, self._legal_now())

    def view(self, seat: int | None = None, explain: bool = False) -> dict:
        """What ``seat`` may know (``None``: a spectator).  ``explain``: the log's events keep
        the rule ids and score lines that explain them (``EXPLAIN_FIELDS``, docs/ENGINE.md);
        without it they are left out, so that the view a bot is given (and the decision seeded
        from it) stays as it was before they existed."""
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < self.n):
            raise ValueError(f"seat must be None or a seat from 0 to {self.n - 1}, "
                             f"not {reprlib.repr(seat)}")
        v: dict[str, Any] = {
            "game": self.GAME_ID,
            "players": self.n,
            "seat": seat,
            "phase": self.phase,
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "scores": list(self.scores),
            "is_over": self.is_over,
            "winner": self.winner,
            "options": dict(self.options),
            "hand": [],
            "trump": None,
        }
        self._view(v, seat)
        v["log"] = self.visible_events(seat, self._deal_event, explain)
        if seat is not None and seat == self.to_move:
            v["legal_actions"] = self.legal_actions()
            if explain:
                v["limits"] = self.limits(v)
        return v

    def limits(self, view: dict) -> list[str]:
        """The rule ids that now keep cards of the hand from being played (following suit,
        trumping, playing over), in the order of the hand: each refused card's reason
        (``explain``) names its rule.  ``view`` is the seat to move's; an explained view
        carries them as ``limits`` (the rule coach and the guide say them)."""
        legal = view.get("legal_actions") or []
        if not any(a.get("type") == "play" for a in legal):
            return []
        playable = {a.get("card") for a in legal if a.get("type") == "play"}
        out: list[str] = []
        for c in view.get("hand") or []:
            if isinstance(c, str) and c not in playable:
                for r in RULE_ID.findall(self.explain({"type": "play", "card": c}) or ""):
                    if r not in out:
                        out.append(r)
        return out

    def to_json(self) -> str:
        data = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.GAME_ID,
            "players": self.n,
            "seed": self.seed,
            "dealer": self.first_dealer,
            "deck": self.first_deck,
            "options": self.options,
            "actions": self.history,
        }
        undos = getattr(self, "undos", None)
        if undos:
            # optional: the page's undos, each {"at": len(actions) after it, "actions": [the
            # actions taken back]}; a replay may show them, the game is ``actions`` alone
            data["undos"] = undos
        if getattr(self, "teach", False):
            data["teach"] = True        # optional: played in teaching mode (every hand open)
        return json.dumps(data, separators=(",", ":"))

    # --- events -------------------------------------------------------------------------

    def record(self, event: dict, visible_to: list[int] | None = None) -> None:
        """Append to ``events``; ``visible_to`` limits which seats' views show it.  An event is
        not changed once recorded, and ``events`` only grows (or is replaced by another list):
        ``visible_events`` relies on both."""
        if not self._recording:
            return
        if visible_to is not None:
            event["visible_to"] = list(visible_to)
        self.events.append(event)

    def new_deal_log(self) -> None:
        """Views show the log from here on (call at the start of each deal)."""
        self._deal_event = len(self.events)

    def visible_events(self, seat: int | None, start: int = 0,
                       explain: bool = False) -> list[dict]:
        """The events from ``events[start:]`` that ``seat`` may see, without ``visible_to``:
        fresh copies (lists and dicts in them copied too), so that nobody holding a view can
        change the game's record.  Without ``explain`` the ``EXPLAIN_FIELDS`` are left out."""
        seen, where = self._seen_by(seat)
        n = len(self.events)
        if start is None:
            start = 0
        elif start < 0:
            start = max(0, start + n)
        out = []
        for e, nested in seen[bisect_left(where, start) if start else 0:]:
            c = e.copy()
            if not explain and "rule" in c:
                for k in EXPLAIN_FIELDS:
                    c.pop(k, None)
            for k in nested:
                if k in c:
                    v = c[k]
                    c[k] = _fresh(v) if k in DEEP_FIELDS else v.copy()
            out.append(c)
        return out

    def _seen_by(self, seat: int | None) -> tuple[list, list[int]]:
        """What ``seat`` sees of ``events``, kept up to date as events are recorded (a view
        once cost a pass over the whole record): ``(seen, where)``, ``seen`` the visible events
        as ``(event without visible_to, its keys holding a list or a dict)``, ``where`` their
        indices in ``events``."""
        events = self.events
        cache = self._log_cache
        if cache is None or cache[0] is not events:     # a new game, or ``events`` replaced
            cache = self._log_cache = (events, {})
        entry = cache[1].get(seat)
        if entry is None or entry[0] > len(events) or (
                entry[0] and events[entry[0] - 1] is not entry[1]):
            entry = cache[1][seat] = [0, None, [], []]
        done, _, seen, where = entry
        for i in range(done, len(events)):
            e = events[i]
            vis = e.get("visible_to")
            if vis is None or seat in vis:
                if "visible_to" in e:
                    e = {k: v for k, v in e.items() if k != "visible_to"}
                seen.append((e, tuple(k for k, v in e.items() if type(v) in (list, dict))))
                where.append(i)
        if len(events) > done:
            entry[0], entry[1] = len(events), events[-1]
        return seen, where

    def _action_visible_to(self, seat: int, action: dict) -> list[int] | None:
        """Who sees an action in the log; ``None`` = everyone.  Override for hidden acts."""
        return None

    # --- helpers for game modules ---------------------------------------------------------

    def next_seat(self, seat: int, step: int = 1) -> int:
        return (seat + step) % self.n

    def _explain(self, action: dict, legal: list[dict]) -> str:
        seat = self.to_move
        t = action.get("type")
        types = sorted({a["type"] for a in legal})
        if t not in types:
            return (f"illegal action {canonical(action)}: seat {seat} is to move in phase "
                    f"{self.phase!r} and may only {' / '.join(types)}")
        if "card" in action:
            try:
                c = C.card(action["card"])
            except ValueError as e:
                return f"illegal action {canonical(action)}: {e}"
            hand = getattr(self, "hands", None)
            if hand is not None and not (hand[seat] >> c) & 1:
                return f"illegal action {canonical(action)}: seat {seat} does not hold {C.code(c)}"
        same = [canonical(a) for a in legal if a["type"] == t][:12]
        return (f"illegal action {canonical(action)} for seat {seat} in phase {self.phase!r}; "
                f"legal {t} actions: {', '.join(same)}")

    def _refusal_by_rule(self, action: dict, phase_actions: dict, shape_fault) -> str | None:
        """For games with one rule function per action type: the refusal of an action of a
        type the current phase has (``phase_actions[phase]``): its fields' shape
        (``shape_fault(type, action)``, a message or ``None``), then the reason the type's rule
        gives (``self._why(type, action, seat)``, with its rule id).  ``None`` for another
        phase's type or no type (the base ``_explain`` says it), or a legal action."""
        t = action.get("type")
        if type(t) is not str or t not in phase_actions.get(self.phase, ()):
            return None
        fault = shape_fault(t, action)
        if fault:
            return f"illegal {t} {canonical(action)}: {fault}"
        why = self._why(t, action, self.to_move)
        return None if why is None else f"illegal action {canonical(action)}: {why}"

    def clone(self) -> Game:
        """A copy for search: lists, dicts and the RNG are copied one level down, no events."""
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        for k, v in d.items():
            if type(v) is list:
                d[k] = [list(x) if type(x) is list else x for x in v]
            elif type(v) is dict:
                d[k] = dict(v)
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        d["rng"] = rng
        d["events"] = []
        d["history"] = []
        d["_cache"] = None
        d["_log_cache"] = None
        d["_deal_event"] = 0
        d["_recording"] = False
        new.__dict__ = d
        return new

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} players={self.n} seed={self.seed} phase={self.phase} "
                f"to_move={self.to_move}>")

    # --- to be supplied by each game ------------------------------------------------------

    def _start(self, deck: list[int] | None) -> None:
        raise NotImplementedError

    def _legal(self) -> list[dict]:
        raise NotImplementedError

    def _apply(self, action: dict) -> None:
        raise NotImplementedError

    def _view(self, view: dict, seat: int | None) -> None:
        raise NotImplementedError


# the event fields that hold dicts in a list (a deal's score lines): copied all the way down
DEEP_FIELDS = frozenset({"lines"})
# the fields that explain an event (docs/ENGINE.md, "Rule ids and score lines"): an event that
# has any of them has "rule"; views show them only when asked (``view(seat, explain=True)``)
EXPLAIN_FIELDS = ("rule", "lines")
# the rule a refusal's reason names: "...: G8: ..." or "(G8)" (explain, Game.limits)
RULE_ID = re.compile(r"\b([GE]\d+)\b")


def _fresh(v):
    """A copy of a JSON-safe value, lists and dicts at every depth."""
    if type(v) is list:
        return [_fresh(x) for x in v]
    if type(v) is dict:
        return {k: _fresh(x) for k, x in v.items()}
    return v


def score_line(rule: str, key: str, seats, score: int | None = None, **args) -> dict:
    """One line of a deal's score walk-through (docs/ENGINE.md, "Score lines"): ``rule`` the
    rule id that produced it, ``key`` its words (``line.<key>`` in web/i18n/<game>.js),
    ``seats`` the seats it is about, ``score`` what it adds to each of those seats' scores
    (left out for a line that only explains, such as the card points behind a contract),
    ``args`` the numbers and cards that made it."""
    line = {"rule": rule, "key": key, "seats": list(seats)}
    if score is not None:
        line["score"] = score
    if args:
        line["args"] = args
    return line


def line_sums(lines: list[dict], players: int) -> list[int]:
    """What a deal's score lines add to each seat's score."""
    out = [0] * players
    for line in lines:
        for s in line["seats"]:
            out[s] += line.get("score", 0)
    return out


def _counts(counts: tuple[int, ...]) -> str:
    if len(counts) == 1:
        return str(counts[0])
    if list(counts) == list(range(counts[0], counts[-1] + 1)) and len(counts) > 2:
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + " or " + str(counts[-1])


def load(text, registry) -> Game:
    """Rebuild a saved game by replaying its actions; ``ValueError`` for a bad save file."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("malformed saved game: not UTF-8 text") from None
    if isinstance(text, str):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"malformed saved game: not JSON ({e})") from None
        except RecursionError:
            raise ValueError("malformed saved game: nested too deeply") from None
        except ValueError:                  # a number of more digits than Python reads
            raise ValueError("malformed saved game: a number in it is too long") from None
    elif isinstance(text, dict):
        data = text
    else:
        raise ValueError("malformed saved game: expected JSON text")
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise ValueError(f"malformed saved game: not an {SAVE_FORMAT} file")
    if data.get("version") != SAVE_VERSION:
        raise ValueError("malformed saved game: unsupported version "
                         f"{reprlib.repr(data.get('version'))}")
    for k in ("game", "players", "seed", "dealer", "actions"):
        if k not in data:
            raise ValueError(f"malformed saved game: missing {k!r}")
    if not isinstance(data["actions"], list):
        raise ValueError("malformed saved game: 'actions' must be a list")
    try:
        game = registry(data["game"], players=data["players"], seed=data["seed"],
                        dealer=data["dealer"], deck=data.get("deck"),
                        options=data.get("options") or {})
    except ValueError as e:
        raise ValueError(f"malformed saved game: {short(str(e))}") from None
    undos = data.get("undos", [])
    if not isinstance(undos, list) or not all(
            isinstance(u, dict) and type(u.get("at")) is int and isinstance(u.get("actions"), list)
            for u in undos):
        raise ValueError("malformed saved game: 'undos' must be a list of "
                         '{"at": int, "actions": [...]}')
    for i, a in enumerate(data["actions"]):
        try:
            game.apply(a)
        except IllegalAction as e:
            raise ValueError(f"malformed saved game: action {i} is not legal: {e}") from None
    if undos:
        game.undos = undos
    if data.get("teach") is True:
        game.teach = True
    return game
