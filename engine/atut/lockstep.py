"""Our euchre bots against OpenSpiel's C++ IS-MCTS on OpenSpiel's own C++ euchre, both engines
in lockstep (docs/OPENSPIEL.md, "Lockstep against the C++ IS-MCTS").

Every deal is dealt by OpenSpiel's chance nodes and copied into our euchre (``deck_for_ours``:
the same hands, the same upcard, the same dealer).  Every action is applied to both engines and
at every decision the two legal sets are compared; a difference stops the run with an error.
Our seats decide from our view (``Game.view``), the C++ seats from OpenSpiel's state with
``pyspiel.ISMCTSBot`` (C++, random roll-outs, MAX_VISIT_COUNT), which costs milliseconds a
decision instead of the Python IS-MCTS's seconds.

The rules are OpenSpiel's where the two differ:

- **G9**: our dealer may discard the upcard he picked up; OpenSpiel's may not.  Our bot is
  given the view with that one discard taken out of ``legal_actions`` (it plays OpenSpiel's
  rule); the legal sets are compared with that difference allowed and nothing else.
- ``stick_the_dealer`` on (OpenSpiel's default) is our ``redeal`` off; ``allow_lone_defender``
  off is our ``defend_alone`` off (G10 asks defenders only after a lone maker).

One observation is one duplicate deal: the same cards played twice with the pairs swapped (our
bot at seats 0 and 2, then at 1 and 3); its value is the mean of our pair's points over the two
plays (OpenSpiel's returns: +-1, 2 or 4 for the makers' pair, G14).

    python -m atut.lockstep --bots 3,cpp-ismcts:1000 --deals 200 --seed 1 [--jobs 2]

Needs ``open-spiel`` (``pip install '.[openspiel]'``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from . import cards as C
from .game import canonical

OS_SUITS = "CDHS"                   # pyspiel.euchre.Suit order
UCT_C = 2.0                         # OpenSpiel's examples' exploration constant, euchre's scale


def _pyspiel():
    import pyspiel
    return pyspiel


def os_card(code: str) -> str:
    """``"JH"`` (pyspiel's suit + rank, T for ten) -> our ``"JH"`` / ``"10H"``."""
    suit, rank = code[0], code[1:]
    return ("10" if rank == "T" else rank) + suit


def os_to_ours(cs, a: int, phase: str) -> dict:
    """OpenSpiel's euchre action ``a`` in state ``cs`` as our action, in our ``phase``."""
    text = cs.action_to_string(cs.current_player(), a)
    if text == "Pass":
        return {"type": "pass"}
    if text in ("Alone", "Partner"):
        return {"type": "alone", "value": text == "Alone"}
    if text in ("Clubs", "Diamonds", "Hearts", "Spades"):
        if phase == "round1":
            return {"type": "order_up"}
        return {"type": "name", "suit": text[0]}
    return {"type": "discard" if phase == "discard" else "play", "card": os_card(text)}


def deck_for_ours(dealer: int, os_cards: list[str]) -> list[str]:
    """Our deck (card codes by position) dealing the hands OpenSpiel dealt: its i-th card goes
    to seat (dealer + i) % 4, the 21st is the upcard; ours follows G3's packets (DEAL_SEATS)."""
    from .games.euchre import DEAL_SEATS, DECK
    got = {s: [c for i, c in enumerate(os_cards[:20]) if (dealer + i) % 4 == s]
           for s in range(4)}
    deck = [None] * 24
    for pos, s in enumerate(DEAL_SEATS[dealer]):
        deck[pos] = got[s].pop(0)
    deck[20] = os_cards[20]
    deck[21:] = sorted(set(C.CODES[c] for c in DECK) - set(os_cards))
    return deck


class Lockstep:
    """One deal of euchre in OpenSpiel's C++ engine (``cs``) and in ours (``game``), kept in
    step: ``choices()`` is the legal set of both, keyed by our canonical action, checked to
    agree (apart from G9's upcard discard); ``apply(key)`` plays one of them in both."""

    def __init__(self, rng: random.Random, stick: bool = True):
        import atut
        pyspiel = _pyspiel()
        self.cs = pyspiel.load_game("euchre", {"allow_lone_defender": False,
                                               "stick_the_dealer": stick}).new_initial_state()
        while self.cs.is_chance_node():
            self.cs.apply_action(rng.choice(self.cs.chance_outcomes())[0])
        self.dealer = self.cs.dealer()
        self.os_cards = [os_card(self.cs.action_to_string(-1, h.action))
                         for h in self.cs.full_history()[1:]]
        self.game = atut.new_game("euchre", players=4, dealer=self.dealer,
                                  deck=deck_for_ours(self.dealer, self.os_cards),
                                  options={"redeal": not stick, "defend_alone": False})
        self.upcard = self.os_cards[20]
        if self.game.view(0)["upcard"] != self.upcard:
            raise AssertionError("the two engines dealt different upcards")

    def done(self) -> bool:
        return self.cs.is_terminal()

    def to_move(self) -> int:
        seat = self.cs.current_player()
        if seat != self.game.to_move:
            raise AssertionError(f"OpenSpiel's seat {seat} to move, ours {self.game.to_move}")
        return seat

    def choices(self) -> tuple[dict, list[dict]]:
        """``({key: OpenSpiel action}, our legal actions under OpenSpiel's rules)``."""
        phase = self.game.phase
        mapped = {canonical(os_to_ours(self.cs, a, phase)): a for a in self.cs.legal_actions()}
        ours = self.game.legal_actions()
        keys = {canonical(a) for a in ours}
        extra = keys - set(mapped)
        if phase == "discard":                      # G9: ours may also discard the upcard
            extra -= {canonical({"type": "discard", "card": self.upcard})}
        if extra or set(mapped) - keys:
            raise AssertionError(f"legal sets differ in {phase}: ours {sorted(keys)}, "
                                 f"OpenSpiel's {sorted(mapped)}")
        return mapped, [a for a in ours if canonical(a) in mapped]

    def apply(self, key: str, mapped: dict, ours: list[dict]) -> dict:
        action = next(a for a in ours if canonical(a) == key)
        self.cs.apply_action(mapped[key])
        self.game.apply(action)
        return action

    def returns(self) -> list[float]:
        got = list(self.cs.returns())
        mine = self.game.scores                         # the pairs' points (G14)
        if got[0] != mine[0] - mine[1]:
            # OpenSpiel's returns are zero-sum: the makers' points, the defenders' minus
            raise AssertionError(f"returns differ: OpenSpiel {got}, ours {mine}")
        return got


def cpp_ismcts(simulations: int, seed: int):
    """OpenSpiel's C++ IS-MCTS with ``simulations`` a decision, random roll-outs."""
    pyspiel = _pyspiel()
    ev = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.ISMCTSBot(seed, ev, UCT_C, simulations, -1,
                             pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)


def _our_bot(spec: str, seed: int):
    from .arena import _seat_bot, bot_spec
    from .bots import make_bot
    s = bot_spec(spec)
    if isinstance(s, int):
        b = make_bot("euchre", s, seed=seed, strict=True)
        if s >= 3:
            b.budget["clock"] = "cpu"               # counted budgets: seeded and repeatable
        return b
    return _seat_bot(s)


def _our_choice(bot, view: dict, mapped: dict, second: bool = False) -> str | None:
    """Our bot's action, as a key of ``mapped``; ``None`` when it chose to bury the upcard
    (G9), which OpenSpiel's rules forbid.  With ``second`` the bot's best action among those
    OpenSpiel allows: by its search values where it has them (levels 3-4), else its choice
    from the view with the upcard's discard taken out (levels 1-2 and bot files never check
    the view against a search)."""
    if not second:
        key = canonical(bot.choose(view))
        return key if key in mapped else None
    legal = view["legal_actions"]
    if hasattr(bot, "evaluate"):
        found = bot.evaluate(view, legal, bot.decision_rng(view))
        if found is not None:
            ok = [i for i, a in enumerate(legal) if canonical(a) in mapped]
            return canonical(legal[max(ok, key=lambda i: found[1][i])])
    view = dict(view, legal_actions=[a for a in legal if canonical(a) in mapped])
    key = canonical(bot.choose(view))
    if key not in mapped:
        raise ValueError(f"our bot chose {key}, which is not legal")
    return key


def _rules_call(view: dict, mapped: dict) -> str:
    """The level-2 rules' action at ``view`` (a key of ``mapped``): the call that a going-alone
    decision is compared with."""
    from .bots import make_bot
    key = canonical(make_bot("euchre", 2, seed=0).choose(view))
    if key not in mapped:
        raise ValueError(f"the rules chose {key}, which is not legal here")
    return key


ALONE = canonical({"type": "alone", "value": True})      # the maker goes alone (G10)


def play(deal_seed: int, ours: str, simulations: int, ours_at: int, record: list | None = None,
         clock=time.process_time, forced: tuple | None = None) -> dict:
    """One deal: our ``ours`` bot at seats ``ours_at`` and ``ours_at + 2``, the C++ IS-MCTS at
    the others.  Returns our pair's points, the alone calls of each side with the points they
    made, and the CPU seconds a decision of each side.

    When our bot goes alone (G10) where the level-2 rules would not, the same deal is played
    again from that decision with the rules' call in its place (``forced``: the actions before
    it, then the rules' call; the bots, made afresh, decide the rest), and ``alone_rules`` is
    our pair's points then (when the rules go alone too it is the same deal: the same points)."""
    ls = Lockstep(random.Random(deal_seed))
    bots = {}
    for seat in range(4):
        if seat % 2 == ours_at:
            bots[seat] = _our_bot(ours, deal_seed * 31 + seat)
        else:
            bots[seat] = cpp_ismcts(simulations, (deal_seed * 31 + seat) % (2 ** 31))
    t = {"ours": [0.0, 0], "theirs": [0.0, 0]}
    alone = None
    buried = 0
    keys = []
    instead = None                  # (the step, the rules' call) of our alone call
    while not ls.done():
        seat = ls.to_move()
        mapped, legal = ls.choices()
        side = "ours" if seat % 2 == ours_at else "theirs"
        step = len(keys)
        if forced is not None and step <= len(forced[0]):
            key = forced[0][step] if step < len(forced[0]) else forced[1]
        else:
            t0 = clock()
            if side == "ours":
                key = _our_choice(bots[seat], ls.game.view(seat), mapped)
                if key is None:
                    buried += 1
                    key = _our_choice(bots[seat], ls.game.view(seat), mapped, second=True)
            else:
                a = bots[seat].step(ls.cs)
                key = next(k for k, v in mapped.items() if v == a)
            if len(mapped) > 1:
                t[side][0] += clock() - t0
                t[side][1] += 1
            if side == "ours" and forced is None and key == ALONE:
                instead = (step, _rules_call(ls.game.view(seat), mapped))
        action = ls.apply(key, mapped, legal)
        keys.append(key)
        if action.get("type") == "alone" and action.get("value"):
            alone = side
        if record is not None:
            record.append(key)
    r = ls.returns()
    out = {"points": r[ours_at], "alone": alone, "times": t, "g9": buried}
    if instead is not None:
        step, rules = instead
        out["alone_rules"] = r[ours_at] if rules == keys[step] else play(
            deal_seed, ours, simulations, ours_at, clock=clock,
            forced=(keys[:step], rules))["points"]
    return out


def duplicate(args) -> dict:
    """One duplicate deal (``(seed, k, ours, simulations)``): both seatings, our mean points."""
    seed, k, ours, sims = args
    deal_seed = seed * 100003 + k
    a = play(deal_seed, ours, sims, 0)
    b = play(deal_seed, ours, sims, 1)
    return {"deal": k, "margin": (a["points"] + b["points"]) / 2, "plays": [a, b]}


def run(ours: str, simulations: int, deals: int, seed: int = 1, jobs: int = 1, start: int = 0,
        progress=None) -> dict:
    from .arena import mean_ci
    tasks = [(seed, k, ours, simulations) for k in range(start, start + deals)]
    rows = []
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(jobs) as ex:
            for r in ex.map(duplicate, tasks):
                rows.append(r)
                if progress:
                    progress(rows)
    else:
        for task in tasks:
            rows.append(duplicate(task))
            if progress:
                progress(rows)
    return summary(rows, ours, simulations, seed, mean_ci)


def summary(rows, ours, simulations, seed, mean_ci=None) -> dict:
    if mean_ci is None:
        from .arena import mean_ci
    m, half = mean_ci([r["margin"] for r in rows])
    plays = [p for r in rows for p in r["plays"]]
    times = {s: [sum(p["times"][s][0] for p in plays), sum(p["times"][s][1] for p in plays)]
             for s in ("ours", "theirs")}
    alone = {s: [p["points"] if s == "ours" else -p["points"] for p in plays if p["alone"] == s]
             for s in ("ours", "theirs")}
    # our alone calls: (the points, the points with the rules' call in its place)
    versus = [[p["points"], p["alone_rules"]] for p in plays if "alone_rules" in p]
    return {"ours": ours, "simulations": simulations, "seed": seed, "deals": len(rows),
            "g9": sum(p.get("g9", 0) for p in plays),
            "margin": m, "half": half, "times": times, "alone": alone, "alone_vs_rules": versus,
            "rows": [{"deal": r["deal"], "margin": r["margin"]} for r in rows]}


def pool(summaries: list[dict]) -> dict:
    """Summaries of the same setting (``--json`` files of runs split by ``--start``) as one:
    their deals, times, alone calls and G9 counts together."""
    from .arena import mean_ci
    first = summaries[0]
    for s in summaries:
        if (s["ours"], s["simulations"], s["seed"]) != (first["ours"], first["simulations"],
                                                         first["seed"]):
            raise ValueError("these runs are not of the same bots and seed")
    rows = sorted((r for s in summaries for r in s["rows"]), key=lambda r: r["deal"])
    if len({r["deal"] for r in rows}) != len(rows):
        raise ValueError("a deal is in two of these runs")
    m, half = mean_ci([r["margin"] for r in rows])
    out = dict(first, deals=len(rows), rows=rows, margin=m, half=half,
               g9=sum(s["g9"] for s in summaries))
    out["times"] = {k: [sum(s["times"][k][0] for s in summaries),
                        sum(s["times"][k][1] for s in summaries)] for k in ("ours", "theirs")}
    out["alone"] = {k: [x for s in summaries for x in s["alone"][k]] for k in ("ours", "theirs")}
    out["alone_vs_rules"] = [x for s in summaries for x in s.get("alone_vs_rules", [])]
    return out


def report(s: dict) -> str:
    lo, hi = s["margin"] - s["half"], s["margin"] + s["half"]
    sec = {k: v[0] / max(v[1], 1) for k, v in s["times"].items()}
    lines = [f"{s['ours']} against C++ IS-MCTS({s['simulations']}), euchre single deals, "
             f"{s['deals']} duplicate deals, seed {s['seed']}",
             f"  margin a deal: {s['margin']:+.3f} points, 95% CI [{lo:+.3f}, {hi:+.3f}]",
             f"  CPU a decision: ours {sec['ours']:.3f} s, C++ IS-MCTS {sec['theirs']:.4f} s",
             f"  G9: our dealer would have buried the upcard {s['g9']} times (its next best "
             "action played)"]
    for side, pts in s["alone"].items():
        if pts:
            lines.append(f"  alone calls by {side}: {len(pts)}, mean {sum(pts) / len(pts):+.2f}"
                         " points for the caller's pair")
    versus = s.get("alone_vs_rules") or []
    if versus:
        from .arena import mean_ci
        gain, half = mean_ci([a - b for a, b in versus])
        same = sum(1 for a, b in versus if a == b)
        lines.append(
            f"  ours alone, the same deals with the rules' call (G10): {len(versus)} calls, "
            f"{sum(a for a, _ in versus) / len(versus):+.2f} against "
            f"{sum(b for _, b in versus) / len(versus):+.2f} points; going alone gains "
            f"{gain:+.2f} [{gain - half:+.2f}, {gain + half:+.2f}] a call ({same} equal)")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m atut.lockstep", description=__doc__.split("\n")[0])
    p.add_argument("--bots", default="3,cpp-ismcts:1000",
                   help="OURS,cpp-ismcts:N (ours: a level 1-5 or a bot file)")
    p.add_argument("--pool", nargs="+", metavar="JSON",
                   help="report these --json files of one setting as one run, and stop")
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--start", type=int, default=0, help="first deal index (split long runs)")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--json", help="write the summary with every deal's margin here")
    a = p.parse_args(argv)
    if a.pool:
        summaries = []
        for path in a.pool:
            with open(path) as f:
                summaries.append(json.load(f))
        s = pool(summaries)
        print(report(s))
        if a.json:
            with open(a.json, "w") as f:
                json.dump(s, f, indent=1)
        return 0
    ours, theirs = a.bots.split(",")
    if not theirs.startswith("cpp-ismcts:") or not theirs.split(":")[1].isdigit():
        p.error("the second bot must be cpp-ismcts:N")

    def show(rows):
        if len(rows) % 10 == 0:
            print(f"--- {len(rows)}/{a.deals}", file=sys.stderr, flush=True)

    s = run(ours, int(theirs.split(":")[1]), a.deals, a.seed, a.jobs, a.start, show)
    print(report(s))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(s, f, indent=1)
    return 0


if __name__ == "__main__":                                   # pragma: no cover
    sys.exit(main())
