"""The table session: one game, the person's seat and one bot per other seat.

The page's worker owns one ``Table`` (through ``web/bridge.py``); the tests drive one directly.
What a method returns for the page is only ever ``view(seat)`` of the person's seat and what
the page renders from it (the finished deal's items, the event that tells how the game ended,
why an action is refused), never the game object, another seat's view or ``events``.  The page
knows no rule: whatever reads game event types to decide what to show is assembled here.

In teaching mode (``new_game(teach=True)``, the page's ``open=1``) the person has asked to see
every hand: the replies then add ``open`` (every hand, and each bot's analysis of its last
move).  Outside seats (docs/LAB.md) are played by a student's bot in the lab's worker.

The ops that search or ask a student's bot have two forms: ``bot_step()`` runs to the end here
(the shards inline, nobody to ask), ``bot_step_steps()`` is the same op as an exchange
(``atut.table.exchange``), which the page's worker answers from its pool and the lab.

    >>> t = Table()
    >>> r = t.new_game("sixty_six", players=2, seed=3, seat=0, levels=[2])
    >>> while t.game.to_move != t.seat:
    ...     r = t.bot_step()
    >>> n = len(t.game.history)
    >>> r = t.act(r["view"]["legal_actions"][0])
    >>> len(t.game.history) > n, r["can_undo"]
    (True, True)
    >>> r = t.undo()
    >>> len(t.game.history) == n, r["can_undo"]
    (True, False)
"""

from __future__ import annotations

import json

import atut

from .. import cards as C
from ..bots import make_bot
from ..game import RULE_ID, Game
from .checks import OUTSIDE_LEVEL, bot_levels, check_nesting, check_seat, counted, split_outside
from .exchange import Ask, Steps, bot_jobs, finish, searched

HINT_LEVEL = 3
HINT_SEED = 0
REVIEW_LEVEL = 4
REVIEW_SEED = 0
# A reviewed decision's grade by the value it lost against the level-4 analysis's best, in units
# of GameSpec.review_scale: at most 0 best, then good, inaccuracy, mistake; more:
# blunder.
GRADES = ((1e-9, "best"), (0.02, "good"), (0.06, "inaccuracy"), (0.15, "mistake"))


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` of a game of ``seed``."""
    return (seed * 7919 + 101 * (seat + 1)) & 0x7FFFFFFF


class Table:
    """One game at the table and everything the page asks about it."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.seat = 0
        self.bots: dict[int, object] = {}
        self.levels: dict[int, int] = {}
        self.finished: dict | None = None    # the person's log of the deal that ended last
        self.last_deal: dict | None = None   # what the page shows of it (see _last_deal)
        self._shown = (None, 0, 0, None)     # (game, len(history), seat, view) computed last
        self._points: list[tuple[int, int]] = []   # (deal_no, len(history)): your decisions
        self.teach = False                   # teaching mode: every hand open, the bots' analyses
        self.notes: dict[int, dict] = {}     # teaching mode: each bot's analysis of its last move
        # outside seats: {seat: the student's bot's name}, played in the lab's worker; the seat's
        # level-2 bot in self.bots plays it when the student's bot fails (outside_drop)
        self.outside: dict[int, str] = {}
        self.fallen: dict[int, str] = {}     # outside seats whose bot failed: level 2 plays them
        self.refused: int | None = None      # the outside seat whose action was refused last
        self.lesson: dict | None = None      # the lesson played (atut.learn), else None

    # --- starting and resuming ---------------------------------------------------------------

    def new_game(self, game: str, players: int | None = None, seed: int = 0, seat: int = 0,
                 levels=None, options: dict | None = None, teach: bool = False) -> dict:
        """A new game: the person at ``seat``, bots of ``levels`` (one level for every bot
        seat, one per bot seat, or an outside-bot marker ``{"outside": "name.py"}``) in the
        others.  The reply as ``reply()``."""
        g = atut.new_game(game, players=players, seed=seed, options=options or {})
        self._seat(g, seat, levels, seed, points=[])
        self.teach = bool(teach)
        if self.teach:
            g.teach = True                  # the save says so (an optional field)
        return self.reply()

    def load(self, text="", seat: int | None = None, levels=None) -> dict:
        """Resume a save (its text): the reply as ``reply()`` with the game's ``seed``,
        ``players``, ``game``, ``options`` and ``teach``."""
        check_nesting(text, "malformed saved game: it is")
        g = atut.load_game(text)
        if seat is None:
            seat = self.seat if self.game is not None and self.seat < g.players else 0
        self._seat(g, seat, levels, g.seed, points=None)
        self.teach = bool(getattr(g, "teach", False))
        return {**self.reply(), "seed": g.seed, "players": g.players, "game": g.game_id,
                "options": g.options, "teach": self.teach}

    def learn_start(self, game: str = "", lesson: int = 0) -> dict:
        """Start lesson ``lesson`` of ``game`` (``atut.learn``): the person at seat 0, level-2
        bots.  The reply as ``reply()`` with ``learn``: the lesson and the guide's first step."""
        from .. import learn
        info = learn.lesson(game, lesson)
        self.new_game(game, players=info["players"], seed=info["seed"], seat=learn.SEAT,
                      levels=[learn.LEVEL], options=info["options"])
        g = self.game
        # the scores before the deal: a new game's (a deal may score as it is dealt, imperial G5)
        self.lesson = {**info, "deal_no": g.deal_no, "scores": [0] * g.players}
        return {**self.reply(), "learn": self.learn_step()}

    def learn_step(self) -> dict:
        """What the guide of the lesson says now (``atut.learn.step``)."""
        from .. import learn
        g = self._need_game()
        if self.lesson is None:
            raise ValueError("no lesson is running: start one with learn_start")
        return learn.step(g, self.seat, self.lesson, self.finished)

    def save(self) -> str:
        """The save file's text (``atut.load_game`` reads it)."""
        return self._need_game().to_json()

    def _seat(self, g: Game, seat, levels, seed: int, points) -> None:
        """Seat the person and the bots at ``g``; the table's state is replaced only when all
        of it is sound."""
        levels, outside = split_outside(g.players, seat, levels)
        check_seat(seat, g.players)
        bots, lv = {}, {}
        for s, level in zip([s for s in range(g.players) if s != seat],
                            bot_levels(levels, g.players - 1)):
            bots[s] = atut.make_bot(g.game_id, level, seed=bot_seed(seed, s))
            lv[s] = bots[s].level           # 1-4, also for a level given by name ("rules")
        self.game, self.seat, self.bots, self.levels = g, seat, bots, lv
        self.outside, self.fallen = outside, {}
        self.finished = self.last_deal = None
        self.notes = {}
        self.lesson = None
        self._points = points if points is not None else [(g.deal_no, i)
                                                          for i in self._decisions(g)]

    # --- what the page renders ------------------------------------------------------------

    def _need_game(self) -> Game:
        if self.game is None:
            raise ValueError("no game is running: start a new game first")
        return self.game

    def view(self) -> dict:
        """``view(seat, explain=True)`` of the person's seat (computed once per position): the
        page's view, its log with the events' rule ids and score lines (the hint's analysis is
        given the plain view, as a bot is: ``Game.view``)."""
        g = self._need_game()
        game, n, seat, v = self._shown
        if game is not g or n != len(g.history) or seat != self.seat:
            v = g.view(self.seat, explain=True)
            self._shown = (g, len(g.history), self.seat, v)
        return v

    def reply(self, finished: dict | None = None) -> dict:
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

    def finished_deal(self) -> dict | None:
        """The "last deal" items of the deal that ended last (see _last_deal), or None."""
        self._need_game()
        return self.last_deal

    def _apply(self, g: Game, action) -> dict | None:
        """Apply an action; returns the "last deal" items for the page when the action ended a
        deal and the next one started inside the same step (else None)."""
        start, deal, seat = getattr(g, "_deal_event", None), g.deal_no, g.to_move
        before = self.view()                 # what the person saw before the step
        g.apply(action)
        if start is None or g.deal_no == deal:
            return None
        events = g.visible_events(self.seat, start, explain=True)
        later = g.visible_events(self.seat, getattr(g, "_deal_event", len(g.events)),
                                 explain=True)
        self.finished = {"deal_no": deal, "log": events[:len(events) - len(later)]}
        if action.get("type") == "play":        # a card played face up ended the deal
            self.finished["last_play"] = {"seat": seat, **{k: v for k, v in action.items()
                                                           if k != "type"}}
        if g.is_over:
            return None
        self.last_deal = self._last_deal(self.finished, before, later, g)
        return self.last_deal

    @staticmethod
    def _last_deal(finished: dict, before: dict, later: list, g: Game) -> dict:
        """The "last deal" panel and the centre after a deal ended: the deal's final trick
        event, the results (what followed the last trick, and what the new deal's log says
        before its first card or action), the final trick as it lay on the table (the cards
        before the step plus the card that ended the deal), the scores before and after."""
        log = finished["log"]
        takes = atut.games.spec(g.game_id).trick_events      # the events giving a trick away
        ti = max((i for i, e in enumerate(log) if e.get("type") in takes),
                 default=-1)
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

    # --- turns -----------------------------------------------------------------------------

    def act(self, action=None) -> dict:
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

    def bot_step(self) -> dict:
        """The move of the seat to move when it is not the person's (a bot's, or an outside
        seat's, played here by its level-2 bot): the reply as ``act``'s."""
        return finish(self.bot_step_steps())

    def bot_step_steps(self) -> Steps[dict]:
        """``bot_step`` as an exchange: a level-4 search asks for its shards (``Jobs``), an
        outside seat for its student's bot's move (``Ask``)."""
        g = self._need_game()
        if g.is_over:
            raise ValueError("the game is over")
        s = g.to_move
        if s == self.seat and s not in self.outside and s not in self.fallen:
            raise ValueError("it is your turn, not a bot's")
        if s in self.outside or s in self.fallen:
            return (yield from self._outside_step(g, s))
        view = g.view(s)
        bot = self.bots[s]
        if self.teach and self.levels.get(s, 0) >= 3 and len(view["legal_actions"]) > 1:
            # the bot's own search, shown beside its move: its best is the bot's choice
            note = yield from self._analysed(g.game_id, view, self.levels[s], bot.seed, None)
            action = note["best"]
            self.notes[s] = {**note, "deal_no": g.deal_no, "move": len(g.history)}
        else:
            runner = yield from searched(bot_jobs(bot, view))
            with atut.bots.shards.using(runner):
                action = bot.choose(view)
            self.notes.pop(s, None)
        return self.reply(self._apply(g, action))

    # --- outside seats: a student's bot, played in the lab's worker ----------------------------

    def _outside_step(self, g: Game, s: int) -> Steps[dict]:
        """An outside seat's move: asked of the lab's worker (the seat's view only).  An answer
        that fails or is not legal drops the outside bots (``outside_drop``): this move and the
        rest of the game are played by the seats' level-2 bots.  No answer (nobody to ask): the
        seat's level-2 bot plays this move."""
        if s in self.outside:
            n = len(g.history)
            answer = yield Ask(s, self.outside[s], g.view(s))
            if self.game is not g or len(g.history) != n:
                raise ValueError("the table changed meanwhile")
            if isinstance(answer, dict) and "failed" not in answer:
                action = answer.get("action")
                if isinstance(action, dict) and action in g.legal_actions():
                    self.notes.pop(s, None)
                    return self.reply(self._apply(g, action))
                self.refused = s           # the lab's worker is told (atut.table.ops)
            if answer is not None:
                self.outside_drop()
        bot = self.bots.get(s)             # an outside seat's bot is level 2 (split_outside)
        if bot is None:                    # the person's seat when watching gets one here
            bot = self.bots[s] = atut.make_bot(g.game_id, OUTSIDE_LEVEL, seed=bot_seed(g.seed, s))
        self.notes.pop(s, None)
        return self.reply(self._apply(g, bot.choose(g.view(s))))

    def outside_drop(self) -> dict[str, str]:
        """The outside bots are done for this game (one failed): their seats are played by
        their level-2 bots from now on.  Returns the seats and names dropped."""
        self._need_game()
        dropped = {str(s): n for s, n in sorted(self.outside.items())}
        self.fallen.update(self.outside)
        self.outside = {}
        return dropped

    def outside_seats(self) -> dict:
        """The outside bots still seated and those that failed: ``{"outside", "fallen"}``,
        each ``{seat: name}``."""
        self._need_game()
        return {"outside": {str(s): n for s, n in sorted(self.outside.items())},
                "fallen": {str(s): n for s, n in sorted(self.fallen.items())}}

    # --- aids: why not, hints, undo ---------------------------------------------------------

    def explain(self, action=None) -> dict:
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

    def hint(self, budget: dict | None = None) -> dict:
        """The analysis of the person's view (``atut.analyse``, level ``HINT_LEVEL``, a fixed
        seed, the ``COUNTED`` budget) on the person's turn: a function of that view alone (its
        beliefs too), the same on every machine.  Level 3 searches in one piece: no jobs."""
        g = self._need_game()
        if g.is_over or g.to_move != self.seat:
            raise ValueError("a hint is given only on your turn")
        return atut.analyse(g.game_id, g.view(self.seat), HINT_LEVEL, seed=HINT_SEED,
                            budget=counted(budget))

    def undo(self) -> dict:
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

    def can_undo(self) -> bool:
        """Whether the person has a decision of the current deal to take back."""
        g = self._need_game()
        return not g.is_over and bool(self._decisions(g))

    def _decisions(self, g: Game) -> list[int]:
        """The history lengths before each decision of the person (a choice of two or more
        actions) in the current deal, by replaying the game's actions."""
        r = self._replay_to(g, 0)
        out = []
        for i, a in enumerate(g.history):
            if r.to_move == self.seat and r.deal_no == g.deal_no and len(r.legal_actions()) > 1:
                out.append(i)
            r.apply(a)
        return out

    @staticmethod
    def _replay_to(g: Game, n: int) -> Game:
        """A copy of ``g`` after its first ``n`` actions (a replay of the save)."""
        data = json.loads(g.to_json())
        data.pop("undos", None)
        data["actions"] = data["actions"][:n]
        return atut.load_game(data)

    # --- review of the deal that ended last ----------------------------------------------------

    def _ended_deal(self, g: Game) -> int:
        """The number of the deal that ended last (the game's last when it is over)."""
        if g.is_over:
            return g.deal_no
        if self.finished is None:
            raise ValueError("no deal has ended yet")
        return self.finished["deal_no"]

    def _action_at(self, g: Game, i) -> Game:
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(g.history):
            raise ValueError(f"no action {i!r} in this game")
        return self._replay_to(g, i)

    def review(self) -> dict:
        """The deal that ended last, step by step with every hand open (it is over: nothing
        is hidden any more): ``{"deal_no", "steps": [{"i", "seat", "action", "hands", "trick",
        "mine", "bot"}]}``, ``i`` the action's index in the game, ``mine`` a decision of the
        person (a choice of two or more) to grade with ``review_grade``, ``bot`` a bot's
        decision to explain with ``review_bot``."""
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

    def review_grade(self, i: int = 0, budget: dict | None = None) -> dict:
        """The grade of the person's decision at action ``i`` of a finished deal: the level-4
        analysis of the person's view then (seed ``REVIEW_SEED``), the value the played action
        lost against the best, and the grade (``GRADES``)."""
        return finish(self.review_grade_steps(i, budget))

    def review_grade_steps(self, i: int = 0, budget: dict | None = None) -> Steps[dict]:
        """``review_grade`` as an exchange (its level-4 search asks for its shards)."""
        g = self._need_game()
        deal = self._ended_deal(g)
        r = self._action_at(g, i)
        if r.deal_no > deal or r.to_move != self.seat:
            raise ValueError("only your own decisions of a finished deal are graded")
        out = yield from self._analysed(g.game_id, r.view(self.seat), REVIEW_LEVEL, REVIEW_SEED,
                                        counted(budget))
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

    def review_bot(self, i: int = 0, budget: dict | None = None) -> dict:
        """Why a bot played action ``i`` of a finished deal (the deal is over: its hand may be
        told now): the analysis of the bot's view then, by the bot's own search and seed
        (level 3 for a bot below it, which searches nothing), with what it believed:
        ``{"i", "seat", "level", "bot_level", "played", "best", "actions", "beliefs"}``."""
        return finish(self.review_bot_steps(i, budget))

    def review_bot_steps(self, i: int = 0, budget: dict | None = None) -> Steps[dict]:
        """``review_bot`` as an exchange (a level-4 search asks for its shards)."""
        g = self._need_game()
        deal = self._ended_deal(g)
        r = self._action_at(g, i)
        s = r.to_move
        if r.deal_no != deal or s is None or s == self.seat or s not in self.bots:
            raise ValueError("only a bot's move of the deal that ended last is explained")
        level = max(3, self.levels.get(s, 3))
        out = yield from self._analysed(g.game_id, r.view(s), level, self.bots[s].seed,
                                        counted(budget))
        return {"i": i, "seat": s, "level": level, "bot_level": self.levels.get(s),
                "played": g.history[i], "best": out["best"], "actions": out["actions"],
                "beliefs": out["beliefs"]}

    @staticmethod
    def _analysed(game_id: str, view: dict, level: int, seed: int,
                  budget: dict | None) -> Steps[dict]:
        """``atut.analyse`` of ``view``, its shards asked for first."""
        # the bot atut.analyse searches with
        runner = yield from searched(bot_jobs(make_bot(game_id, level, seed, budget), view))
        with atut.bots.shards.using(runner):
            return atut.analyse(game_id, view, level, seed=seed, budget=budget)
