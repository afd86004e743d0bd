"""The class tournament on the command line (``atut.tournament``, ``docs/LAB.md``): every bot
file in a box of its own (``atut.box``, a process), duplicate deals, the board, the results
JSON and its replay.  Hostile files of our own check that a bot finds no card it may not see,
cannot reach the engine's process and cannot change a result, and that every way a bot can
fail is named and costs only that bot its game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import atut
from atut import arena, tournament
from atut import cards as C
from atut.box import BoxedBot
from atut.lab import BotError, load_bot

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = ROOT / "tests" / "fixtures" / "hostile"
EXAMPLES = ROOT / "engine" / "atut" / "lab" / "example_bots"
pytest.importorskip("openskill")


def _first(tmp_path, name="first.py"):
    p = tmp_path / name
    p.write_text("def choose(view):\n    return view['legal_actions'][0]\n")
    return str(p)


# --- the box ----------------------------------------------------------------------------------

def test_a_boxed_bot_plays_a_whole_game_and_its_answers_are_the_views_legal_actions():
    bot = BoxedBot.from_file(EXAMPLES / "sixty_six_rules.py", time_limit=5).load()
    game = atut.new_game("sixty_six", players=2, seed=4)
    boxes = [bot.fresh(), bot.fresh()]
    assert boxes[0] is not boxes[1] and boxes[0]._proc.pid != boxes[1]._proc.pid
    while not game.is_over:
        s = game.to_move
        view = game.view(s)
        action = boxes[s].choose(view)
        assert any(action is a for a in view["legal_actions"])   # the view's own dict
        game.apply(action)
    for b in boxes:
        b.release()
    assert len(bot._idle) == 2
    bot.close()
    assert not bot._idle


def test_the_snooping_bot_finds_the_game_in_process_and_nothing_in_its_box():
    """The same hostile file: run in the engine's Python it reads the others' hands (so the
    check can fail); in its box it finds no game through gc, frames, sys.modules or builtins."""
    game = atut.new_game("sixty_six", players=2, seed=5)
    inproc = load_bot(HOSTILE / "snoop.py")
    with pytest.raises(BotError, match="LEAK via gc"):
        inproc.choose(game.view(game.to_move))
    r = tournament.run("sixty_six", [str(HOSTILE / "snoop.py"), "1"], deals=3, seed=2,
                       time_limit=5)
    assert not r["excluded"]
    assert all(g["error"] is None for g in r["games"]), [g["error"] for g in r["games"]]


@pytest.mark.parametrize("name,kind", [
    ("loop.py", "timeout"), ("chatter.py", "timeout"), ("alloc.py", "exception"),
    ("recurse.py", "exception"), ("crash.py", "crash"), ("nochoose.py", "no_choose"),
    ("malformed.py", "not_dict"), ("nonjson.py", "not_dict")])
def test_each_way_to_fail_is_named_by_the_self_play_check(name, kind):
    entry = tournament.Entry.parse(str(HOSTILE / name))
    limit = 5.0 if name == "alloc.py" else 0.5
    err = tournament.self_play_check("sixty_six", 2, entry, seed=1, time_limit=limit)
    assert err is not None and err["kind"] == kind, err
    assert err["messages"]["en"].startswith(f"{name}: ") and err["messages"]["pl"]
    tournament._close_boxes()


def test_a_syntax_error_is_named_with_its_line(tmp_path):
    p = tmp_path / "broken.py"
    p.write_text("x = 1\ndef choose(view)\n    return 1\n")
    err = tournament.self_play_check("sixty_six", 2, tournament.Entry.parse(str(p)), 1, 1.0)
    assert err["kind"] == "syntax" and err["line"] == 2
    assert "wierszu 2" in err["messages"]["pl"]


def test_a_box_that_timed_out_is_killed_and_the_next_game_gets_a_new_one():
    bot = BoxedBot.from_file(HOSTILE / "loop.py", time_limit=0.3)
    box = bot.fresh()
    pid = box._proc.pid
    game = atut.new_game("sixty_six", players=2, seed=1)
    with pytest.raises(BotError) as e:
        box.choose(game.view(game.to_move))
    assert e.value.kind == "timeout" and box._proc is None
    box.release()
    again = bot.fresh()
    assert again._proc.pid != pid
    bot.close()
    again.kill()


def test_a_forged_answer_on_the_protocols_pipe_changes_nothing():
    """reach.py writes a made-up answer into every file descriptor it has: the engine reads it
    as that bot's own answer, refuses it (not a legal action), and the bot loses that game."""
    r = tournament.run("sixty_six", [str(HOSTILE / "reach.py"), "1", "2"], deals=2, seed=3,
                       time_limit=5)
    errs = [g["error"] for g in r["games"] if g["error"]] + \
        [x["error"] for x in r["excluded"]]
    assert errs and all(e["kind"] in ("illegal", "protocol") for e in errs), errs
    for g in r["games"]:
        assert all(a.get("type") != "forged" for a in g["save"]["actions"])


# --- the tournament ---------------------------------------------------------------------------

def test_a_tournament_with_bad_bots_goes_on_and_names_them(tmp_path):
    bots = [_first(tmp_path), str(HOSTILE / "loop.py"), str(HOSTILE / "crash.py"),
            str(EXAMPLES / "sixty_six_rules.py"), "1", "2"]
    r = tournament.run("sixty_six", bots, deals=2, seed=1, time_limit=0.5)
    assert [x["name"] for x in r["excluded"]] == ["loop.py", "crash.py"]
    names = [e["name"] for e in r["entries"]]
    assert names == ["first.py", "sixty_six_rules.py", "1 random", "2 rules"]
    # 4 entries: 6 pairings x 2 deals x 2 seatings
    assert len(r["games"]) == 24
    rows = r["board"]["rows"]
    assert all(x["games"] == 12 for x in rows)
    assert sum(x["wins"] for x in rows) == pytest.approx(24)
    for x in rows:
        assert x["lo"] < x["mu"] < x["hi"]
    pw = r["board"]["pairwise"]
    for i in range(4):
        assert pw[i][i] is None
        for j in range(4):
            if i != j:
                assert pw[i][j] + pw[j][i] == pytest.approx(1.0)
    assert all(len(h) == 12 for h in r["board"]["history"])    # 6 tables x 2 deals
    assert tournament.verify(json.loads(json.dumps(r))) == []
    csv = tournament.to_csv(r)
    assert csv.splitlines()[0].startswith("place,bot,sha256") and len(csv.splitlines()) == 5


def test_a_bot_that_fails_mid_tournament_loses_those_games_only(tmp_path):
    """late.py passes the self-play check (its process's first game) and raises in every later
    game of its process: those games are lost by it, named, and the tournament goes on."""
    p = tmp_path / "late.py"
    p.write_text("import builtins\n"
                 "builtins.games_here = getattr(builtins, 'games_here', 0) + 1\n"
                 "def choose(view):\n"
                 "    if builtins.games_here >= 2:\n"
                 "        raise KeyError('late')\n"
                 "    return view['legal_actions'][0]\n")
    r = tournament.run("sixty_six", [str(p), "1", "2"], deals=2, seed=4, time_limit=2)
    assert not r["excluded"]
    errs = [g for g in r["games"] if g["error"]]
    assert errs and all(g["error"]["entry"] == 0 and g["error"]["kind"] == "exception"
                        for g in errs)
    for g in errs:
        assert g["ranks"]["0"] == 2 and all(v == 1 for k, v in g["ranks"].items() if k != "0")
    rows = r["board"]["rows"]
    assert rows[0]["errors"] == len(errs) and rows[1]["errors"] == rows[2]["errors"] == 0
    assert len(r["games"]) == 12 and tournament.verify(r) == []


def test_verify_finds_a_changed_action_outcome_or_board():
    r = tournament.run("sixty_six", [str(EXAMPLES / "sixty_six_rules.py"), "1"], deals=2,
                       seed=5, time_limit=5)
    assert tournament.verify(r) == []
    bad = json.loads(json.dumps(r))
    bad["games"][0]["ranks"] = {k: 3 - v for k, v in bad["games"][0]["ranks"].items()}
    assert any("outcome" in p for p in tournament.verify(bad))
    bad = json.loads(json.dumps(r))
    acts = bad["games"][1]["save"]["actions"]
    acts[-1], acts[-2] = acts[-2], acts[-1]
    assert any("game 1" in p for p in tournament.verify(bad))
    bad = json.loads(json.dumps(r))
    bad["board"]["rows"][0]["mu"] += 1
    assert tournament.verify(bad) == ["the board does not follow from the games"]
    bad = json.loads(json.dumps(r))
    bad["seed"] += 1
    assert tournament.verify(bad)
    assert tournament.verify({"format": "x"}) == ["not a atut-tournament file"]


def test_review_replays_a_record_with_every_hand_open():
    """The lab's Tournament tab reviews a game from its record (docs/LAB.md, "The Tournament
    tab"): one step per action, the seat to move and every hand before it, in euchre a deal."""
    for game, players in (("sixty_six", 2), ("euchre", 4)):
        r = tournament.run(game, ["1", "2"], players=players, deals=1, seed=4, time_limit=5)
        rec = r["games"][1]
        out = tournament.review(game, rec)
        acts = rec["save"]["actions"]
        assert [s["action"] for s in out["steps"]] == acts and out["error"] is None
        replay = atut.load_game(dict(rec["save"], actions=[]))
        for st in out["steps"]:
            assert st["seat"] == replay.to_move
            assert st["hands"] == [C.codes(C.cards_of(h)) for h in replay.hands]
            assert sum(map(len, st["hands"])) > 0
            replay.apply(st["action"])
        assert out["scores"] == list(replay.scores)
        with pytest.raises(ValueError):
            tournament.review("cesarz", rec)


def test_results_is_the_run_and_the_command_lines_file():
    r = tournament.run("sixty_six", ["1", "2"], deals=1, seed=2, time_limit=5)
    again = tournament.results("sixty_six", 2, 1, 2, 5, r["entries"], r["excluded"],
                               r["games"], r["seconds"])
    assert again == r and tournament.verify(again) == []


def test_two_jobs_give_the_same_games_and_board():
    bots = [str(EXAMPLES / "sixty_six_rules.py"), "1", "2"]
    one = tournament.run("sixty_six", bots, deals=2, seed=6, time_limit=5, jobs=1)
    two = tournament.run("sixty_six", bots, deals=2, seed=6, time_limit=5, jobs=2)
    assert [g["save"] for g in one["games"]] == [g["save"] for g in two["games"]]
    assert tournament._comparable(one["board"]) == tournament._comparable(two["board"])


def test_euchre_pairs_sit_across_and_every_table_of_three_plays_in_cesarz():
    r = tournament.run("euchre", [str(EXAMPLES / "euchre_rules.py"), "1", "2"], deals=1,
                       seed=1, time_limit=5)
    assert {tuple(g["table"]) for g in r["games"]} == {(0, 1), (0, 2), (1, 2)}
    assert all(g["seats"][0] == g["seats"][2] for g in r["games"])
    assert tournament.verify(r) == []
    r = tournament.run("cesarz", [str(EXAMPLES / "cesarz_rules.py"), "1", "2", "3"],
                       players=3, deals=1, seed=1, time_limit=5)
    assert len({tuple(g["table"]) for g in r["games"]}) == 4
    assert tournament.verify(r) == []


def test_the_command_line_writes_results_that_verify(tmp_path):
    out = tmp_path / "results.json"
    cmd = [sys.executable, "-m", "atut", "tournament", "sixty_six",
           str(EXAMPLES / "sixty_six_rules.py"), str(HOSTILE / "loop.py"), "1",
           "--deals", "2", "--time-limit", "0.5", "--out", str(out)]
    env = {"PYTHONPATH": str(ROOT / "engine"), "PATH": "/usr/bin:/bin"}
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "left out: loop.py: no answer within 0.5 s" in r.stdout
    v = subprocess.run([sys.executable, "-m", "atut", "tournament", "--verify", str(out)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert v.returncode == 0 and "4 games replayed: all follow" in v.stdout, v.stdout
    data = json.loads(out.read_text())
    data["games"][0]["save"]["actions"][0] = {"type": "play", "card": "XX"}
    out.write_text(json.dumps(data))
    v = subprocess.run([sys.executable, "-m", "atut", "tournament", "--verify", str(out)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert v.returncode == 1 and "game 0" in v.stdout


def test_the_arena_plays_a_bot_file_in_a_box():
    spec = arena.bot_spec(str(EXAMPLES / "sixty_six_rules.py"))
    assert isinstance(spec, BoxedBot)
    r = arena.run("sixty_six", [spec, 1], 2, deals=3, seed=1)
    assert r["bots"][0]["name"] == "sixty_six_rules.py"
    assert len(spec._idle) == 1                  # one seat a game: its box, released each time
    spec.close()


def test_the_game_as_an_exchange_checks_whatever_the_driver_answers():
    """game_steps is what the page's driver talks to: an answer that is not an action, an
    error without its fields or a failed box at the start each end the game as that bot's
    named loss; a legal answer plays on."""
    specs = [{"name": "a.py", "source": "x"}, {"name": "1 random", "level": 1}]
    task = ("sixty_six", 2, specs, (0, 1), [0, 1], 0, 1, "game")

    def drive(answers):
        steps = tournament.game_steps(task)
        req, n = next(steps), 0
        try:
            while True:
                if req["op"] == "open":
                    req = steps.send({"0": None})
                    continue
                n += 1
                req = steps.send(answers(req, n))
        except StopIteration as done:
            return done.value, n

    rec, n = drive(lambda req, n: {"ok": req["view"]["legal_actions"][0], "seconds": 0.001})
    assert rec["error"] is None and rec["decisions"]["0"] == n and rec["save"]["actions"]
    rec, _ = drive(lambda req, n: {"ok": "AS"})
    assert rec["error"]["kind"] == "not_dict" and rec["ranks"] == {"0": 2, "1": 1}
    rec, _ = drive(lambda req, n: {"error": "junk"})
    assert rec["error"]["kind"] == "protocol"
    rec, _ = drive(lambda req, n: "junk")
    assert rec["error"]["kind"] == "not_dict"
    rec, _ = drive(lambda req, n: {"ok": {"type": "play", "card": "XX"}})
    assert rec["error"]["kind"] == "illegal"
    steps = tournament.game_steps(task)
    assert next(steps) == {"op": "open", "seats": [0]}
    with pytest.raises(StopIteration) as done:
        steps.send({"0": {"kind": "syntax", "messages": {"en": "a.py: bad", "pl": "a.py: zły"}}})
    assert done.value.value["error"]["at"] == "open"
    assert done.value.value["error"]["messages"]["pl"] == "a.py: zły"


def test_a_local_dask_cluster_plays_the_same_games_and_board():
    pytest.importorskip("distributed")
    bots = [str(EXAMPLES / "sixty_six_rules.py"), "1", "2"]
    one = tournament.run("sixty_six", bots, deals=1, seed=7, time_limit=5)
    dask = tournament.run("sixty_six", bots, deals=1, seed=7, time_limit=5, jobs=2,
                          cluster="local")
    assert [g["save"] for g in one["games"]] == [g["save"] for g in dask["games"]]
    assert tournament._comparable(one["board"]) == tournament._comparable(dask["board"])
