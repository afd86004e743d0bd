"""Command line: ``python -m atut play|bench|arena|bench-bots``.

    python -m atut play sixty_six --players 2          play in a terminal against bots
    python -m atut bench [--seconds 2] [--games g,...]  random full games per second
    python -m atut arena GAME --bots 3,2 --players 2 --deals 200 --seed 1 [--jobs 2]
    python -m atut bench-bots                           bot decision times per level
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import atut
from atut.bots.catalogue import NUMBERS

SUIT_SYMBOL = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


def _card(code: str) -> str:
    if code and code[-1] in SUIT_SYMBOL and code[:-1]:
        return code[:-1] + SUIT_SYMBOL[code[-1]]
    return code


def _action_text(a: dict) -> str:
    t = a["type"]
    rest = {k: v for k, v in a.items() if k != "type"}
    if t == "play":
        s = "play " + _card(rest.pop("card"))
        if "companion" in rest:
            s += " + " + _card(rest.pop("companion"))
        if "meld" in rest:
            s += "  (meld with " + _card(rest.pop("meld")) + ")"
    else:
        s = t
    if rest:
        s += " " + " ".join(f"{k}={_card(v) if isinstance(v, str) else v}"
                            for k, v in rest.items())
    return s


def _event_text(e: dict) -> str:
    parts = [e["type"]]
    for k, v in e.items():
        if k == "type":
            continue
        if isinstance(v, list):
            v = " ".join(_card(x) if isinstance(x, str) else str(x) for x in v)
        elif isinstance(v, dict):
            v = _action_text(v) if "type" in v else json.dumps(v)
        elif isinstance(v, str):
            v = _card(v)
        parts.append(f"{k}={v}")
    return " ".join(parts)


def _show(view: dict, seat: int) -> None:
    print()
    print(f"-- {view['game']} · deal {view.get('deal_no')} · dealer {view['dealer']} · "
          f"trump {SUIT_SYMBOL.get(view.get('trump') or '', '-')} · scores {view['scores']}")
    for key in ("trump_card", "stock", "target"):
        if view.get(key) is not None:
            val = view[key]
            print(f"   {key}: {_card(val) if isinstance(val, str) else val}")
    for s in view.get("seats", []):
        me = " (you)" if s["seat"] == seat else ""
        extra = {k: v for k, v in s.items() if k not in ("seat",) and v is not None}
        print(f"   seat {s['seat']}{me}: " + ", ".join(f"{k} {v}" for k, v in extra.items()))
    for p in view.get("piles", []):
        if "cards" in p:
            print(f"   {p['id']}: " + " ".join(_card(c) for c in p["cards"]))
        else:
            print(f"   {p['id']}: {p.get('count')} cards")
    for item in view.get("summary", []):
        print("   " + _event_text(dict(item, type=item.get("key", "info"))))
    if view.get("trick"):
        print("   trick: " + "  ".join(f"{t['seat']}:{_card(t['card'])}" +
                                         (f"+{_card(t['companion'])}" if t.get("companion") else "")
                                         for t in view["trick"]))
    print("   your hand: " + " ".join(_card(c) for c in view["hand"]))


def cmd_play(args) -> int:
    cls = atut.game_class(args.game)
    players = args.players or cls.PLAYERS[0]
    game = atut.new_game(args.game, players=players, seed=args.seed)
    bots = {s: atut.make_bot(args.game, args.level, seed=args.seed * 100 + s)
            for s in range(players) if s != args.seat}
    shown = 0
    while not game.is_over:
        seat = game.to_move
        view = game.view(args.seat)
        for e in view["log"][shown:] if len(view["log"]) >= shown else view["log"]:
            print("   · " + _event_text(e))
        shown = len(view["log"])
        if seat != args.seat:
            action = bots[seat].choose(game.view(seat))
            game.apply(action)
            continue
        _show(view, seat)
        legal = view["legal_actions"]
        for i, a in enumerate(legal):
            print(f"   [{i}] {_action_text(a)}")
        while True:
            try:
                line = input("your move (number, q to quit): ").strip()
            except EOFError:
                print()
                return 0
            if line in ("q", "quit", "exit"):
                return 0
            try:
                game.apply(legal[int(line)])
                break
            except (ValueError, IndexError):
                print(f"   please type a number from 0 to {len(legal) - 1}")
            except atut.IllegalAction as e:
                print(f"   {e}")
    final = game.view(args.seat)
    for e in final["log"][shown:]:
        print("   · " + _event_text(e))
    print(f"\ngame over: winner {game.winner}; scores {game.scores}")
    return 0


# --- bench ------------------------------------------------------------------------------

def _random_games(game_id: str, players: int, seconds: float, internal: bool = False):
    """Play seeded random games for about ``seconds``; a game still running when the time is
    up counts its deals but not itself.  ``internal``: the search path the bots use
    (``_legal``/``_apply``, no event record) instead of ``legal_actions``/``apply``."""
    games = deals = actions = 0
    start = time.process_time()
    seed = 0
    elapsed = 0.0
    while elapsed < seconds:
        game = atut.new_game(game_id, players=players, seed=seed)
        rng = random.Random(seed)
        done = 0
        fast = internal and hasattr(game, "_moves")
        if internal:
            game._recording = False
        while game.to_move is not None:
            if fast:                        # int moves, where the game has them
                game._do(rng.choice(game._moves()))
            elif internal:
                game._apply(rng.choice(game._legal()))
            else:
                game.apply(rng.choice(game.legal_actions()))
            actions += 1
            if game.deal_no != done + 1:
                done = game.deal_no - 1
                elapsed = time.process_time() - start
                if elapsed >= seconds:
                    break
        if game.is_over:
            games += 1
            done = game.deal_no
        deals += done
        seed += 1
        elapsed = time.process_time() - start
    return games / elapsed, deals / elapsed, actions / elapsed


def _api_floor(game_id: str, players: int, seconds: float) -> float:
    """Deals per second of an engine with no rules that keeps only the public API's promises,
    on the legal-action lists of real random deals: per step a fresh dict per legal action
    (``legal_actions``), a random pick found among them (``apply``), the action kept and its
    event recorded.  No engine behind this API can be faster in this Python: the ceiling of
    the "Nx a peer" targets."""
    steps = []                                       # the legal lists of 30 seeded random deals
    for seed in range(30):
        game = atut.new_game(game_id, players=players, seed=seed)
        rng = random.Random(seed)
        deal = []
        while game.to_move is not None and game.deal_no == 1:
            legal = game.legal_actions()
            deal.append(legal)
            game.apply(rng.choice(legal))
        steps.append(deal)
    rng = random.Random(0)
    deals = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for deal in steps:
            history, events = [], []
            for legal_now in deal:
                legal = list(map(dict.copy, legal_now))
                a = legal_now[legal_now.index(rng.choice(legal))]
                history.append(a)
                events.append({"type": "action", "seat": 0, "action": dict(a)})
        deals += len(steps)
    return deals / (time.process_time() - start)


def _peer_schnapsen(seconds: float):
    """The schnapsen PyPI package: random against random, games per second."""
    try:
        from schnapsen.game import Bot, SchnapsenGamePlayEngine
    except Exception:
        return None

    class _Rand(Bot):
        def __init__(self, rng):
            super().__init__()
            self.rng = rng

        def get_move(self, perspective, leader_move):
            return self.rng.choice(perspective.valid_moves())

    engine = SchnapsenGamePlayEngine()
    rng = random.Random(0)
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        engine.play_game(_Rand(random.Random(games)), _Rand(random.Random(games + 1)), rng)
        games += 1
    return games / (time.process_time() - start)


def _peer_openspiel_euchre(seconds: float):
    """OpenSpiel's euchre driven from Python with random actions, games per second."""
    try:
        import pyspiel
    except Exception:
        return None
    game = pyspiel.load_game("euchre")
    rng = random.Random(0)
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        games += 1
    return games / (time.process_time() - start)


def cmd_bench(args) -> int:
    """Random full games; in tysiac1001 uniformly random bids sink every score, so random games
    to 1001 hardly ever end there: read its deals/s."""
    games = args.games.split(",") if args.games else list(atut.built_games())
    results = {}
    deal_rates = {}
    for internal in (False, True):
        if internal:
            print("\nthe same through the search path the bots use (_legal/_apply, no record)")
        else:
            print(f"random full games through the public API (legal_actions + apply), CPU time, "
                  f"{args.seconds:g} s each, Python {sys.version.split()[0]}")
        print(f"{'game':<12}{'players':>8}{'games/s':>12}{'deals/s':>12}{'actions/s':>12}")
        for g in games:
            for p in atut.game_class(g).PLAYERS:
                gps, dps, aps = _random_games(g, p, args.seconds, internal)
                results[(g, p, internal)] = gps
                deal_rates[(g, p, internal)] = dps
                print(f"{g:<12}{p:>8}{gps:>12.1f}{dps:>12.1f}{aps:>12.0f}")
    if not args.no_peers:
        if "sixty_six" in games:
            peer = _peer_schnapsen(args.seconds)
            if peer is None:
                print("peer: schnapsen (PyPI) not installed; pip install schnapsen to compare")
            else:
                api, fast = results[("sixty_six", 2, False)], results[("sixty_six", 2, True)]
                print(f"\npeer: schnapsen (PyPI) random vs random {peer:.1f} games/s; "
                      f"sixty_six 2 players is {api / peer:.1f}x that through the public API, "
                      f"{fast / peer:.1f}x through the search path")
                floor = _api_floor("sixty_six", 2, args.seconds)
                print(f"  the API's ceiling: no rules, only the API's promises, {floor:.1f} "
                      f"games/s ({floor / peer:.1f}x schnapsen)")
        if "euchre" in games:
            peer = _peer_openspiel_euchre(args.seconds)
            if peer is None:
                print("peer: open-spiel (PyPI) not installed; pip install open-spiel to compare")
            else:
                # an OpenSpiel euchre "game" is one deal: compare deals
                api, fast = deal_rates[("euchre", 4, False)], deal_rates[("euchre", 4, True)]
                print(f"peer: OpenSpiel euchre (one deal per game) random {peer:.1f} deals/s; "
                      f"euchre deals are {api / peer:.2f}x that through the public API, "
                      f"{fast / peer:.2f}x through the search path")
                floor = _api_floor("euchre", 4, args.seconds)
                print(f"  the API's ceiling: no rules, only the API's promises, {floor:.1f} "
                      f"deals/s ({floor / peer:.2f}x OpenSpiel)")
    return 0


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "arena":
        from atut.arena import main as arena_main
        return arena_main(argv[1:]) or 0
    if argv and argv[0] == "bench-bots":
        from atut.arena import bench_bots
        return bench_bots(argv[1:]) or 0
    if argv and argv[0] == "tournament":
        from atut.tournament import main as tournament_main
        return tournament_main(argv[1:]) or 0
    if argv and argv[0] == "bench-boxes":
        from atut.tournament import bench
        return bench(argv[1:]) or 0
    if argv and argv[0] == "soak":
        from atut.soak import main as soak_main
        return soak_main(argv[1:]) or 0
    parser = argparse.ArgumentParser(prog="python -m atut", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play", help="play in a terminal against bots")
    p.add_argument("game", choices=atut.GAME_IDS)
    p.add_argument("--players", type=int)
    p.add_argument("--seat", type=int, default=0)
    p.add_argument("--seed", type=int, default=random.SystemRandom().randrange(10**6))
    p.add_argument("--level", type=int, default=2, choices=NUMBERS, help="bot level")
    b = sub.add_parser("bench", help="random full games per second for each built game")
    b.add_argument("--seconds", type=float, default=2.0)
    b.add_argument("--games", help="comma-separated game ids (default: all built)")
    b.add_argument("--no-peers", action="store_true", help="skip the peer packages")
    sub.add_parser("arena", help="bots against each other (see python -m atut arena -h)")
    sub.add_parser("bench-bots", help="bot decision times per level")
    sub.add_parser("tournament", help="bot files and levels on duplicate deals, a leaderboard "
                                      "(see python -m atut tournament -h)")
    sub.add_parser("bench-boxes", help="level 1 against level 1 in this Python and as bot "
                                       "files in boxes, deals per second")
    sub.add_parser("soak", help="many seeded bot games, their invariants checked at every step "
                                "(see python -m atut soak -h)")
    args = parser.parse_args(argv)
    try:
        if args.cmd == "play":
            cls = atut.game_class(args.game)
            if args.players is not None and args.players not in cls.PLAYERS:
                parser.error(f"{args.game} is played by {cls.PLAYERS} players")
            if not 0 <= args.seat < (args.players or cls.PLAYERS[0]):
                parser.error("--seat must be one of the seats")
            return cmd_play(args)
        return cmd_bench(args)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
