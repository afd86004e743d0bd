"""A backup file of everything the page keeps (docs/PAGE.md "Backup file"): its check, the merge
of its games and bots into what is already kept, and the file made from what is kept.  Standard
library only; the page's worker runs it under Pyodide (ops ``backup_make`` and ``backup_plan``
of ``atut.table.ops``; the page itself never sees a save: another seat's hand follows from it).

The file is JSON::

    {"format": "atut-backup", "version": 1, "made": <ms since 1970>,
     "games": [{"meta": {...the kept game's settings record...}, "save": "<to_json() text>"}],
     "bots": [{"name": "<lab name>.py", "game": str, "source": str, "saved": <ms, optional>}],
     "settings": {"atut.<key>": str}}

``check(text)`` returns the file's content normalised, or raises ``BackupError`` whose ``code``
says why ("size", "json", "format", "older", "newer", "shape", "save", "duplicate"), whose
``where`` names the place ("games[3]", "bots[0]", "settings", or "" for the whole file) and
whose message says what was wrong.  Every field is checked first (a malformed file is refused
before any save is replayed), then every save is loaded with ``atut.load_game``; a save that
does not load (an illegal move in it), or that names another game than its record, refuses the
whole file: nothing of a refused file is to be written.  ``merge(kept, incoming)`` plans the
import of the games: a game new here is added; the same game with the same moves changes
nothing; one whose moves extend the other's is the newer version and wins; two that went apart
(neither extends the other) are both kept, the imported one under a new id, and reported as a
conflict.  ``merge_bots`` does the same for the lab's saved bots by name, ``plan_import`` all of
it for one file, and ``make`` writes the file of what a browser keeps."""

from __future__ import annotations

import json
import re

FORMAT = "atut-backup"
VERSION = 1
MAX_BYTES = 32 * 1024 * 1024
MAX_GAMES = 2000
MAX_BOTS = 500
MAX_SETTINGS = 200
MAX_TEXT = 200_000          # one setting, one bot's source, one id
META_FORMAT = 1             # web/lib/saved-games.js FORMAT
MAX_NESTING = 100           # as atut.table.checks: Pyodide's json.loads must never see deeper
# a saved bot's name in the lab (web/lib/lab/saved.js NAME, atut.table.checks.BOT_NAME)
BOT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,60}\.py$")
# the optional fields of a game's record (web/lib/autosave.js metaNow) and their checks
_SCALAR = (str, int, float, bool, type(None))


class BackupError(ValueError):
    def __init__(self, code: str, message: str, where: str = ""):
        super().__init__(f"{where}: {message}" if where else message)
        self.code = code
        self.where = where
        self.reason = message

    def to_json(self) -> dict:
        return {"code": self.code, "where": self.where, "message": str(self)[:400]}


def _int(x) -> bool:
    return type(x) is int and 0 <= x < 2 ** 53


def _num(x) -> bool:
    return type(x) in (int, float) and x == x and abs(x) < 2 ** 53


def _str(x, limit: int = MAX_TEXT) -> bool:
    return isinstance(x, str) and 0 < len(x) <= limit


def _nums(x, most: int = 8) -> bool:
    return isinstance(x, list) and len(x) <= most and all(_num(v) for v in x)


def _nesting(text: str, what: str, where: str = "") -> None:
    """BackupError when JSON ``text`` nests deeper than MAX_NESTING (a scan, no recursion)."""
    from .table.checks import check_nesting
    try:
        check_nesting(text, what)
    except ValueError as e:
        raise BackupError("json", str(e), where) from None


def _winner(w) -> bool:
    return w is None or _int(w) or (isinstance(w, list) and len(w) <= 8 and all(_int(s) for s in w))


def _last_deal(d) -> bool:
    """The finished deal's items shown beside the table (bridge.py _last_deal): the shape the
    side panel reads (web/lib/table/side.js)."""
    if d is None:
        return True
    if not isinstance(d, dict) or not _int(d.get("deal_no", 0)):
        return False
    if not isinstance(d.get("results"), list) or not all(isinstance(e, dict) for e in d["results"]):
        return False
    if not _nums(d.get("scores_before")) or not _nums(d.get("scores_after")):
        return False
    if d.get("trick") is not None and not (isinstance(d["trick"], dict)
                                           and isinstance(d["trick"].get("type"), str)):
        return False
    c = d.get("center")
    if c is not None and not (isinstance(c, dict) and isinstance(c.get("cards"), list)
                              and len(c["cards"]) <= 8 and all(
                                  isinstance(e, dict) and isinstance(e.get("card"), str)
                                  and _int(e.get("seat")) for e in c["cards"])
                              and _winner(c.get("winner"))):
        return False
    return _int(d.get("new_deal", 0)) and type(d.get("dismissed", False)) is bool


# field: (check, what it must be)
_OPTIONAL = {
    "started": (_num, "a time"),
    "deal_no": (_int, "a whole number"),
    "scores": (_nums, "a list of numbers"),
    "aids": (lambda a: isinstance(a, dict) and set(a) <= {"hints", "undo"}
             and all(_int(v) for v in a.values()), "{hints, undo} counts"),
    "version": (lambda v: v is None or _str(v, 100), "a version text"),
    "result": (lambda r: r is None or (isinstance(r, dict) and set(r) <= {"winner", "won", "score"}
                                       and _winner(r.get("winner"))
                                       and type(r.get("won", False)) is bool
                                       and (r.get("score") is None or _num(r["score"]))),
               "{winner, won, score}"),
    "last_deal": (_last_deal, "the finished deal's items"),
    # a student's bot at the table (web/lib/lab/table.js)
    "outside": (lambda o: isinstance(o, dict) and len(o) <= 8 and all(
        k.isdigit() and len(k) < 3 and isinstance(v, str) and BOT_NAME.match(v)
        for k, v in o.items()), "{seat: bot name}"),
    "watch": (lambda v: type(v) is bool, "true or false"),
    "outside_mode": (lambda v: v in ("watch", "against"), '"watch" or "against"'),
    "outside_fallen": (lambda v: type(v) is bool, "true or false"),
    "outside_limit": (lambda v: _num(v) and v > 0, "a number of milliseconds"),
}


def _check_meta(m, where: str) -> dict:
    if not isinstance(m, dict):
        raise BackupError("shape", "the game's record is not an object", where)
    if m.get("format") != META_FORMAT:
        raise BackupError("shape", f"the game's record has format {str(m.get('format'))[:40]!r}",
                          where)
    if not _str(m.get("id"), 200) or not _str(m.get("game"), 100):
        raise BackupError("shape", "the game's record needs an id and a game", where)
    for k in ("players", "seed", "seat", "delay"):
        if not _int(m.get(k)):
            raise BackupError("shape", f"{k} must be a whole number", where)
    lv = m.get("levels")
    if not isinstance(lv, list) or not lv or len(lv) > 8 or not all(_int(x) for x in lv):
        raise BackupError("shape", "levels must be a list of whole numbers", where)
    if type(m.get("finished")) is not bool or not isinstance(m.get("options"), dict):
        raise BackupError("shape", "finished and options are missing", where)
    if len(m["options"]) > 20 or not all(isinstance(k, str) and len(k) <= 40
                                         and isinstance(v, _SCALAR) and not isinstance(v, float)
                                         and (not isinstance(v, str) or len(v) <= 40)
                                         for k, v in m["options"].items()):
        raise BackupError("shape", "options must be rule options", where)
    if not _num(m.get("updated")):
        raise BackupError("shape", "updated must be a time", where)
    for k, v in m.items():
        if k in _OPTIONAL:
            ok, what = _OPTIONAL[k]
            if not ok(v):
                raise BackupError("shape", f"{k} must be {what}", where)
        elif k not in ("format", "id", "game", "players", "seed", "seat", "levels", "delay",
                       "finished", "options", "updated"):
            # a field of a newer page of format 1: kept when it is a plain value
            if not isinstance(k, str) or len(k) > 40 or not isinstance(v, _SCALAR) or (
                    isinstance(v, str) and len(v) > 200) or (isinstance(v, (int, float))
                                                             and not isinstance(v, bool)
                                                             and not _num(v)):
                raise BackupError("shape", f"unknown field {str(k)[:40]!r} in the game's record",
                                  where)
    return m


def _check_game_shape(g, i: int) -> dict:
    where = f"games[{i}]"
    if not isinstance(g, dict) or set(g) != {"meta", "save"}:
        raise BackupError("shape", "a game is {meta, save}", where)
    meta = _check_meta(g["meta"], where)
    if not _str(g["save"], MAX_BYTES):
        raise BackupError("save", "the save is missing", where)
    return {"meta": meta, "save": g["save"]}


def _load_game(g: dict, i: int) -> dict:
    from . import load_game
    where = f"games[{i}]"
    meta, save = g["meta"], g["save"]
    _nesting(save, "the save is", where)
    try:
        game = load_game(save)
    except (ValueError, TypeError, KeyError, RecursionError) as e:
        raise BackupError("save", f"the save does not load: {str(e)[:200]}", where) from None
    if (game.GAME_ID, game.n, game.seed) != (meta["game"], meta["players"], meta["seed"]):
        raise BackupError("save", "the save is of another game than its record", where)
    if meta["seat"] >= game.n or len(meta["levels"]) > game.n:
        raise BackupError("shape", "the seat or the levels do not fit the table", where)
    if meta["finished"] and not game.is_over:
        raise BackupError("save", "the record says finished, the save is not over", where)
    return {"meta": meta, "save": save, "actions": len(json.loads(save)["actions"])}


def _check_bot(b, i: int, known: set) -> dict:
    where = f"bots[{i}]"
    if not isinstance(b, dict) or not {"name", "game", "source"} <= set(b) <= {
            "name", "game", "source", "saved"}:
        raise BackupError("shape", "a bot is {name, game, source, saved}", where)
    if not (isinstance(b["name"], str) and BOT_NAME.match(b["name"])):
        raise BackupError("shape", "the bot's name is not a file name of the lab (name.py)",
                          where)
    if not isinstance(b["game"], str) or b["game"] not in known or not _str(b["source"]):
        raise BackupError("shape", "a known game and the bot's source are needed", where)
    if "saved" in b and not _num(b["saved"]):
        raise BackupError("shape", "saved must be a time", where)
    return dict(b)


def check(text) -> dict:
    """The backup file's content ({version, made, games, bots, settings}), checked; or
    ``BackupError``."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_BYTES:
            raise BackupError("size", "the file is too large")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise BackupError("json", "the file is not UTF-8 text") from None
    if not isinstance(text, str):
        raise BackupError("json", "the file is not text")
    if len(text) > MAX_BYTES:
        raise BackupError("size", "the file is too large")
    _nesting(text, "the file is")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise BackupError("json", f"the file is not JSON: {str(e)[:120]}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError("format", "the file is not an Atut backup")
    v = data.get("version")
    if type(v) is not int:
        raise BackupError("format", "the backup's version is missing")
    if v > VERSION:
        raise BackupError("newer", f"the backup was made by a newer Atut (format {str(v)[:20]}; "
                                   f"this one reads {VERSION})")
    if v < VERSION:
        raise BackupError("older", f"the backup's format {v} is older than any this Atut reads")
    extra = set(data) - {"format", "version", "made", "games", "bots", "settings"}
    if extra:
        raise BackupError("shape", f"unknown fields: {', '.join(sorted(map(str, extra)))[:120]}")
    games, bots, settings = data.get("games", []), data.get("bots", []), data.get("settings", {})
    if not isinstance(games, list) or len(games) > MAX_GAMES:
        raise BackupError("shape", "games must be a list", "games")
    if not isinstance(bots, list) or len(bots) > MAX_BOTS:
        raise BackupError("shape", "bots must be a list", "bots")
    if not isinstance(settings, dict) or len(settings) > MAX_SETTINGS:
        raise BackupError("shape", "settings must be an object", "settings")
    if "made" in data and not _num(data["made"]):
        raise BackupError("shape", "made must be a time", "made")
    # every field first: a malformed file is refused before any save is replayed
    shaped = [_check_game_shape(g, i) for i, g in enumerate(games)]
    ids = [g["meta"]["id"] for g in shaped]
    if len(set(ids)) != len(ids):
        raise BackupError("duplicate", "two games of the file have one id", "games")
    from .games import ids as game_ids
    known = set(game_ids())
    out_bots = [_check_bot(b, i, known) for i, b in enumerate(bots)]
    if len({b["name"] for b in out_bots}) != len(out_bots):
        raise BackupError("duplicate", "two bots of the file have one name", "bots")
    for k, val in settings.items():
        if (not k.startswith("atut.") or len(k) > 100 or not isinstance(val, str)
                or len(val) > MAX_TEXT):
            raise BackupError("shape", f"{k[:60]!r} is not a setting of Atut", "settings")
    out_games = [_load_game(g, i) for i, g in enumerate(shaped)]
    return {"version": v, "made": data.get("made"), "games": out_games, "bots": out_bots,
            "settings": dict(settings)}


def _actions(save: str):
    """A save's actions, or None for a save that cannot be read (a kept record gone bad)."""
    try:
        a = json.loads(save)["actions"]
    except (ValueError, TypeError, KeyError, RecursionError):
        return None
    return a if isinstance(a, list) else None


def merge(kept: list[dict], incoming: list[dict]) -> dict:
    """Plan an import: `kept` and `incoming` are lists of {meta, save}.  Returns {"add": [games
    to write], "same": [ids], "kept_newer": [ids], "replaced": [ids], "conflicts": [[id, new
    id]]}; writing "add" is the whole import of the games."""
    here = {g["meta"]["id"]: g for g in kept}
    taken = set(here)
    plan = {"add": [], "same": [], "kept_newer": [], "replaced": [], "conflicts": []}
    for g in incoming:
        gid = g["meta"]["id"]
        old = here.get(gid)
        if old is None:
            plan["add"].append(g)
            taken.add(gid)
            continue
        a, b = _actions(old["save"]), _actions(g["save"])
        # a conflict imported before is kept under "<id>~<n>": the same file again adds nothing
        twins = [k for k in here if k.startswith(gid + "~")]
        if a == b or any(_actions(here[k]["save"]) == b for k in twins):
            plan["same"].append(gid)
        elif a is None or (len(a) <= len(b) and b[:len(a)] == a):
            plan["add"].append(g)
            plan["replaced"].append(gid)
        elif len(b) < len(a) and a[:len(b)] == b:
            plan["kept_newer"].append(gid)
        else:
            n = 2
            while f"{gid}~{n}" in taken:
                n += 1
            new_id = f"{gid}~{n}"
            taken.add(new_id)
            plan["add"].append({**g, "meta": {**g["meta"], "id": new_id}})
            plan["conflicts"].append([gid, new_id])
    return plan


def merge_bots(kept: list[dict], incoming: list[dict]) -> dict:
    """Plan the import of the lab's saved bots by name: {"add": [bots to write], "same":
    [names], "renamed": [[name, new name]]}.  The same name with the same source is the same
    bot; another source under a name kept here is added as ``<name>-2.py`` (the kept one stays);
    a bot imported so before is found again: the same file twice adds nothing."""
    here = {b["name"]: b.get("source") for b in kept}
    plan = {"add": [], "same": [], "renamed": []}
    for b in incoming:
        name = b["name"]
        if name not in here:
            plan["add"].append(b)
            here[name] = b["source"]
            continue
        stem = name[:-3]
        twins = [k for k in here if k == name or (k.startswith(stem + "-") and k.endswith(".py")
                                                   and k[len(stem) + 1:-3].isdigit())]
        if any(here[k] == b["source"] for k in twins):
            plan["same"].append(name)
            continue
        n = 2
        while f"{stem}-{n}.py" in here:
            n += 1
        new = f"{stem}-{n}.py"
        if not BOT_NAME.match(new):               # the longest names: a shorter stem
            new = f"{stem[:50]}-{n}.py"
        here[new] = b["source"]
        plan["add"].append({**b, "name": new})
        plan["renamed"].append([name, new])
    return plan


def plan_import(text="", kept=None, bots=None) -> dict:
    """The whole import of a backup file's text into what this browser keeps (`kept`: its games
    as {meta, save}; `bots`: its saved bots as {name, source}): the file checked whole, then its
    games and bots merged.  Returns {"refused": {code, where, message}} for a file refused
    (nothing is to be written), else {"games": [{meta, save} to write], "bots": [bots to write],
    "settings": {...}, "report": {added, updated, same, kept_newer, conflicts, bots_added,
    bots_same, bots_renamed}}."""
    if not isinstance(kept, list) or not isinstance(bots, list):
        raise ValueError("backup_plan needs kept (a list of games) and bots (a list)")
    try:
        got = check(text)
    except BackupError as e:
        return {"refused": e.to_json()}
    here = [g for g in kept if isinstance(g, dict) and isinstance(g.get("meta"), dict)
            and isinstance(g["meta"].get("id"), str) and isinstance(g.get("save"), str)]
    here_bots = [b for b in bots if isinstance(b, dict) and isinstance(b.get("name"), str)]
    games = [{"meta": g["meta"], "save": g["save"]} for g in got["games"]]
    plan = merge(here, games)
    bplan = merge_bots(here_bots, got["bots"])
    conflicts = {new for _, new in plan["conflicts"]}
    report = {
        "games": len(games),
        "added": sum(1 for g in plan["add"] if g["meta"]["id"] not in conflicts)
        - len(plan["replaced"]),
        "updated": len(plan["replaced"]), "same": len(plan["same"]),
        "kept_newer": len(plan["kept_newer"]), "conflicts": plan["conflicts"],
        "bots_added": len(bplan["add"]) - len(bplan["renamed"]),
        "bots_same": len(bplan["same"]), "bots_renamed": bplan["renamed"],
        "settings": len(got["settings"]),
    }
    return {"games": plan["add"], "bots": bplan["add"], "settings": got["settings"],
            "report": report}


def make(games=None, bots=None, settings=None, made=0) -> dict:
    """The backup file of what a browser keeps: `games` its kept games as {meta, save}, `bots`
    the lab's saved bots, `settings` its "atut.*" settings.  A kept game that would not pass
    ``check`` (a record or a save gone bad) is left out and named in "skipped", so that the file
    made is always one that ``check`` reads whole.  Returns {"text", "games", "bots",
    "settings", "skipped"}."""
    if not all(isinstance(x, list) for x in (games, bots)) or not isinstance(settings, dict):
        raise ValueError("backup_make needs games and bots (lists) and settings (an object)")
    if not _num(made):
        raise ValueError("backup_make: made must be a time")
    from .games import ids as game_ids
    known = set(game_ids())
    out, skipped, seen = [], [], set()
    for i, g in enumerate(games):
        gid = g.get("meta", {}).get("id") if isinstance(g, dict) and isinstance(
            g.get("meta"), dict) else None
        try:
            if gid in seen:
                raise BackupError("duplicate", "kept twice")
            shaped = _check_game_shape(g, i)
            _load_game(shaped, i)
        except BackupError:
            skipped.append(gid if isinstance(gid, str) else f"games[{i}]")
            continue
        seen.add(gid)
        out.append(shaped)
    out_bots, names = [], set()
    for i, b in enumerate(bots):
        try:
            bot = _check_bot(b, i, known)
        except BackupError:
            skipped.append(f"bots[{i}]")
            continue
        if bot["name"] not in names:
            names.add(bot["name"])
            out_bots.append(bot)
    sets = {k: v for k, v in settings.items() if isinstance(k, str) and k.startswith("atut.")
            and len(k) <= 100 and isinstance(v, str) and len(v) <= MAX_TEXT}
    text = json.dumps({"format": FORMAT, "version": VERSION, "made": made, "games": out,
                       "bots": out_bots, "settings": sets}, ensure_ascii=False)
    return {"text": text, "games": len(out), "bots": len(out_bots), "settings": len(sets),
            "skipped": skipped}
