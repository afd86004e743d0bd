"""The page's side of the engine, run by Pyodide inside the worker (web/worker.js).

``handle(op, args_json)`` returns JSON text ``{"ok": true, "result": ...}`` or
``{"ok": false, "error": "message"}``.  The worker owns one table: the game, the person's seat
and one bot per other seat.  What leaves this module for the page is only ever ``view(seat)``
of the person's seat (plus a save file the person asked for), never the game object, another
seat's view or ``events``.  The ``debug_*`` ops (only when the page was opened with
``debug=1``) play a separate throwaway game for the tests.
"""

from __future__ import annotations

import json
import random

import atut

DEBUG = False


def game_classes():
    """(built game ids, {game: {"players": [...], "options": {key: [values]}}}); build.py puts
    the same into build.json."""
    built = list(atut.built_games())
    classes = {}
    for g in built:
        cls = atut.game_class(g)
        classes[g] = {"players": list(cls.PLAYERS),
                      "options": {k: list(v) for k, v in cls.OPTIONS.items()}}
    return built, classes


class Table:
    def __init__(self):
        self.game = None
        self.seat = 0
        self.bots: dict[int, object] = {}
        self.levels: dict[int, int] = {}
        self.finished = None             # the person's log of the deal that ended last

    def _apply(self, g, action):
        """Apply an action; when it ends a deal (the next one starts inside the same step), keep
        the person's visible events of the finished deal for the page's "last deal" panel."""
        start, deal, seat = getattr(g, "_deal_event", None), g.deal_no, g.to_move
        g.apply(action)
        if start is not None and g.deal_no != deal:
            events = g.visible_events(self.seat, start)
            later = g.visible_events(self.seat, getattr(g, "_deal_event", len(g.events)))
            self.finished = {"deal_no": deal, "log": events[:len(events) - len(later)]}
            if action.get("type") == "play":        # a card played face up ended the deal
                self.finished["last_play"] = {"seat": seat, **{k: v for k, v in action.items()
                                                               if k != "type"}}

    # --- helpers ---------------------------------------------------------------------------

    def _need_game(self):
        if self.game is None:
            raise ValueError("no game is running: start a new game first")
        return self.game

    def view(self):
        return self._need_game().view(self.seat)

    def _seat_bots(self, game_id, players, seat, levels, seed):
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be a seat from 0 to {players - 1}, not {seat!r}")
        others = [s for s in range(players) if s != seat]
        if levels is None:
            levels = [3] * len(others)
        elif isinstance(levels, int) and not isinstance(levels, bool):
            levels = [levels] * len(others)
        if not isinstance(levels, list):
            raise ValueError(f"levels must be a list of bot levels, not {levels!r}")
        if len(levels) == 1 and len(others) > 1:
            levels = levels * len(others)
        if len(levels) != len(others):
            raise ValueError(f"{len(others)} bot seat(s) need {len(others)} level(s), "
                             f"not {len(levels)}")
        bots, lv = {}, {}
        for s, level in zip(others, levels):
            bots[s] = atut.make_bot(game_id, level, seed=(seed * 7919 + 101 * (s + 1)) & 0x7FFFFFFF)
            lv[s] = level
        return bots, lv

    # --- ops -----------------------------------------------------------------------------------

    def op_info(self, built=None, classes=None):
        """The games, their seat counts and options.  The worker passes what the build found
        (build.json) so that no game module is imported before a game starts; without it every
        game module is imported here."""
        if built is None or classes is None:
            built, classes = game_classes()
        return {"games": list(atut.GAME_IDS), "built": list(built), "classes": classes,
                "version": atut.__version__}

    def op_new_game(self, game, players=None, seed=0, seat=0, levels=None, options=None):
        g = atut.new_game(game, players=players, seed=seed, options=options or {})
        bots, lv = self._seat_bots(game, g.players, seat, levels, seed)
        self.game, self.seat, self.bots, self.levels = g, seat, bots, lv
        self.finished = None
        return self.view()

    def op_view(self):
        return self.view()

    def op_act(self, action=None):
        g = self._need_game()
        if g.is_over:
            raise ValueError("the game is over: start a new game")
        if g.to_move != self.seat:
            raise ValueError(f"it is not your turn: seat {g.to_move} is to move")
        self._apply(g, action)                # IllegalAction (a ValueError) leaves g unchanged
        return self.view()

    def op_bot_step(self):
        g = self._need_game()
        if g.is_over:
            raise ValueError("the game is over")
        s = g.to_move
        if s == self.seat:
            raise ValueError("it is your turn, not a bot's")
        action = self.bots[s].choose(g.view(s))
        self._apply(g, action)
        return self.view()

    def op_finished_deal(self):
        """The person's log of the deal that ended last ({"deal_no", "log"}), or None."""
        self._need_game()
        return self.finished

    def op_save(self):
        return self._need_game().to_json()

    def op_load(self, text="", seat=None, levels=None):
        g = atut.load_game(text)
        if seat is None:
            seat = self.seat if self.game is not None and self.seat < g.players else 0
        bots, lv = self._seat_bots(g.game_id, g.players, seat, levels, g.seed)
        self.game, self.seat, self.bots, self.levels = g, seat, bots, lv
        self.finished = None
        return {"view": self.view(), "seed": g.seed, "players": g.players, "game": g.game_id,
                "options": g.options}

    # test-only: a throwaway game, never the table's
    def op_debug_random_play(self, game, players=None, seed=0, action_seed=0, max_actions=5000):
        g = atut.new_game(game, players=players, seed=seed)
        rng = random.Random(action_seed)
        n = 0
        while not g.is_over and n < max_actions:
            g.apply(rng.choice(g.legal_actions()))
            n += 1
        return {"events": g.events, "actions": n, "scores": g.scores, "winner": g.winner}


TABLE = Table()


def handle(op, args_json):
    try:
        args = json.loads(args_json) if args_json else {}
        if not isinstance(args, dict):
            raise ValueError("request arguments must be an object")
        if not isinstance(op, str) or op.startswith("_"):
            raise ValueError(f"unknown op {op!r}")
        if op.startswith("debug_") and not DEBUG:
            raise ValueError(f"{op} needs the page opened with debug=1")
        fn = getattr(TABLE, "op_" + op, None)
        if fn is None:
            raise ValueError(f"unknown op {op!r}")
        try:
            result = fn(**args)
        except TypeError as e:
            raise ValueError(f"bad arguments for {op}: {e}") from None
        return json.dumps({"ok": True, "result": result})
    except ValueError as e:                     # includes atut.IllegalAction
        return json.dumps({"ok": False, "error": str(e)})
    except Exception as e:                      # a bug: say so, keep the table
        return json.dumps({"ok": False, "error": f"internal error: {type(e).__name__}: {e}"})
