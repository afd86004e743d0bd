"""Fuzzing ``atut.load_game`` with mutated saves (hostile input), with Hypothesis' generators and
shrinking.

The seeds: saved games of every game and player count at every phase the game has (its first
action of each phase: bidding, giving/exchange, play...), between deals (the first state of
the second deal), mid-play and game over, some with options, a given deck, undos or teaching
mode.  Each kind of mutation below (dropping, duplicating, swapping actions, other cards,
seats, seeds, options, versions, cut JSON text, wrong types, huge numbers, deep nesting,
unicode junk...) draws its mutants from them.  Every mutant either

- loads, and the loaded game equals a fresh replay of its actions (``new_game`` with its
  arguments, then ``apply`` of each action): the same save, event record, views of every seat
  and legal actions, and the same events after a few more steps of a seeded bot on both; or
- raises a plain ``ValueError`` whose message starts ``malformed saved game:``, is short and
  shows nothing of the engine's insides (no object reprs, no tracebacks);

never another exception and never a hang (a mutant that takes more than ``HANG_SECONDS`` is a
failure; that is a hang detector, not a speed test).

The normal run tries ``BASE_EXAMPLES`` mutants per kind (more than 20,000 in all, about a
minute). ``ATUT_FUZZ_SCALE=10 pytest tests/test_fuzz_saves.py`` tries ten times as many
(any positive number scales it). Hypothesis runs derandomized, without its example database,
so a run repeats exactly; the counts per kind (tried, loaded, refused) are printed at the end.
"""

from __future__ import annotations

import json
import os
import random
import signal
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import atut
from atut import cards as C

SCALE = float(os.environ.get("ATUT_FUZZ_SCALE", "1") or 1)
BASE_EXAMPLES = 1120                       # per kind; 18 kinds: 20,160
HANG_SECONDS = 30
MAX_MESSAGE = 600
FUZZ = settings(max_examples=max(1, int(BASE_EXAMPLES * SCALE)), deadline=None,
                derandomize=True, database=None, print_blob=False,
                suppress_health_check=list(HealthCheck))

TRIED: dict[str, Counter] = {}


# --- the seeds ------------------------------------------------------------------------------

def _bases() -> list[dict]:
    """Saves (as dicts) of every game and player count at every phase, between deals, mid-play
    and at the end of the game; level-2 bots play (their games are shorter than random ones,
    so the mutants replay faster)."""
    out = []
    for g in atut.built_games():
        cls = atut.game_class(g)
        for p in cls.PLAYERS:
            kwargs = {}
            if g == "euchre":
                kwargs["options"] = {"redeal": True, "defend_alone": False}
            if g == "tysiac1001" and p == 4:
                kwargs["options"] = {"handout": "any"}
            if g == "imperial" and p == 2:
                deck = cls.deck_for(p)
                random.Random(5).shuffle(deck)
                kwargs["deck"] = C.codes(deck)
            game = atut.new_game(g, players=p, seed=11 + p, **kwargs)
            bots = [atut.make_bot(g, 2, seed=s) for s in range(p)]
            cuts = set()
            seen = set()
            first_of_deal2 = None
            while not game.is_over:
                if game.phase not in seen:
                    seen.add(game.phase)
                    cuts.add(len(game.history))
                if game.deal_no >= 2 and first_of_deal2 is None:
                    first_of_deal2 = len(game.history)
                    cuts.add(first_of_deal2)          # between deals
                game.apply(bots[game.to_move].choose(game.view(game.to_move)))
            n = len(game.history)
            cuts |= {min(n, 5), n // 3, n}            # early play, mid-game, game over
            full = json.loads(game.to_json())
            for cut in sorted(cuts):
                d = dict(full, actions=full["actions"][:cut])
                out.append(d)
            if g in ("sixty_six", "cesarz") and p == 2:
                d = dict(full, actions=full["actions"][:4], teach=True,
                         undos=[{"at": 2, "actions": full["actions"][2:4]}])
                out.append(d)
    return out


BASES = _bases()
TEXTS = [json.dumps(b, separators=(",", ":")) for b in BASES]
ALL_CARDS = sorted(C.CARD)
SEAT_KEYS = ("to", "seat", "partner")


# --- junk -----------------------------------------------------------------------------------

UNICODE = st.text(st.characters(codec=None, exclude_categories=()), max_size=12) | st.sampled_from(
    ["\ud800", "\udfff", "\x00", "\u202e", "\ufeff", "🂡", "A\u0301H", "ＡＨ", "10♥", "ĄŚĆ", ""])
HUGE = st.sampled_from([10 ** 18, -10 ** 18, 2 ** 63, -(2 ** 63) - 1, 10 ** 100, -10 ** 300,
                        1e308, -1e308, float("inf"), float("-inf"), float("nan"), 10 ** 4000,
                        2 ** 31, 2 ** 53 + 1, 1e-320]) | st.integers()
SCALAR = st.none() | st.booleans() | st.integers(-5, 40) | HUGE | st.floats() | UNICODE | \
    st.sampled_from(ALL_CARDS) | st.sampled_from(["play", "bid", "pass", "give", "AH", "0"])
JUNK = st.recursive(SCALAR, lambda c: st.lists(c, max_size=3) |
                    st.dictionaries(st.text(max_size=6) | st.sampled_from(["type", "card"]), c,
                                    max_size=3), max_leaves=6)
TOP_KEYS = ("format", "version", "game", "players", "seed", "dealer", "deck", "options",
            "actions", "undos", "teach")


def nested(depth: int, leaf, kind: str = "list"):
    for _ in range(depth):
        leaf = [leaf] if kind == "list" else {"a": leaf}
    return leaf


def _base(draw) -> dict:
    i = draw(st.integers(0, len(BASES) - 1))
    return json.loads(TEXTS[i])                 # a fresh deep copy


def _index(draw, seq, extra=0):
    return draw(st.integers(0, len(seq) - 1 + extra)) if seq else 0


# --- the kinds of mutant (each returns JSON text, bytes or a dict) ---------------------------

def m_drop(draw):
    d = _base(draw)
    acts = d["actions"]
    if draw(st.booleans()):
        d["actions"] = acts[:_index(draw, acts, 1)]            # a prefix: a valid save
    else:
        for _ in range(draw(st.integers(1, 3))):
            if acts:
                del acts[_index(draw, acts)]
    return d


def m_duplicate(draw):
    d = _base(draw)
    acts = d["actions"]
    if acts:
        i = _index(draw, acts)
        acts.insert(draw(st.integers(0, len(acts))), dict(acts[i]))
    else:
        d["actions"] = [{"type": "play", "card": "AH"}] * 2
    return d


def m_swap(draw):
    d = _base(draw)
    acts = d["actions"]
    if len(acts) >= 2:
        i, j = _index(draw, acts), _index(draw, acts)
        acts[i], acts[j] = acts[j], acts[i]
        if draw(st.booleans()):
            k = _index(draw, acts)
            acts[k:k + 4] = reversed(acts[k:k + 4])
    return d


def m_card(draw):
    d = _base(draw)
    acts = d["actions"]
    with_card = [i for i, a in enumerate(acts) if isinstance(a, dict) and "card" in a]
    if not with_card:
        d["actions"] = acts + [{"type": "play", "card": draw(st.sampled_from(ALL_CARDS))}]
        return d
    i = draw(st.sampled_from(with_card))
    key = draw(st.sampled_from([k for k in ("card", "companion", "meld") if k in acts[i]]
                               or ["card"]))
    acts[i][key] = draw(st.sampled_from(ALL_CARDS) | st.sampled_from(
        ["ah", "A H", "AH ", "1H", "11H", "ZZ", "", "AX", "EMPEROR", "RED_JOKER"]) | SCALAR)
    return d


def m_action_field(draw):
    d = _base(draw)
    acts = d["actions"]
    if not acts:
        d["actions"] = [draw(JUNK)]
        return d
    i = _index(draw, acts)
    a = acts[i]
    r = draw(st.integers(0, 4))
    if r == 0:
        acts[i] = draw(JUNK)                                    # not an action at all
    elif r == 1 and a:
        del a[draw(st.sampled_from(sorted(a)))]
    elif r == 2:
        a[draw(st.text(max_size=8) | st.sampled_from(["extra", "value", "to", "suit"]))] = \
            draw(JUNK)
    elif r == 3:
        k = draw(st.sampled_from(sorted(a) or ["type"]))
        v = a.get(k)
        a[k] = draw(st.sampled_from([v, [v], {"v": v}, str(v), True, False, 1.0, None])
                    if not isinstance(v, int) or isinstance(v, bool) else
                    st.sampled_from([v + 1, v - 1, -v, float(v), str(v), v == 1, 10 ** 30, [v]]))
    else:
        a["type"] = draw(st.sampled_from(["play", "bid", "pass", "give", "announce", "exchange",
                                          "close", "order_up", "discard", "alone", "decide",
                                          "PLAY", "", None, 1, ["play"]]))
    return d


def m_seat(draw):
    d = _base(draw)
    seat_val = st.integers(-3, 8) | st.sampled_from([True, False, None, "0", "1", 0.0, 1.5,
                                                     10 ** 20, [0], {"seat": 0}])
    r = draw(st.integers(0, 2))
    if r == 0:
        d["dealer"] = draw(seat_val)
    elif r == 1:
        d["players"] = draw(seat_val)
    else:
        acts = [a for a in d["actions"] if isinstance(a, dict) and any(k in a for k in SEAT_KEYS)]
        if acts:
            a = draw(st.sampled_from(acts))
            a[next(k for k in SEAT_KEYS if k in a)] = draw(seat_val)
        else:
            d["dealer"] = draw(seat_val)
    return d


def m_seed(draw):
    d = _base(draw)
    d["seed"] = draw(st.integers() | HUGE | st.sampled_from(["1", 1.0, True, None, [1], {}]))
    return d


def m_options(draw):
    d = _base(draw)
    cls = atut.game_class(d["game"])
    valid = {k: st.sampled_from(list(v)) for k, v in cls.OPTIONS.items()}
    r = draw(st.integers(0, 3))
    if r == 0 and valid:
        d["options"] = draw(st.fixed_dictionaries({}, optional=valid))     # other valid options
    elif r == 1:
        d["options"] = draw(JUNK)
    elif r == 2:
        opts = dict(d.get("options") or {})
        opts[draw(st.sampled_from(list(cls.OPTIONS) + ["redeal", "handout", "x", ""]))] = \
            draw(JUNK)
        d["options"] = opts
    else:
        d.pop("options", None)
    return d


def m_header(draw):
    d = _base(draw)
    key = draw(st.sampled_from(["version", "format", "game"]))
    d[key] = draw(st.sampled_from([0, 2, -1, 1.0, "1", True, None, "atut-save", "atut_save",
                                   "euchre", "EUCHRE", "schnapsen", *atut.GAME_IDS]) | JUNK)
    return d


def m_truncate(draw):
    text = TEXTS[draw(st.integers(0, len(TEXTS) - 1))]
    cut = draw(st.integers(0, len(text)))
    tail = draw(st.sampled_from(["", "}", "]}", '"', ",", "]", "}}", "\n"]))
    return text[:cut] + tail


def m_types(draw):
    d = _base(draw)
    key = draw(st.sampled_from(TOP_KEYS))
    if draw(st.integers(0, 3)) == 0:
        d.pop(key, None)
    else:
        d[key] = draw(JUNK)
    if draw(st.integers(0, 5)) == 0:
        return draw(st.sampled_from([[d], d.get("actions"), "x", 1, None]))    # not a save object
    return d


def m_huge(draw):
    d = _base(draw)
    key = draw(st.sampled_from(["seed", "players", "dealer", "version", "action", "undo_at"]))
    big = draw(HUGE)
    if key == "action" and d["actions"]:
        a = d["actions"][_index(draw, d["actions"])]
        a[draw(st.sampled_from(sorted(a) + ["value"]))] = big
    elif key == "undo_at":
        d["undos"] = [{"at": big, "actions": []}]
    else:
        d[key] = big
    text = json.dumps(d, separators=(",", ":"))
    if draw(st.booleans()):
        # a number too long to read as an int, straight in the text
        digits = "9" * draw(st.integers(4000, 20_000))
        text = text.replace('"seed":', '"seed":' + digits + ',"x":', 1)
    return text


def m_nesting(draw):
    depth = draw(st.sampled_from([10, 100, 1000, 5000, 50_000, 200_000]))
    where = draw(st.integers(0, 3))
    if where == 0:
        return draw(st.sampled_from(["[", "{\"a\":", "[{\"b\":"])) * depth
    d = _base(draw)
    if where == 1:
        text = json.dumps(d, separators=(",", ":"))
        field = draw(st.sampled_from(["options", "deck", "seed", "actions", "undos"]))
        return text[:-1] + f',"{field}":' + "[" * depth + "]" * depth + "}"
    # inside an action (a dict, fine for json up to Python's own limit)
    leaf = nested(min(depth, 800), "AH", draw(st.sampled_from(["list", "dict"])))
    if d["actions"]:
        a = d["actions"][_index(draw, d["actions"])]
        a[draw(st.sampled_from(sorted(a)))] = leaf
    else:
        d["actions"] = [leaf]
    return d


def m_unicode(draw):
    r = draw(st.integers(0, 4))
    if r <= 1:
        d = _base(draw)
        junk = draw(UNICODE)
        target = draw(st.sampled_from(["game", "format", "card", "type", "key", "option"]))
        if target in ("card", "type") and d["actions"]:
            d["actions"][_index(draw, d["actions"])][target] = junk
        elif target == "key":
            d[junk] = 1
        elif target == "option":
            d["options"] = {junk: junk}
        else:
            d[target] = junk
        return json.dumps(d, ensure_ascii=draw(st.booleans()))
    text = TEXTS[draw(st.integers(0, len(TEXTS) - 1))]
    i = draw(st.integers(0, len(text)))
    if r == 2:
        return text[:i] + draw(UNICODE) + text[i:]
    raw = text.encode()
    bad = draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80", b"\xef\xbb\xbf",
                                b"\x00"]))
    if r == 3:
        return raw[:i] + bad + raw[i:]
    return bytearray(bad + raw) if draw(st.booleans()) else "\ufeff" + text


def m_deck(draw):
    d = _base(draw)
    deck = [C.code(c) for c in atut.game_class(d["game"]).deck_for(d["players"])]
    random.Random(draw(st.integers(0, 99))).shuffle(deck)
    r = draw(st.integers(0, 5))
    if r == 1:
        deck[_index(draw, deck)] = deck[_index(draw, deck)]          # a card twice
    elif r == 2:
        deck.pop()
    elif r == 3:
        deck.append(draw(st.sampled_from(ALL_CARDS)))
    elif r == 4:
        deck[_index(draw, deck)] = draw(SCALAR | JUNK)
    elif r == 5:
        deck = draw(JUNK)
    d["deck"] = deck
    return d


def m_undos(draw):
    d = _base(draw)
    r = draw(st.integers(0, 3))
    if r == 0:
        d["undos"] = draw(JUNK)
    elif r == 1:
        d["undos"] = [{"at": draw(st.integers(-2, 50) | HUGE | SCALAR),
                       "actions": draw(st.lists(JUNK, max_size=2) | JUNK)}]
    elif r == 2:
        d["teach"] = draw(JUNK)
    else:
        d["undos"] = [{"at": 0, "actions": []}] * draw(st.integers(0, 3)) + [draw(JUNK)]
    return d


def m_splice(draw):
    """Another game's actions, or another player count's, under this header."""
    d = _base(draw)
    other = _base(draw)
    d["actions"] = other["actions"][:_index(draw, other["actions"], 1)]
    if draw(st.booleans()):
        d["players"] = other["players"]
    return d


def m_text(draw):
    """One character of the text replaced, deleted or doubled."""
    text = TEXTS[draw(st.integers(0, len(TEXTS) - 1))]
    i = draw(st.integers(0, len(text) - 1))
    r = draw(st.integers(0, 2))
    if r == 0:
        return text[:i] + draw(st.sampled_from(list('{}[]":,0129-.eE tfnxA'))) + text[i + 1:]
    if r == 1:
        return text[:i] + text[i + 1:]
    return text[:i] + text[i] + text[i:]


KINDS = {f.__name__[2:]: f for f in (m_drop, m_duplicate, m_swap, m_card, m_action_field, m_seat,
                                      m_seed, m_options, m_header, m_truncate, m_types, m_huge,
                                      m_nesting, m_unicode, m_deck, m_undos, m_splice, m_text)}


# --- the check ------------------------------------------------------------------------------

class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang(f"no answer within {HANG_SECONDS} s")


def fresh_replay(g):
    """A new game with the loaded game's arguments, then each of its actions applied."""
    f = atut.new_game(g.game_id, players=g.players, seed=g.seed, dealer=g.first_dealer,
                      deck=g.first_deck, options=dict(g.options))
    for a in g.history:
        f.apply(dict(a))
    return f


def game_only(g) -> str:
    """The save without the page's optional fields (undos, teaching mode)."""
    text = g.to_json()
    if '"undos":' not in text and '"teach":' not in text:
        return text
    saved = json.loads(text)
    saved.pop("undos", None)
    saved.pop("teach", None)
    return json.dumps(saved, separators=(",", ":"))


def readable(msg: str) -> str | None:
    """Why an error message is not fit to show a person, or None."""
    if not isinstance(msg, str) or not msg.strip():
        return "empty"
    if not msg.startswith("malformed saved game:"):
        return "does not start 'malformed saved game:'"
    if len(msg) > MAX_MESSAGE:
        return f"{len(msg)} characters long"
    for bad in (" object at 0x", "<atut.", "<class ", "Traceback", "<function ", "<bound "):
        if bad in msg:
            return f"shows {bad.strip()!r}"
    return None


def check(mutant) -> str:
    """Load a mutant; "loaded" or "refused", or the test fails."""
    try:
        g = atut.load_game(mutant)
    except ValueError as e:
        assert type(e) is ValueError, f"{type(e).__name__} instead of a plain ValueError: {e}"
        why = readable(str(e))
        assert why is None, f"unreadable message ({why}): {str(e)[:300]!r}"
        return "refused"
    f = fresh_replay(g)
    assert game_only(g) == f.to_json()
    assert g.events == f.events and g.scores == f.scores and g.winner == f.winner
    assert g.to_move == f.to_move and g.legal_actions() == f.legal_actions()
    for s in (None, *range(g.players)):
        assert g.view(s) == f.view(s)
    bot = random.Random(len(g.history))
    for _ in range(6):
        if g.is_over:
            break
        a = bot.choice(g.legal_actions())
        g.apply(a)
        f.apply(dict(a))
    assert g.events == f.events and game_only(g) == f.to_json()
    return "loaded"


def run(kind, mutant):
    if isinstance(mutant, dict):
        mutant = json.dumps(mutant)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(HANG_SECONDS)
    try:
        outcome = check(mutant)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    c = TRIED.setdefault(kind, Counter())
    c["tried"] += 1
    c[outcome] += 1


def counts_table() -> str:
    total = Counter()
    lines = [f"load_game mutants (ATUT_FUZZ_SCALE={SCALE:g}): kind, tried, loaded, refused"]
    for kind, c in TRIED.items():
        total.update(c)
        lines.append(f"  {kind:<13}{c['tried']:>7}{c['loaded']:>7}{c['refused']:>8}")
    lines.append(f"  {'all':<13}{total['tried']:>7}{total['loaded']:>7}{total['refused']:>8}")
    return "\n".join(lines)


def test_the_seeds_cover_every_game_player_count_and_phase():
    have = {(b["game"], b["players"]) for b in BASES}
    assert have == {(g, p) for g in atut.built_games() for p in atut.game_class(g).PLAYERS}
    phases = {}
    for b in BASES:
        g = atut.load_game(b)
        phases.setdefault(b["game"], set()).add("over" if g.is_over else g.phase)
        assert check(b) == "loaded"
    for game_id, seen in phases.items():
        assert "over" in seen and "play" in seen, (game_id, seen)
    assert {"bid", "give"} <= phases["cesarz"] and {"bid", "give"} <= phases["tysiac1001"]
    assert {"discard", "round1"} <= phases["euchre"]
    assert any(atut.load_game(b).deal_no >= 2 for b in BASES)


@pytest.mark.parametrize("kind", list(KINDS))
@FUZZ
@given(data=st.data())
def test_a_mutated_save_loads_to_its_replay_or_is_refused_clearly(kind, data):
    run(kind, data.draw(st.composite(lambda draw: KINDS[kind](draw))(), label=kind))


def test_enough_mutants_were_tried(capsys):
    with capsys.disabled():
        print("\n" + counts_table())
    total = sum(c["tried"] for c in TRIED.values())
    if len(TRIED) < len(KINDS):
        pytest.skip("run with the whole file to count")     # -k picked a few kinds
    assert total >= 20_000 * min(SCALE, 1), total
    assert all(c["loaded"] for k, c in TRIED.items() if k in ("drop", "swap", "options")), TRIED
