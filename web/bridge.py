"""The page's side of the engine, run by Pyodide inside the worker (web/worker.js).

``handle(op, args_json)`` returns JSON text ``{"ok": true, "result": ...}`` or
``{"ok": false, "error": "message"}``.  The worker owns one table: the game, the person's seat
and one bot per other seat.  What leaves this module for the page is only ever ``view(seat)``
of the person's seat and what the page renders from it (the finished deal's items, the event
that tells how the game ended, why an action is refused, a save file the person asked for),
never the game object, another seat's view or ``events``.  The page knows no rule: whatever
reads game event types to decide what to show is assembled here.  The ``debug_*`` ops (only
when the page was opened with ``debug=1``) play a separate throwaway game for the tests.

In teaching mode (``new_game(teach=True)``, the hash's ``open=1``) the person has asked to see
every hand: the replies then add ``open`` (every hand, and each bot's analysis of its last move).
"""

from __future__ import annotations

import json
import random
import re

import atut
from atut import cards as C
from atut.bots import BUDGETS, shards
from atut.bots import NAMES as LEVEL_NAMES
from atut.game import short

DEBUG = False
HINT_LEVEL = 3
HINT_SEED = 0
REVIEW_LEVEL = 4
REVIEW_SEED = 0
# Hints and review grades search a counted budget only (the level's rollouts and node limits):
# the wall-clock cap of the bots is lifted, so that the same view and seed give the same hint
# and grade on a loaded machine too.  A budget passed to the op is applied on top of this.
COUNTED = {"time_cap": 1e9, "clock": "cpu"}
# A reviewed decision's grade by the value it lost against the level-4 analysis's best, in units
# of the game's GameSpec.review_scale (its measure, docs/BOTS.md "Analysis"): at most 0 best,
# then good, inaccuracy, mistake; more: blunder.
GRADES = ((1e-9, "best"), (0.02, "good"), (0.06, "inaccuracy"), (0.15, "mistake"))
RULE_ID = re.compile(r"\b([GE]\d+)\b")     # the rule a refusal names: "...: G8: ..." or "(G8)"


def _counted(budget):
    """``COUNTED`` with an op's ``budget`` (a dict of budget keys, or None) on top."""
    if budget is not None and not isinstance(budget, dict):
        raise ValueError(f"budget must be an object of budget keys, not {budget!r}")
    for k, v in (budget or {}).items():         # the search would fail on a value of another type
        want = BUDGETS[4].get(k)
        if want is not None and type(v) is not type(want) and not (
                type(want) is float and type(v) is int):
            raise ValueError(f"budget {k!r} must be a {type(want).__name__}, not {v!r}")
        # a count far beyond level 4's would keep the worker busy for hours (the cap is lifted)
        if k in BUDGET_CEILING and not 0 <= v <= BUDGET_CEILING[k]:
            raise ValueError(f"budget {k!r} must be from 0 to {BUDGET_CEILING[k]}, not {v!r}")
    return {**COUNTED, **(budget or {})}


# the largest counted budget an op may ask for: four times level 4's
BUDGET_CEILING = {k: 4 * v for k, v in BUDGETS[4].items()
                  if type(v) is int and k != "time_cap"}


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
        self.last_deal = None            # what the page shows of it (see _last_deal)
        self._shown = (None, 0, 0, None)  # (game, len(history), seat, view) computed last
        self._points: list[tuple[int, int]] = []   # (deal_no, len(history)): your decisions
        self.teach = False               # teaching mode: every hand open, the bots' analyses
        self.notes: dict[int, dict] = {}  # teaching mode: each bot's analysis of its last move
        # outside bots (#15): {seat: the student's bot's name}, played in the lab's worker; the
        # seat's level-2 bot in self.bots plays it when the student's bot fails (outside_drop)
        self.outside: dict[int, str] = {}
        self.fallen: dict[int, str] = {}  # outside seats whose bot failed: level 2 plays them
        self._outside_turn = None        # (game, len(history), seat) of the view handed out
        # the pool of search workers (#18, web/worker.js): with it on, an op whose level-4
        # search is in shards (bots/shards.py) replies {"ok": true, "shards": [jobs]} and changes
        # nothing; the worker runs the jobs in the pool, hands the results in (shards_done) and
        # asks the op again, which then finds them: the same decision as without the pool
        self.pool = False
        self.shard_results: dict[str, dict] = {}

    def _apply(self, g, action):
        """Apply an action; returns the "last deal" items for the page when the action ended a
        deal and the next one started inside the same step (else None)."""
        start, deal, seat = getattr(g, "_deal_event", None), g.deal_no, g.to_move
        before = self.view()                 # what the person saw before the step
        g.apply(action)
        if start is None or g.deal_no == deal:
            return None
        events = g.visible_events(self.seat, start)
        later = g.visible_events(self.seat, getattr(g, "_deal_event", len(g.events)))
        self.finished = {"deal_no": deal, "log": events[:len(events) - len(later)]}
        if action.get("type") == "play":        # a card played face up ended the deal
            self.finished["last_play"] = {"seat": seat, **{k: v for k, v in action.items()
                                                           if k != "type"}}
        if g.is_over:
            return None
        self.last_deal = self._last_deal(self.finished, before, later, g)
        return self.last_deal

    @staticmethod
    def _last_deal(finished, before, later, g):
        """The "last deal" panel and the centre after a deal ended: the deal's final trick
        event, the results (what followed the last trick, and what the new deal's log says
        before its first card or action), the final trick as it lay on the table (the cards
        before the step plus the card that ended the deal), the scores before and after."""
        log = finished["log"]
        takes = atut.games.spec(g.game_id).trick_events      # the events giving a trick away
        ti = max((i for i, e in enumerate(log) if e.get("type") in takes), default=-1)
        trick = log[ti] if ti >= 0 else None
        results = [e for e in log[ti + 1:] if e.get("type") not in ("action", "hand")] \
            if ti >= 0 else []
        for e in later:
            if e.get("type") in ("hand", "action"):
                break
            if e.get("type") not in ("new_deal", "deal", "sits_out"):
                results.append(e)
        center = None
        last = finished.get("last_play")
        if trick is not None and last is not None and isinstance(last.get("card"), str):
            center = {"cards": list(before.get("trick") or []) + [last],
                      "winner": trick.get("winner")}
        return {"deal_no": finished["deal_no"], "trick": trick, "results": results,
                "center": center, "scores_before": list(before.get("scores") or []),
                "scores_after": list(g.scores), "new_deal": g.deal_no}

    # --- helpers ---------------------------------------------------------------------------

    def _need_game(self):
        if self.game is None:
            raise ValueError("no game is running: start a new game first")
        return self.game

    def view(self):
        g = self._need_game()
        game, n, seat, v = self._shown
        if game is not g or n != len(g.history) or seat != self.seat:
            v = g.view(self.seat)
            self._shown = (g, len(g.history), self.seat, v)
        return v

    def reply(self, finished=None):
        """What the page renders after a step: the person's view, the finished deal's items
        when the step ended a deal (else None) and, once the game is over, the event that
        tells how it ended (the last deal_over or game_over event of the log, or None), and
        whether the person has a decision of this deal to take back (``can_undo``)."""
        v = self.view()
        result = None
        if v.get("is_over"):
            ends = [e for e in v.get("log") or [] if e.get("type") in ("deal_over", "game_over")]
            result = ends[-1] if ends else None
        g = self.game
        can_undo = not g.is_over and any(d == g.deal_no for d, _ in self._points)
        out = {"view": v, "finished": finished, "result": result, "can_undo": can_undo}
        if self.teach:            # teaching mode only: the page may show every hand
            out["open"] = {"hands": [C.codes(C.cards_of(h)) for h in g.hands],
                           "notes": {str(s): n for s, n in self.notes.items()}}
        return out

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
            lv[s] = bots[s].level           # 1-4, also for a level given by name ("rules")
        return bots, lv

    # --- ops -----------------------------------------------------------------------------------

    def op_info(self, built=None, classes=None):
        """The games, their seat counts and options.  The worker passes what the build found
        (build.json) so that no game module is imported before a game starts; without it every
        game module is imported here."""
        if built is None or classes is None:
            built, classes = game_classes()
        elif not (isinstance(built, list) and all(isinstance(g, str) for g in built)
                  and isinstance(classes, dict)):
            raise ValueError("info: built must be a list of game ids and classes an object")
        return {"games": list(atut.games.ids()), "built": list(built), "classes": classes,
                "levels": dict(LEVEL_NAMES), "version": atut.__version__}

    def op_new_game(self, game, players=None, seed=0, seat=0, levels=None, options=None,
                    teach=False):
        g = atut.new_game(game, players=players, seed=seed, options=options or {})
        levels, outside = split_outside(g.players, seat, levels)
        bots, lv = self._seat_bots(game, g.players, seat, levels, seed)
        self.game, self.seat, self.bots, self.levels = g, seat, bots, lv
        self.outside, self.fallen, self._outside_turn = outside, {}, None
        self.finished = self.last_deal = None
        self._points = []
        self.teach, self.notes = bool(teach), {}
        if self.teach:
            g.teach = True                  # the save says so (an optional field)
        return self.reply()

    def op_view(self):
        return self.view()

    def op_act(self, action=None):
        """The person's action; the reply (see reply()) or ValueError, the game unchanged."""
        g = self._need_game()
        if g.is_over:
            raise ValueError("the game is over: start a new game")
        if g.to_move != self.seat:
            raise ValueError(f"it is not your turn: seat {g.to_move} is to move")
        point = (g.deal_no, len(g.history)) if len(g.legal_actions()) > 1 else None
        finished = self._apply(g, action)     # IllegalAction (a ValueError) leaves g unchanged
        if point is not None:
            self._points.append(point)
        return self.reply(finished)

    def op_bot_step(self):
        g = self._need_game()
        if g.is_over:
            raise ValueError("the game is over")
        s = g.to_move
        if s == self.seat:
            raise ValueError("it is your turn, not a bot's")
        view = g.view(s)
        if self.teach and self.levels.get(s, 0) >= 3 and len(view["legal_actions"]) > 1:
            # the bot's own search, shown beside its move: its best is the bot's choice
            bot = self.bots[s]
            note = atut.analyse(g.game_id, view, self.levels[s], seed=bot.seed)
            action = note["best"]
            self.notes[s] = {**note, "deal_no": g.deal_no, "move": len(g.history)}
        else:
            action = self.bots[s].choose(view)
            self.notes.pop(s, None)
        return self.reply(self._apply(g, action))

    # --- outside bots (#15): a student's bot, played in the lab's worker ---------------------

    def op_outside_turn(self):
        """The seat to move when it is an outside bot's: ``{"seat", "name", "view"}`` with that
        seat's ``view(seat)`` only (the worker hands it to the lab's worker, never to the page);
        ``{"seat", "name", "fallen": true}`` when that seat's bot failed earlier in the game
        (``outside_fallback`` plays it); else None."""
        g = self._need_game()
        s = g.to_move
        self._outside_turn = None
        if g.is_over or s is None:
            return None
        if s in self.fallen:                    # its bot failed: outside_fallback plays it
            return {"seat": s, "name": self.fallen[s], "fallen": True}
        if s not in self.outside:
            return None
        self._outside_turn = (g, len(g.history), s)
        return {"seat": s, "name": self.outside[s], "view": g.view(s)}

    def op_outside_open(self):
        """Whether the view ``outside_turn`` handed out is still the table's position (no new
        game, load or other step came meanwhile)."""
        g, turn = self._need_game(), self._outside_turn
        return bool(turn) and turn[0] is g and turn[1] == len(g.history) and g.to_move == turn[2]

    def op_outside_act(self, action=None):
        """The outside bot's action for the view ``outside_turn`` handed out: checked like every
        action (``IllegalAction``, a ValueError, leaves the game unchanged), applied like a bot's
        move; the reply as ``bot_step``'s."""
        g = self._need_game()
        turn = self._outside_turn
        if not self.op_outside_open():
            raise ValueError("no outside bot's turn is open: the table changed meanwhile")
        if not isinstance(action, dict) or action not in g.legal_actions():
            raise atut.IllegalAction(f"the outside bot at seat {turn[2]} sent an action that "
                                     f"is not legal: {short(repr(action))}")
        self._outside_turn = None
        self.notes.pop(turn[2], None)
        return self.reply(self._apply(g, action))

    def op_outside_drop(self):
        """The outside bots are done for this game (one failed): their seats are played by
        their level-2 bots from now on.  Returns the seats and names dropped."""
        self._need_game()
        dropped = {str(s): n for s, n in sorted(self.outside.items())}
        self.fallen.update(self.outside)
        self.outside, self._outside_turn = {}, None
        return dropped

    def op_outside_fallback(self):
        """The move of an outside seat whose bot failed (or fails now), by the level-2 rules:
        the seat's own level-2 bot (the person's seat when watching gets one here); the reply
        as ``bot_step``'s."""
        g = self._need_game()
        s = g.to_move
        if g.is_over or s is None or (s not in self.fallen and s not in self.outside):
            raise ValueError("it is not an outside bot's turn")
        bot = self.bots.get(s)             # an outside seat's bot is level 2 (split_outside)
        if bot is None:
            bot = self.bots[s] = atut.make_bot(
                g.game_id, OUTSIDE_LEVEL, seed=(g.seed * 7919 + 101 * (s + 1)) & 0x7FFFFFFF)
        self.notes.pop(s, None)
        return self.reply(self._apply(g, bot.choose(g.view(s))))

    def op_outside_seats(self):
        """The outside bots still seated and those that failed: ``{"outside", "fallen"}``,
        each ``{seat: name}``."""
        self._need_game()
        return {"outside": {str(s): n for s, n in sorted(self.outside.items())},
                "fallen": {str(s): n for s, n in sorted(self.fallen.items())}}

    def op_explain(self, action=None):
        """Why the person may not take ``action`` now: ``{"legal", "rule", "reason"}``, the
        engine's refusal message as ``reason`` and the rule id it names (``G8``) or None."""
        g = self._need_game()
        if g.is_over:
            reason = "the game is over: start a new game"
        elif g.to_move != self.seat:
            reason = f"it is not your turn: seat {g.to_move} is to move"
        else:
            reason = g.explain(action)
        if reason is None:
            return {"legal": True, "rule": None, "reason": None}
        m = RULE_ID.search(reason)
        return {"legal": False, "rule": m.group(1) if m else None, "reason": reason}

    def op_hint(self, budget=None):
        """The analysis of the person's view (``atut.analyse``, level ``HINT_LEVEL``, a fixed
        seed, the ``COUNTED`` budget) on the person's turn: a function of that view alone (its
        beliefs too), the same on every machine."""
        g = self._need_game()
        if g.is_over or g.to_move != self.seat:
            raise ValueError("a hint is given only on your turn")
        return atut.analyse(g.game_id, self.view(), HINT_LEVEL, seed=HINT_SEED,
                            budget=_counted(budget))

    def _decisions(self, g):
        """The history lengths before each decision of the person (a choice of two or more
        actions) in the current deal, by replaying the game's actions."""
        r = self._replay_to(g, 0)
        out = []
        for i, a in enumerate(g.history):
            if r.to_move == self.seat and r.deal_no == g.deal_no and len(r.legal_actions()) > 1:
                out.append(i)
            r.apply(a)
        return out

    def op_undo(self):
        """Take back the person's last decision of the current deal with the bots' replies
        after it: the game is replayed without them; the save records the undo (``undos``)."""
        g = self._need_game()
        if g.is_over:
            raise ValueError("the game is over: nothing to take back")
        points = self._decisions(g)
        if not points:
            raise ValueError("nothing to take back in this deal")
        at = points[-1]
        new = self._replay_to(g, at)
        new.undos = list(getattr(g, "undos", None) or []) + [
            {"at": at, "actions": [dict(a) for a in g.history[at:]]}]
        if self.teach:
            new.teach = True
        self.game = new                          # the same deal: its "last deal" items stay
        self._points = [(new.deal_no, i) for i in points[:-1]]
        return self.reply()

    def op_can_undo(self):
        """Whether the person has a decision of the current deal to take back."""
        g = self._need_game()
        return not g.is_over and bool(self._decisions(g))

    def _replay_to(self, g, n):
        """A copy of ``g`` after its first ``n`` actions (a replay of the save)."""
        data = json.loads(g.to_json())
        data.pop("undos", None)
        data["actions"] = data["actions"][:n]
        return atut.load_game(data)

    def _ended_deal(self, g):
        """The number of the deal that ended last (the game's last when it is over)."""
        if g.is_over:
            return g.deal_no
        if self.finished is None:
            raise ValueError("no deal has ended yet")
        return self.finished["deal_no"]

    def op_review(self):
        """The deal that ended last, step by step with every hand open (it is over: nothing
        is hidden any more): ``{"deal_no", "steps": [{"i", "seat", "action", "hands", "trick",
        "mine"}]}``, ``i`` the action's index in the game, ``mine`` a decision of the person
        (a choice of two or more) to grade with ``review_grade``."""
        g = self._need_game()
        deal = self._ended_deal(g)
        r = self._replay_to(g, 0)
        steps = []
        for i, a in enumerate(g.history):
            if r.deal_no == deal and r.to_move is not None:
                pub = r.view(None)
                steps.append({
                    "i": i, "seat": r.to_move, "action": a,
                    "hands": [C.codes(C.cards_of(h)) for h in r.hands],
                    "trick": pub.get("trick") or [],
                    "mine": r.to_move == self.seat and len(r.legal_actions()) > 1,
                    "bot": r.to_move != self.seat and len(r.legal_actions()) > 1})
            elif r.deal_no > deal:
                break
            r.apply(a)
        return {"deal_no": deal, "steps": steps}

    def op_review_grade(self, i=0, budget=None):
        """The grade of the person's decision at action ``i`` of a finished deal: the
        level-4 analysis of the person's view then (seed ``REVIEW_SEED``), the value the played
        action lost against the best, and the grade (``GRADES``)."""
        g = self._need_game()
        deal = self._ended_deal(g)
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(g.history):
            raise ValueError(f"no action {i!r} in this game")
        r = self._replay_to(g, i)
        if r.deal_no > deal or r.to_move != self.seat:
            raise ValueError("only your own decisions of a finished deal are graded")
        out = atut.analyse(g.game_id, r.view(self.seat), REVIEW_LEVEL, seed=REVIEW_SEED,
                           budget=_counted(budget))
        played = atut.canonical(g.history[i])
        values = {atut.canonical(a["action"]): a["value"] for a in out["actions"]}
        best = out["actions"][0]["value"]
        mine = values.get(played)
        loss = 0.0 if best is None or mine is None else max(0.0, best - mine)
        scaled = loss / atut.games.spec(g.game_id).review_scale
        grade = next((name for limit, name in GRADES if scaled <= limit), "blunder")
        if played == atut.canonical(out["best"]):
            grade = "best"
        return {"i": i, "grade": grade, "loss": round(loss, 4), "played": g.history[i],
                "best": out["best"], "actions": out["actions"]}

    def op_review_bot(self, i=0, budget=None):
        """Why a bot played action ``i`` of a finished deal (the deal is over: its hand may be
        told now): the analysis of the bot's view then, by the bot's own search and seed
        (level 3 for a bot below it, which searches nothing), with what it believed:
        ``{"i", "seat", "level", "played", "best", "actions", "beliefs"}``."""
        g = self._need_game()
        deal = self._ended_deal(g)
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(g.history):
            raise ValueError(f"no action {i!r} in this game")
        r = self._replay_to(g, i)
        s = r.to_move
        if r.deal_no != deal or s is None or s == self.seat or s not in self.bots:
            raise ValueError("only a bot's move of the deal that ended last is explained")
        level = max(3, self.levels.get(s, 3))
        out = atut.analyse(g.game_id, r.view(s), level, seed=self.bots[s].seed,
                           budget=_counted(budget))
        return {"i": i, "seat": s, "level": level, "bot_level": self.levels.get(s),
                "played": g.history[i], "best": out["best"], "actions": out["actions"],
                "beliefs": out["beliefs"]}

    def op_finished_deal(self):
        """The "last deal" items of the deal that ended last (see _last_deal), or None."""
        self._need_game()
        return self.last_deal

    def op_save(self):
        return self._need_game().to_json()

    def op_load(self, text="", seat=None, levels=None):
        check_nesting(text, "malformed saved game: it is")
        g = atut.load_game(text)
        if seat is None:
            seat = self.seat if self.game is not None and self.seat < g.players else 0
        levels, outside = split_outside(g.players, seat, levels)
        bots, lv = self._seat_bots(g.game_id, g.players, seat, levels, g.seed)
        self.game, self.seat, self.bots, self.levels = g, seat, bots, lv
        self.outside, self.fallen, self._outside_turn = outside, {}, None
        self.finished = self.last_deal = None
        self._points = [(g.deal_no, i) for i in self._decisions(g)]
        self.teach, self.notes = bool(getattr(g, "teach", False)), {}
        return {**self.reply(), "seed": g.seed, "players": g.players, "game": g.game_id,
                "options": g.options, "teach": self.teach}

    # test-only: a throwaway game, never the table's
    def op_debug_random_play(self, game, players=None, seed=0, action_seed=0, max_actions=5000):
        if not all(type(v) is int for v in (action_seed, max_actions)):
            raise ValueError("action_seed and max_actions must be integers")
        g = atut.new_game(game, players=players, seed=seed)
        rng = random.Random(action_seed)
        n = 0
        while not g.is_over and n < max_actions:
            g.apply(rng.choice(g.legal_actions()))
            n += 1
        return {"events": g.events, "actions": n, "scores": g.scores, "winner": g.winner}

    # --- the pool of search workers (#18) -------------------------------------------------------

    def op_pool(self, on=False):
        """Turn the pool on (the worker has search workers) or off (every shard runs here)."""
        if not isinstance(on, bool):
            raise ValueError(f"pool: on must be true or false, not {short(repr(on))}")
        self.pool = on
        self.shard_results = {}
        return {"on": on}

    def op_shards_done(self, results=None):
        """The results of the jobs an op asked for (``run_shard``'s replies, from the pool):
        kept for the op asked again, which takes those of its own jobs."""
        if not isinstance(results, list) or len(results) > 64:
            raise ValueError("shards_done needs results: a list of at most 64 shard results")
        kept = {}
        for r in results:
            if not (isinstance(r, dict) and isinstance(r.get("key"), str)
                    and isinstance(r.get("values"), list) and len(r["values"]) <= 1000
                    and all(type(x) in (int, float) for x in r["values"])
                    and type(r.get("samples")) is int
                    and (r.get("solved") is None or type(r.get("solved")) is int)
                    and isinstance(r.get("capped"), bool)):
                raise ValueError("a shard result is {key, values, samples, solved, capped}")
            kept[r["key"]] = r
        self.shard_results = kept
        return len(kept)

    def _pool_runner(self, jobs):
        """``bots.shards`` runner of the table with the pool on: the results handed in, or
        ``ShardsNeeded`` for the jobs (the op stops before it changes anything)."""
        got = self.shard_results
        if all(j["key"] in got for j in jobs):
            return [got.pop(j["key"]) for j in jobs]
        raise shards.ShardsNeeded(jobs)

    def op_shard_run(self, job=None, time_cap=None):
        """Run one search shard (a job an op of another worker's table asked for): the op of
        a search worker of the pool.  Its result is values only, no card.  ``time_cap``: the
        seconds this shard may take, at most the job's own (a worker that runs several shards
        of a decision shares the decision's cap among them)."""
        _check_job(job)
        cap = job["budget"].get("time_cap")
        if time_cap is not None and not (type(time_cap) in (int, float)
                                         and 0 < time_cap <= (cap or 0)):
            raise ValueError(f"shard_run: time_cap must be a number of seconds above 0 and at "
                             f"most the job's {cap!r}")
        try:
            return shards.run_shard(job, time_cap)
        except (ValueError, KeyError, IndexError, TypeError, AttributeError, AssertionError) as e:
            # the view came from outside this worker: one that no game made fails the search
            raise ValueError(f"shard_run: the job's view is not one this search can read "
                             f"({type(e).__name__})") from None

    # test-only: the worker's Python memory (the Chromium soak, tests/browser/soak_page.py)
    def op_debug_memory(self, collect=True):
        import gc
        import sys
        if collect:
            gc.collect()
        out = {"gc_objects": len(gc.get_objects()), "gc_counts": list(gc.get_count()),
               "allocated_blocks": sys.getallocatedblocks(), "wasm_bytes": None}
        try:                                    # Pyodide: the wasm memory's size
            import pyodide_js
            out["wasm_bytes"] = int(pyodide_js._module.HEAPU8.buffer.byteLength)
        except Exception:                       # CPython, or a runtime without it
            pass
        return out

    # test-only: a game module's source text joins the engine (atut.games.register_source)
    def op_debug_register_game(self, name, source):
        spec = atut.games.register_source(name, source)
        return {"game": spec.id, "words": spec.page_words(), "info": self.op_info()}


OUTSIDE_LEVEL = 2          # an outside seat's own bot: it plays when the student's bot fails
BOT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,60}\.py$")


def _outside_name(x):
    """The bot's name of an outside-bot marker ``{"outside": "mybot.py"}``, else None."""
    if not isinstance(x, dict) or "outside" not in x:
        return None
    name = x.get("outside")
    if len(x) != 1 or not isinstance(name, str) or not BOT_NAME.match(name):
        raise ValueError(f"an outside bot is {{\"outside\": \"name.py\"}}, not {short(repr(x))}")
    return name


def split_outside(players, seat, levels):
    """(levels with every outside-bot marker as ``OUTSIDE_LEVEL``, {seat: bot name}).  A marker
    ``{"outside": "mybot.py"}`` in place of a level seats a student's bot (the lab's worker
    plays it); a list of one level per seat (``players`` long) whose entry at ``seat`` is a
    marker seats it in the person's own seat too (watching: the person only watches)."""
    if not isinstance(levels, list) or not any(isinstance(x, dict) for x in levels):
        return levels, {}
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        return levels, {}                        # _seat_bots says what is wrong with the seat
    names = [_outside_name(x) for x in levels]
    outside = {}
    if len(levels) == players and players > 1 and names[seat] is not None:
        outside[seat] = names[seat]
        names = names[:seat] + names[seat + 1:]
        levels = levels[:seat] + levels[seat + 1:]
    others = [s for s in range(players) if s != seat]
    if len(levels) == 1 and len(others) > 1:
        names, levels = names * len(others), levels * len(others)
    if len(levels) == len(others):
        outside.update({s: n for s, n in zip(others, names) if n is not None})
    plain = [OUTSIDE_LEVEL if n is not None else x for x, n in zip(levels, names)]
    return plain, outside


TABLE = Table()

# The deepest JSON nesting read here (request arguments, a save file's text): in Pyodide the wasm
# stack overflows inside json.loads (a fatal error of the runtime, not a RecursionError) far
# below Python's recursion limit; a save file nests about 5 deep.
MAX_NESTING = 100
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def check_nesting(text, what):
    """ValueError when JSON ``text`` nests deeper than MAX_NESTING (no recursion: a scan of its
    brackets outside strings)."""
    if not isinstance(text, str) or text.count("[") + text.count("{") <= MAX_NESTING:
        return
    depth = 0
    for ch in _NOT_BRACKET.sub("", _JSON_STRING.sub("", text)):
        depth += 1 if ch in "[{" else -1
        if depth > MAX_NESTING:
            raise ValueError(f"{what} nested more than {MAX_NESTING} deep")


def _check_job(job):
    """ValueError unless ``job`` has the shape of a shard job (``bots/shards.py``)."""
    if not isinstance(job, dict) or set(job) != set(shards.JOB_KEYS):
        raise ValueError(f"shard_run needs a job with the keys {', '.join(shards.JOB_KEYS)}")
    game, level, view, legal = job["game"], job["level"], job["view"], job["legal"]
    if game not in atut.GAME_IDS:
        raise ValueError(f"shard_run: unknown game {short(repr(game))}")
    if level not in (3, 4) or isinstance(level, bool):
        raise ValueError("shard_run: the level is 3 or 4")
    for k in ("shard", "shards", "seed"):
        if type(job[k]) is not int or job[k] < 0:
            raise ValueError(f"shard_run: {k} must be a whole number")
    if not isinstance(job["key"], str) or not isinstance(job["budget"], dict):
        raise ValueError("shard_run: key is a string, budget an object")
    known = {**BUDGETS[4], **getattr(atut.bots.plugin(game), "BUDGETS", {}).get(4, {})}
    for k, v in job["budget"].items():
        want = known.get(k)
        if want is None or type(v) is not type(want) and not (type(want) is float
                                                               and type(v) is int):
            raise ValueError(f"shard_run: budget {short(repr(k))} is not a budget key of "
                             f"{game} or not a {type(want).__name__}")
        if type(want) is int and k != "time_cap" and not 0 <= v <= 4 * max(want, 1):
            raise ValueError(f"shard_run: budget {k!r} must be from 0 to {4 * max(want, 1)}")
    if not (isinstance(view, dict) and view.get("game") == game and isinstance(legal, list)
            and legal and view.get("legal_actions") == legal):
        raise ValueError("shard_run: the view is not the mover's view of that game")


def handle(op, args_json):
    try:
        try:
            check_nesting(args_json, "request arguments are")
            args = json.loads(args_json) if args_json else {}
        except RecursionError:
            raise ValueError("request arguments are nested too deeply") from None
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
            if TABLE.pool:
                with shards.using(TABLE._pool_runner):
                    result = fn(**args)
            else:
                result = fn(**args)
        except shards.ShardsNeeded as e:        # the pool runs them: nothing changed
            return json.dumps({"ok": True, "shards": e.jobs})
        except TypeError as e:
            if e.__traceback__.tb_next is not None:
                raise                           # raised inside the op: a bug, said as such
            # raised by the call itself: unknown or missing arguments
            raise ValueError(f"bad arguments for {op}: {e}") from None
        return json.dumps({"ok": True, "result": result})
    except ValueError as e:                     # includes atut.IllegalAction
        return json.dumps({"ok": False, "error": short(str(e))})    # a huge value cut short
    except Exception as e:                      # a bug: say so, keep the table
        return json.dumps({"ok": False,
                           "error": short(f"internal error: {type(e).__name__}: {e}")})
