"""The backup file (docs/PAGE.md "Backup file", atut.backup): a whole file checked (every save
loaded with atut.load_game), older and newer formats refused with a reason, truncated and mutated
files refused (Hypothesis), the merge of its games by id (the newer version wins, a conflict
keeps both, the same file twice adds nothing) and of its bots by name, the import's plan and
report (op backup_plan), and the file made from what a browser keeps (op backup_make)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import atut
from atut.backup import BackupError, check, make, merge, merge_bots, plan_import
from atut.table import OPS, WORKER, Dispatcher


def _game(gid: str, game: str, players: int, seed: int, steps: int, finished=False) -> dict:
    g = atut.new_game(game, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    meta = {"format": 1, "id": gid, "game": game, "players": players, "seed": seed, "seat": 0,
            "levels": [2] * (players - 1), "delay": 0, "finished": finished, "options": {},
            "started": 1, "updated": 2 + steps}
    return {"meta": meta, "save": g.to_json()}


def _file(games, bots=(), settings_=None, version=1) -> str:
    return json.dumps({"format": "atut-backup", "version": version, "made": 5, "games": list(games),
                       "bots": list(bots), "settings": settings_ or {"atut.delay": "0"}})


BOT = {"name": "mine.py", "game": "euchre", "source": "def choose(view):\n    return 0\n"}
GOOD = _file([_game("a", "sixty_six", 2, 1, 12), _game("b", "euchre", 4, 2, 9)], [BOT])


def test_a_good_file_is_read_whole():
    got = check(GOOD)
    assert [g["meta"]["id"] for g in got["games"]] == ["a", "b"]
    assert got["bots"] == [BOT] and got["settings"] == {"atut.delay": "0"}
    assert check(GOOD.encode()) == got


@pytest.mark.parametrize(("version", "code"), [(0, "older"), (2, "newer"), ("1", "format")])
def test_another_format_is_refused_with_its_reason(version, code):
    with pytest.raises(BackupError) as e:
        check(_file([], version=version))
    assert e.value.code == code


def test_a_save_that_does_not_load_refuses_the_file():
    g = _game("a", "sixty_six", 2, 1, 5)
    d = json.loads(g["save"])
    d["actions"].append({"type": "play", "card": "XX"})
    with pytest.raises(BackupError) as e:
        check(_file([{**g, "save": json.dumps(d)}]))
    assert e.value.code == "save"
    other = _game("a", "euchre", 4, 1, 5)
    with pytest.raises(BackupError) as e:
        check(_file([{"meta": g["meta"], "save": other["save"]}]))
    assert e.value.code == "save"


def test_hostile_shapes_are_refused():
    for bad in ["", "[]", "null", '{"format": "atut-backup"}', "{" * 10000,
                _file([_game("a", "sixty_six", 2, 1, 3)] * 2),
                _file([], [BOT, BOT]), _file([], [{**BOT, "game": "chess"}]),
                _file([], settings_={"evil": "1"}), _file([], settings_={"atut.x": 1})]:
        with pytest.raises(BackupError):
            check(bad)


def test_merge_adds_new_games_and_the_same_file_twice_changes_nothing():
    inc = check(GOOD)["games"]
    plan = merge([], inc)
    assert [g["meta"]["id"] for g in plan["add"]] == ["a", "b"]
    assert merge(plan["add"], inc)["add"] == []


def test_merge_the_newer_version_wins_and_a_conflict_keeps_both():
    short, long_ = _game("a", "sixty_six", 2, 1, 4), _game("a", "sixty_six", 2, 1, 10)
    assert [g["save"] for g in merge([short], [long_])["add"]] == [long_["save"]]
    assert merge([long_], [short]) == {"add": [], "same": [], "kept_newer": ["a"], "replaced": [],
                                       "conflicts": []}
    d = json.loads(short["save"])
    g = atut.load_game(short["save"])
    other = [a for a in g.legal_actions() if a != json.loads(long_["save"])["actions"][4]][0]
    g.apply(other)
    apart = {"meta": short["meta"], "save": g.to_json()}
    plan = merge([long_], [apart])
    assert plan["conflicts"] == [["a", "a~2"]] and plan["add"][0]["meta"]["id"] == "a~2"
    assert merge([long_, *plan["add"]], [apart])["add"] == []          # imported twice: nothing new
    assert d["actions"] == json.loads(short["save"])["actions"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=len(GOOD) - 1))
def test_a_truncated_file_is_refused(n):
    with pytest.raises(BackupError):
        check(GOOD[:n])


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(min_value=0, max_value=len(GOOD) - 1),
                          st.integers(min_value=0, max_value=255)), min_size=1, max_size=4))
def test_a_mutated_file_is_refused_or_still_whole(flips):
    raw = bytearray(GOOD.encode())
    for at, byte in flips:
        raw[at] = byte
    try:
        got = check(bytes(raw))
    except BackupError as e:
        assert e.code and str(e)
        return
    for g in got["games"]:                     # what passes is a whole, loadable file
        atut.load_game(g["save"])


def _paths(node, here=()):
    """Every place of a parsed JSON value, as a path of keys and indices."""
    yield here
    items = node.items() if isinstance(node, dict) else (
        enumerate(node) if isinstance(node, list) else ())
    for k, v in items:
        yield from _paths(v, here + (k,))


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                     | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)
_PLACES = list(_paths(json.loads(GOOD)))[1:]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_PLACES), _JSON)
def test_any_field_replaced_by_any_json_value_is_refused_or_still_whole(place, value):
    """A field of the wrong kind anywhere (a bot's game given as a list, say) is a BackupError
    with its reason, never a TypeError from inside the check."""
    data = json.loads(GOOD)
    node = data
    for k in place[:-1]:
        node = node[k]
    node[place[-1]] = value
    try:
        got = check(json.dumps(data))
    except BackupError as e:
        assert e.code and str(e)
        return
    for g in got["games"]:
        atut.load_game(g["save"])


def test_a_refusal_names_its_place_and_every_field_is_checked_before_any_save_loads():
    broken = _game("a", "sixty_six", 2, 1, 5)
    d = json.loads(broken["save"])
    d["actions"].append({"type": "play", "card": "XX"})
    bad_save = {**broken, "save": json.dumps(d)}
    bad_shape = _game("b", "euchre", 4, 2, 3)
    bad_shape["meta"]["levels"] = "2,2,2"
    with pytest.raises(BackupError) as e:
        check(_file([bad_save, bad_shape]))
    assert (e.value.code, e.value.where) == ("shape", "games[1]")      # before games[0] loads
    assert e.value.to_json()["message"].startswith("games[1]: levels")
    with pytest.raises(BackupError) as e:
        check(_file([bad_save]))
    assert (e.value.code, e.value.where) == ("save", "games[0]")


def test_a_deep_nesting_is_refused_before_json_reads_it():
    """Pyodide's json.loads overflows the wasm stack far below Python's recursion limit."""
    for text in ("[" * 5000 + "]" * 5000,
                 _file([{"meta": _game("a", "sixty_six", 2, 1, 3)["meta"],
                         "save": "[" * 3000 + "]" * 3000}])):
        with pytest.raises(BackupError) as e:
            check(text)
        assert e.value.code == "json"


@pytest.mark.parametrize(("field", "value"), [
    ("last_deal", {"results": 3, "scores_before": [], "scores_after": []}),
    ("last_deal", {"results": [], "scores_before": [], "scores_after": [], "center": {"cards": 1}}),
    ("result", {"winner": "x", "won": True}), ("result", {"won": "yes"}),
    ("scores", ["1"]), ("aids", {"hints": -1}), ("outside", {"1": "<img>.py"}),
    ("outside_mode", "mine"), ("deal_no", 1e300), ("mystery", {"nested": [1]}),
    ("options", {"redeal": [1]}), ("finished", True),
])
def test_a_record_field_of_the_wrong_kind_is_refused(field, value):
    g = _game("a", "sixty_six", 2, 1, 6)
    g["meta"][field] = value
    with pytest.raises(BackupError) as e:
        check(_file([g]))
    assert e.value.code in ("shape", "save") and e.value.where == "games[0]"


def test_the_record_fields_the_page_writes_are_read():
    g = _game("a", "sixty_six", 2, 1, 200, finished=True)
    assert atut.load_game(g["save"]).is_over
    g["meta"].update({"deal_no": 1, "scores": [1, 0], "aids": {"hints": 2, "undo": 0},
                      "version": "1.0", "result": {"winner": 0, "won": True, "score": 1},
                      "last_deal": {"deal_no": 1, "trick": {"type": "trick", "winner": 0},
                                    "results": [{"type": "deal_over"}],
                                    "center": {"cards": [{"seat": 0, "card": "AS"}], "winner": 0},
                                    "scores_before": [0, 0], "scores_after": [1, 0],
                                    "new_deal": 2, "dismissed": False},
                      "outside": {"1": "mine.py"}, "watch": False, "outside_mode": "against",
                      "outside_fallen": False, "outside_limit": 2000, "writer": "tab-1"})
    assert check(_file([g]))["games"][0]["meta"] == g["meta"]


def test_bot_names_are_the_labs_and_a_saved_time_is_kept():
    with pytest.raises(BackupError) as e:
        check(_file([], [{**BOT, "name": "mine"}]))
    assert (e.value.code, e.value.where) == ("shape", "bots[0]")
    assert check(_file([], [{**BOT, "saved": 17}]))["bots"] == [{**BOT, "saved": 17}]


def test_merge_bots_by_name_keeps_both_texts_and_twice_adds_nothing():
    other = {**BOT, "source": "def choose(view):\n    return view['legal_actions'][0]\n"}
    assert merge_bots([], [BOT])["add"] == [BOT]
    assert merge_bots([BOT], [BOT]) == {"add": [], "same": ["mine.py"], "renamed": []}
    plan = merge_bots([BOT], [other])
    assert plan["renamed"] == [["mine.py", "mine-2.py"]] and plan["add"][0]["name"] == "mine-2.py"
    assert merge_bots([BOT, *plan["add"]], [other])["add"] == []


def test_plan_import_reports_and_a_second_import_changes_nothing():
    first = plan_import(GOOD, [], [])
    assert first["report"] == {"games": 2, "added": 2, "updated": 0, "same": 0, "kept_newer": 0,
                               "conflicts": [], "bots_added": 1, "bots_same": 0,
                               "bots_renamed": [], "settings": 1}
    again = plan_import(GOOD, first["games"], first["bots"])
    assert again["games"] == [] and again["bots"] == []
    assert again["report"]["same"] == 2 and again["report"]["bots_same"] == 1
    assert plan_import(GOOD[:-3], [], [])["refused"]["code"] == "json"
    assert plan_import(_file([], version=9), [], [])["refused"] == {
        "code": "newer", "where": "",
        "message": "the backup was made by a newer Atut (format 9; this one reads 1)"}


def test_plan_import_counts_updates_and_conflicts():
    short, long_ = _game("a", "sixty_six", 2, 1, 4), _game("a", "sixty_six", 2, 1, 10)
    rep = plan_import(_file([long_]), [short], [])["report"]
    assert (rep["added"], rep["updated"]) == (0, 1)
    g = atut.load_game(short["save"])
    g.apply([a for a in g.legal_actions() if a != json.loads(long_["save"])["actions"][4]][0])
    rep = plan_import(_file([{"meta": short["meta"], "save": g.to_json()}]), [long_], [])["report"]
    assert (rep["added"], rep["conflicts"]) == (0, [["a", "a~2"]])


def test_a_kept_save_gone_bad_is_replaced_by_the_files():
    g = _game("a", "sixty_six", 2, 1, 4)
    plan = merge([{"meta": g["meta"], "save": "{broken"}], [g])
    assert plan["replaced"] == ["a"] and plan["add"] == [g]


def test_make_writes_a_file_that_check_reads_whole_and_leaves_out_what_is_bad():
    good = [_game("a", "sixty_six", 2, 1, 12), _game("b", "euchre", 4, 2, 9)]
    bad = {"meta": {**good[0]["meta"], "id": "c"}, "save": "{not a save"}
    made = make(good + [bad, good[0]], [BOT, {"name": "x", "game": "euchre", "source": "1"}],
                {"atut.delay": "0", "other": "1", "atut.n": 5}, 7)
    assert (made["games"], made["bots"], made["settings"]) == (2, 1, 1)
    assert made["skipped"] == ["c", "a", "bots[1]"]
    got = check(made["text"])
    assert [g["meta"] for g in got["games"]] == [g["meta"] for g in good]
    assert got["bots"] == [BOT] and got["settings"] == {"atut.delay": "0"} and got["made"] == 7


def test_the_backup_ops_are_the_workers_own():
    assert OPS["backup_plan"].callers == {WORKER} == OPS["backup_make"].callers
    desk = Dispatcher()
    r = json.loads(desk.handle("backup_plan", json.dumps({"text": GOOD, "kept": [], "bots": []}),
                               WORKER))
    assert r["ok"] and r["result"]["report"]["added"] == 2
    r = json.loads(desk.handle("backup_plan", json.dumps({"text": GOOD, "kept": [], "bots": []})))
    assert r["ok"] is False and "worker's own" in r["error"]
    r = json.loads(desk.handle("backup_make", json.dumps({"games": 3, "bots": [], "settings": {}}),
                               WORKER))
    assert r["ok"] is False and "backup_make needs" in r["error"]


def test_every_refusal_code_has_its_reason_in_both_languages():
    """The page says why a file was refused in its language (web/lib/backup.js): each code
    atut.backup raises, and the page's own (read), is a "backup.reason.<code>" in both."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    source = (root / "engine/atut/backup.py").read_text(encoding="utf-8")
    codes = set(re.findall(r'BackupError\(\s*"(\w+)"', source))
    assert {"size", "json", "format", "older", "newer", "shape", "save", "duplicate"} <= codes
    core = (root / "web/i18n/core.js").read_text(encoding="utf-8")
    en, pl = core.split("\n  pl: {", 1)
    keys = [set(re.findall(r'"(backup\.[a-z_.]+)":', lang)) for lang in (en, pl)]
    assert {f"backup.reason.{c}" for c in codes | {"read"}} <= keys[0]
    assert keys[0] == keys[1]
