"""The bot lab's Python side (docs/LAB.md): a student's bot from a file or from source, the clear
errors of a broken bot, the example bots of every game and the view's help panel."""

from __future__ import annotations

import json
import pickle

import pytest

import atut
from atut import lab
from atut.lab import BotError
from atut.lab import help as lab_help
from atut.table import Dispatcher, Table
from atut.table.checks import split_outside

FIRST = "def choose(view):\n    return view['legal_actions'][0]\n"


def _view(game_id="sixty_six", seed=7):
    game = atut.new_game(game_id, seed=seed)
    return game, game.view(game.to_move)


# --- loading ----------------------------------------------------------------------------------

def test_load_bot_from_a_path_and_from_source_play_the_same(tmp_path):
    path = tmp_path / "first.py"
    path.write_text(FIRST, encoding="utf-8")
    game, view = _view()
    for bot in (atut.load_bot(path), atut.load_bot(str(path)), atut.bot_from_source(FIRST),
                lab.load_bot(path)):
        action = bot.choose(view)
        assert action is view["legal_actions"][0]


def test_an_equal_dict_is_taken_and_the_legal_one_returned():
    src = ("def choose(view):\n    a = view['legal_actions'][-1]\n"
           "    return dict(reversed(list(a.items())))\n")
    game, view = _view("euchre", seed=3)
    assert atut.bot_from_source(src).choose(view) is view["legal_actions"][-1]


def test_the_bot_gets_a_copy_of_the_view():
    src = "def choose(view):\n    view['hand'].clear()\n    return view['legal_actions'][0]\n"
    game, view = _view()
    hand = list(view["hand"])
    atut.bot_from_source(src).choose(view)
    assert view["hand"] == hand


def test_a_missing_file_is_a_clear_value_error(tmp_path):
    with pytest.raises(ValueError, match="cannot read the bot file .*nothing.py"):
        atut.load_bot(tmp_path / "nothing.py")


# --- broken bots ------------------------------------------------------------------------------

def _error(source, name="student.py", game_id="sixty_six") -> BotError:
    game, view = _view(game_id)
    with pytest.raises(BotError) as info:
        bot = atut.bot_from_source(source, name)
        bot.choose(view)
    err = info.value
    json.dumps(err.to_dict())                        # the lab posts it to the page
    assert err.name == name
    assert err.to_dict()["messages"]["en"] and err.to_dict()["messages"]["pl"]
    assert err.to_dict()["messages"]["en"] != err.to_dict()["messages"]["pl"]
    return err


def test_a_syntax_error_names_its_line():
    err = _error("def choose(view):\n    x = 1\n    return (\n\nprint(\n", "syntax.py")
    assert err.kind == "syntax"
    assert err.line is not None and err.line >= 3
    assert f"line {err.line}" in str(err) and "syntax.py" in str(err)


def test_an_exception_in_choose_names_the_students_line_only():
    src = ("import math\n\n\ndef helper(view):\n    return 1 / 0\n\n\n"
           "def choose(view):\n    return helper(view)\n")
    err = _error(src, "raising.py")
    assert err.kind == "exception"
    assert err.line == 5
    assert "ZeroDivisionError" in str(err) and "line 5" in str(err)
    assert 'File "raising.py", line 5, in helper' in err.traceback
    assert 'File "raising.py", line 9, in choose' in err.traceback
    assert "return 1 / 0" in err.traceback            # the line's text, from linecache
    assert "atut" not in err.traceback.replace("raising.py", "")   # no lab frames


def test_an_exception_while_loading_and_a_missing_choose():
    err = _error("x = 1\nimport no_such_module_here\n", "loading.py")
    assert err.kind == "load" and err.line == 2
    assert "ModuleNotFoundError" in str(err)
    err = _error("def chose(view):\n    pass\n", "typo.py")
    assert err.kind == "no_choose" and "choose(view)" in str(err)


@pytest.mark.parametrize("returned, kind", [
    ("None", "not_dict"),
    ("'AS'", "not_dict"),
    ("view['legal_actions']", "not_dict"),
    ("{'type': 'play', 'card': 'XX'}", "illegal"),
    ("{'type': 'play'}", "illegal"),
    ("{'type': 'play', 'card': 'AS', 'meld': object()}", "illegal"),
])
def test_an_answer_that_is_not_a_legal_action_is_refused_with_the_legal_list(returned, kind):
    err = _error(f"def choose(view):\n    return {returned}\n", "junk.py")
    assert err.kind == kind
    game, view = _view()
    for a in view["legal_actions"]:
        assert atut.canonical(a) in str(err)          # every legal action listed
        assert atut.canonical(a) in err.message_pl
    assert err.legal == view["legal_actions"]
    if kind == "illegal" and "XX" in returned:
        assert '{"card":"XX","type":"play"}' in str(err)


def test_a_bot_error_pickles_with_its_fields():
    err = _error("def choose(view):\n    return 5\n")
    err.deal, err.seat = 3, 1
    back = pickle.loads(pickle.dumps(err))
    assert back.to_dict() == err.to_dict() and str(back) == str(err)


def test_fresh_instances_keep_their_own_state_and_reset_is_called():
    src = ("calls = []\n\n\ndef reset():\n    calls.clear()\n    calls.append('reset')\n\n\n"
           "def choose(view):\n    calls.append(1)\n    return view['legal_actions'][0]\n")
    bot = atut.bot_from_source(src)
    game, view = _view()
    bot.choose(view)
    other = bot.fresh()
    other.choose(view)
    other.choose(view)
    assert bot.module.calls == [1] and other.module.calls == [1, 1]
    other.reset()
    assert other.module.calls == ["reset"]
    again = pickle.loads(pickle.dumps(bot))
    assert again.name == bot.name and again.module.calls == []


def test_check_action():
    game, view = _view()
    assert lab.check_action(view, dict(view["legal_actions"][1])) is view["legal_actions"][1]
    with pytest.raises(BotError, match="not a legal action"):
        lab.check_action(view, {"type": "pass"})


# --- the example bots -------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", atut.GAME_IDS)
def test_every_game_has_three_documented_example_bots(game_id):
    ex = lab.examples(game_id)
    assert list(ex) == [f"{game_id}_start.py", f"{game_id}_rules.py", f"{game_id}_search.py"]
    for name, src in ex.items():
        assert src.startswith('"""') and "def choose(view)" in src
        assert len(src.splitlines()) <= 70, f"{name} is not short"
        lab.bot_from_source(src, name)
    assert "botkit.analyse" in ex[f"{game_id}_search.py"]


def _play_with(game_id, bot, players, seed, whole=True):
    """A game (or its first deal) with ``bot`` in the even seats and level 2 in the others;
    every decision of ``bot`` is checked by the StudentBot (an illegal one raises)."""
    game = atut.new_game(game_id, players=players, seed=seed)
    other = atut.make_bot(game_id, 2, seed=seed)
    mine = [bot.fresh() if s % 2 == 0 else None for s in range(game.n)]
    decisions = 0
    while not game.is_over and (whole or game.deal_no == 1):
        s = game.to_move
        view = game.view(s)
        if mine[s] is not None:
            action = mine[s].choose(view)
            assert action in view["legal_actions"]
            decisions += 1
        else:
            action = other.choose(view)
        game.apply(action)
    return game, decisions


@pytest.mark.parametrize("game_id", atut.GAME_IDS)
def test_the_start_and_rule_bots_play_legal_whole_games(game_id):
    cls = atut.game_class(game_id)
    ex = lab.examples(game_id)
    for kind in ("start", "rules"):
        bot = lab.bot_from_source(ex[f"{game_id}_{kind}.py"], f"{game_id}_{kind}.py")
        for players in cls.PLAYERS[:2]:
            game, decisions = _play_with(game_id, bot, players, seed=players)
            assert game.is_over and decisions > 0


@pytest.mark.parametrize("game_id", atut.GAME_IDS)
def test_the_search_bot_plays_a_legal_deal(game_id):
    ex = lab.examples(game_id)
    bot = lab.bot_from_source(ex[f"{game_id}_search.py"], f"{game_id}_search.py")
    game, decisions = _play_with(game_id, bot, None, seed=5, whole=False)
    assert decisions > 0


def test_the_rule_bot_beats_random_play():
    """The rule example is a real strategy: it wins most 66 games against level 1."""
    from atut import arena
    bot = lab.bot_from_source(lab.examples("sixty_six")["sixty_six_rules.py"], "rules.py")
    r = arena.run("sixty_six", [bot, 1], 2, deals=30, seed=2)
    assert r["bots"][0]["share"] > 0.6


def test_examples_of_an_unknown_game():
    with pytest.raises(ValueError, match="unknown game"):
        lab.examples("poker")


# --- the view's help --------------------------------------------------------------------------

def _all_views(game_id):
    """Views of the seat to move and of the others, every player count, options, phases."""
    cls = atut.game_class(game_id)
    variants = [None]
    if game_id == "euchre":
        variants += [{"redeal": True, "defend_alone": False}]
    if game_id == "tysiac1001":
        variants += [{"handout": "any"}]
    for players in cls.PLAYERS:
        for options in variants:
            for seed in range(3):
                game = atut.new_game(game_id, players=players, seed=seed, options=options)
                bots = [atut.make_bot(game_id, 1 + (seed + s) % 2, seed=s) for s in range(game.n)]
                while not game.is_over and game.deal_no <= 3:
                    yield game.view(game.to_move)
                    yield game.view((game.to_move + 1) % game.n)
                    game.apply(bots[game.to_move].choose(game.view(game.to_move)))
                yield game.view(0)                    # the end of the run, maybe game over
    yield from lab_help.sample_views(game_id, seeds=(1, 2), deals=1)    # view_help's own


@pytest.mark.parametrize("game_id", atut.GAME_IDS)
def test_every_field_of_real_views_is_described_in_both_languages(game_id):
    described = lab_help.describe(game_id)
    keys, phases = set(), set()
    for v in _all_views(game_id):
        keys |= set(v)
        phases.add(v["phase"])
    missing = keys - set(described)
    assert not missing, f"{game_id}: views have undescribed fields {sorted(missing)}"
    for k in keys:
        en, pl = described[k]["en"], described[k]["pl"]
        assert en.strip() and pl.strip() and en != pl, k
    h = lab.view_help(game_id)
    json.dumps(h)
    assert set(h["fields"]) <= keys
    assert set(h["phases"]) <= phases
    for phase, ks in h["phases"].items():
        assert set(ks) <= set(h["fields"]), phase


@pytest.mark.parametrize("game_id", atut.GAME_IDS)
def test_the_example_view_is_a_real_position(game_id):
    h = lab.view_help(game_id)
    v = h["example"]
    assert v["game"] == game_id and v["seat"] == v["to_move"] and v["phase"] == "play"
    assert v["trick"] and len(v["legal_actions"]) > 1
    assert set(v) <= set(h["fields"])
    assert lab.view_help(game_id) == h                # seeded: the same every time
    bot = lab.bot_from_source(lab.examples(game_id)[f"{game_id}_rules.py"])
    assert bot.choose(v) in v["legal_actions"]


# --- at the table: outside seats (atut.table), a student's bot played in the lab's worker --------

def _call(desk, op, caller="page", **args):
    return json.loads(desk.handle(op, json.dumps(args), caller))


@pytest.mark.parametrize("levels,seat,players,outside,plain", [
    ([3, {"outside": "a.py"}, 3], 0, 4, {2: "a.py"}, [3, 2, 3]),
    ([{"outside": "a.py"}], 0, 4, {1: "a.py", 2: "a.py", 3: "a.py"}, [2, 2, 2]),
    ([{"outside": "a.py"}, 3, 3, 3], 0, 4, {0: "a.py"}, [3, 3, 3]),      # watching
    ([3, {"outside": "b.py"}], 2, 3, {1: "b.py"}, [3, 2]),
    ([3, 3], 0, 3, {}, [3, 3]),
    (None, 0, 3, {}, None),
])
def test_split_outside_reads_the_markers(levels, seat, players, outside, plain):
    assert split_outside(players, seat, levels) == (plain, outside)


@pytest.mark.parametrize("bad", [{"outside": "../x.py"}, {"outside": 3},
                                 {"outside": "a.py", "x": 1}])
def test_a_malformed_marker_is_refused_clearly(bad):
    r = _call(Dispatcher(), "new_game", game="euchre", players=4, seed=1, levels=[3, bad, 3])
    assert r["ok"] is False and "outside bot" in r["error"]


def _to_outside_turn(desk, seat):
    """Play the table (person's seat: first legal action; bots: bot_step) to the outside seat."""
    t = desk.table
    while t.game.to_move != seat:
        if t.game.to_move == t.seat:
            assert _call(desk, "act", action=t.game.legal_actions()[0])["ok"]
        else:
            assert "result" in _call(desk, "bot_step")


def test_outside_seat_gets_its_view_only_and_its_action_is_checked():
    desk = Dispatcher()
    t = desk.table
    r = _call(desk, "new_game", game="euchre", players=4, seed=3,
              levels=[3, {"outside": "mine.py"}, 3])
    assert r["ok"] and r["result"]["view"]["seat"] == 0
    assert _call(desk, "outside_seats")["result"] == {"outside": {"2": "mine.py"}, "fallen": {}}
    _to_outside_turn(desk, 2)
    before = t.game.to_json()
    ask = _call(desk, "bot_step")
    assert set(ask) == {"ok", "ask"} and t.game.to_json() == before      # nothing changed yet
    turn = ask["ask"]
    assert turn["seat"] == 2 and turn["name"] == "mine.py"
    assert turn["view"] == t.game.view(2)           # view(seat) of the bot's seat, nothing more
    # the answer may come from the lab only
    assert _call(desk, "outside_answer", answer={})["error"] == "outside_answer is the worker's own"
    first = turn["view"]["legal_actions"][0]
    good = _call(desk, "outside_answer", "lab", answer={"action": first})
    assert good["ok"] and good["result"]["view"]["seat"] == 0      # the person's view back
    assert "refused" not in good
    assert t.game.history[-1] == turn["view"]["legal_actions"][0]
    # the turn is closed: the same answer again is refused
    again = _call(desk, "outside_answer", "lab", answer={"action": first})
    assert again["ok"] is False and "changed meanwhile" in again["error"]
    # an action that is not legal: refused (the lab is told), the outside bot dropped, and its
    # seat's level-2 bot plays this move
    _to_outside_turn(desk, 2)
    n = len(t.game.history)
    turn = _call(desk, "bot_step")["ask"]
    want = atut.make_bot("euchre", 2, seed=t.bots[2].seed).choose(t.game.view(2))
    bad = _call(desk, "outside_answer", "lab", answer={"action": {"type": "play", "card": "XX"}})
    assert bad["ok"] and bad["refused"] == 2 and t.game.history[n] == want
    assert t.outside == {} and t.fallen == {2: "mine.py"}


def test_an_answer_for_a_table_that_changed_is_refused():
    desk = Dispatcher()
    _call(desk, "new_game", game="sixty_six", players=2, seed=5, levels=[{"outside": "m.py"}])
    _to_outside_turn(desk, 1)
    turn = _call(desk, "bot_step")["ask"]
    assert _call(desk, "new_game", game="sixty_six", players=2, seed=6, levels=[1])["ok"]
    r = _call(desk, "outside_answer", "lab", answer={"action": turn["view"]["legal_actions"][0]})
    assert r == {"ok": False, "error": "the table changed meanwhile"}


def test_a_dropped_outside_bot_is_played_by_level_2_for_the_rest_of_the_game():
    desk = Dispatcher()
    t = desk.table
    assert _call(desk, "new_game", game="sixty_six", players=2, seed=5,
                 levels=[{"outside": "mine.py"}])["ok"]
    _to_outside_turn(desk, 1)
    assert _call(desk, "bot_step")["ask"]["seat"] == 1
    n = len(t.game.history)
    want = atut.make_bot("sixty_six", 2, seed=t.bots[1].seed).choose(t.game.view(1))
    r = _call(desk, "outside_answer", "lab", answer={"failed": "timeout"})
    assert r["ok"] and "refused" not in r and t.game.history[n] == want
    assert _call(desk, "outside_seats")["result"] == {"outside": {}, "fallen": {"1": "mine.py"}}
    while not t.game.is_over:
        if t.game.to_move == 0:
            assert _call(desk, "act", action=t.game.legal_actions()[0])["ok"]
        else:
            assert "result" in _call(desk, "bot_step")      # fallen: nobody is asked
    assert _call(desk, "bot_step")["ok"] is False            # over: nobody's turn
    # the page's "the lab's worker is gone" with no move asked drops the outside bots
    _call(desk, "new_game", game="euchre", players=4, seed=1, levels=[{"outside": "x.py"}])
    assert _call(desk, "outside_drop", "lab")["result"] == {"1": "x.py", "2": "x.py", "3": "x.py"}


def test_watching_the_bot_in_the_persons_seat_and_a_resume_with_markers():
    desk = Dispatcher()
    t = desk.table
    r = _call(desk, "new_game", game="sixty_six", players=3, seed=2, teach=True,
              levels=[{"outside": "w.py"}, 3, 3])
    assert r["ok"] and t.outside == {0: "w.py"} and t.levels == {1: 3, 2: 3}
    _to_outside_turn(desk, 0)
    turn = _call(desk, "bot_step")["ask"]
    assert turn["seat"] == 0 and turn["view"] == t.game.view(0)
    r = _call(desk, "outside_answer", "lab", answer={"action": turn["view"]["legal_actions"][-1]})
    assert r["ok"] and r["result"]["can_undo"] is False       # the person took no decision
    assert r["result"]["open"]["hands"]                       # teaching mode: open hands
    # the kept game resumed with the markers: the same outside seat again
    t2 = Table()
    r = t2.load(text=t.game.to_json(), seat=0, levels=[{"outside": "w.py"}, 3, 3])
    assert t2.outside == {0: "w.py"} and r["teach"] is True
    # bot_step at an outside seat with nobody to ask (the typed API) plays its level-2 bot
    t3 = Table()
    t3.new_game("euchre", players=4, seed=3, levels=[{"outside": "x.py"}])
    assert t3.levels == {1: 2, 2: 2, 3: 2}
    while t3.game.to_move == 0:
        t3.act(t3.game.legal_actions()[0])
    s = t3.game.to_move
    want = atut.make_bot("euchre", 2, seed=t3.bots[s].seed).choose(t3.game.view(s))
    t3.bot_step()
    assert t3.game.history[-1] == want and t3.outside and not t3.fallen
