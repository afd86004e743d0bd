#!/usr/bin/env python3
"""Rule coverage: which rule ids the engine cites, and whether the person can read each one.

    python3 scripts/rule_coverage.py [--seeds 3]

Plays seeded whole games of every game and player count with level-2 bots and collects every
rule id that occurs: in an event's ``rule``, in a deal's score lines (``lines``, each with its
``rule`` and ``key``) and in the refusals (``Game.explain``) of illegal actions tried at every
decision (each card of the hand that may not be played, bids and contracts off by a step, a
card given to the wrong seat, an action of another phase).  An id is explained when
docs/rules/<game>.md has its entry in English and in Polish (the rules panel opens at it); a
score line's key is explained when web/i18n/<game>.js has ``line.<key>`` in both languages.
Prints per game: the ids explained / the ids that occur, and what is missing.
tests/test_score_lines.py imports ``occurring``, ``doc_ids`` and ``line_words`` from here.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "engine"))
sys.path.insert(0, str(ROOT))

import atut  # noqa: E402
from tools.rules_html import parse  # noqa: E402

PLAYERS = {"cesarz": (2, 3, 4, 5), "euchre": (4,), "imperial": (2, 3),
           "tysiac1001": (3, 4), "sixty_six": (2, 3, 4)}
RULE_ID = re.compile(r"\b([GE][1-9]\d*)\b")
OTHER_TYPES = ("exchange", "pass", "give_up", "play_on", "order_up", "announce")


def _tries(game) -> list[dict]:
    """Illegal actions worth a refusal at this decision (some may turn out legal)."""
    seat = game.to_move
    view = game.view(seat)
    legal = view["legal_actions"]
    out = [{"type": "play", "card": c} for c in view["hand"]]
    for t in ("bid", "announce"):
        if any(a["type"] == t for a in legal):
            low = min(a["value"] for a in legal if a["type"] == t)
            out += [{"type": t, "value": v} for v in (low - 5, low + 1, 125, 405, 1000)]
    for a in legal:
        if a["type"] == "give":
            for to in range(game.n):
                out.append({"type": "give", "card": a["card"], "to": to})
            for c in view["hand"]:
                out.append({"type": "give", "card": c, "to": a["to"]})
            break
    out += [{"type": t} for t in OTHER_TYPES]
    return out


def occurring(game_id: str, players: int, seeds=(0, 1, 2)):
    """Play seeded whole games; return (ids of events, ids of lines, ids of refusals, line keys,
    the deals as [(lines, score change)] with the scores taken when each line list was
    recorded)."""
    events, lines, refusals, keys = set(), set(), set(), set()
    deals = []
    for seed in seeds:
        game = atut.new_game(game_id, players=players, seed=seed)
        taken = []
        record = game.record

        def rec(ev, visible_to=None, game=game, record=record, taken=taken):
            if "lines" in ev:
                taken.append((ev["lines"], list(game.scores)))
            record(ev, visible_to)
        game.record = rec
        bots = [atut.make_bot(game_id, 2, seed=seed * 10 + s) for s in range(players)]
        while not game.is_over:
            for a in _tries(game):
                why = game.explain(a)
                if why is not None:
                    refusals |= set(RULE_ID.findall(why))
            game.apply(bots[game.to_move].choose(game.view(game.to_move)))
        before = [0] * players
        for ls, after in taken:
            deals.append((ls, [x - y for x, y in zip(after, before)]))
            before = after
        for e in game.events:
            if "rule" in e:
                events.add(e["rule"])
            for line in e.get("lines", ()):
                lines.add(line["rule"])
                keys.add(line["key"])
    return events, lines, refusals, keys, deals


def doc_ids(game_id: str) -> tuple[set[str], set[str]]:
    """The ids with an entry in docs/rules/<game>.md: (English, Polish)."""
    doc = parse((ROOT / "docs" / "rules" / f"{game_id}.md").read_text(encoding="utf-8"))
    en = {e["id"] for part in doc["parts"] for g in part["groups"] for e in g["entries"]}
    return en, set(doc["pl"]["entries"])


def line_words(game_id: str) -> dict[str, set[str]]:
    """The score lines' keys with words in web/i18n/<game>.js, per language."""
    text = (ROOT / "web" / "i18n" / f"{game_id}.js").read_text(encoding="utf-8")
    out = {}
    parts = re.split(r"^  (en|pl): \{", text, flags=re.M)
    for lang, body in zip(parts[1::2], parts[2::2]):
        out[lang] = set(re.findall(r'^\s*"line\.([a-z0-9_]+)"\s*:', body, re.M))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()
    print(f"{'game':<11} {'players':<8} {'explained/occur':>15}  events lines refusals  missing")
    bad = 0
    for gid, counts in PLAYERS.items():
        en, pl = doc_ids(gid)
        words = line_words(gid)
        ids, keys = set(), set()
        parts = [set(), set(), set()]
        for p in counts:
            ev, li, re_, ks, _ = occurring(gid, p, range(args.seeds))
            for i, x in enumerate((ev, li, re_)):
                parts[i] |= x
            keys |= ks
        ids = parts[0] | parts[1] | parts[2]
        ok = {i for i in ids if i in en and i in pl}
        worded = words.get("en", set()) & words.get("pl", set())
        missing = sorted(ids - ok) + [f"line.{k}" for k in sorted(keys - worded)]
        bad += len(missing)
        print(f"{gid:<11} {','.join(map(str, counts)):<8} {len(ok):>7}/{len(ids):<7}  "
              f"{len(parts[0]):>6} {len(parts[1]):>5} {len(parts[2]):>8}  "
              f"{' '.join(missing) or '-'}")
        print(f"{'':<11} ids: {' '.join(sorted(ids, key=lambda x: (x[0], int(x[1:]))))}")
    sys.exit(1 if bad and os.environ.get("RULE_COVERAGE_STRICT") else 0)


if __name__ == "__main__":
    main()
