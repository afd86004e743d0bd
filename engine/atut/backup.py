"""A backup file of everything the page keeps (docs/PAGE.md "Backup file"): its check and the
merge of its games into the games already kept.  Standard library only; the page's worker is to
run it under Pyodide (the page itself never sees a save: another seat's hand follows from it).

The file is JSON::

    {"format": "atut-backup", "version": 1, "made": <ms since 1970>,
     "games": [{"meta": {...the kept game's settings record...}, "save": "<to_json() text>"}],
     "bots": [{"name": str, "game": str, "source": str}],
     "settings": {"atut.<key>": str}}

``check(text)`` returns the file's content normalised, or raises ``BackupError`` whose ``code``
says why ("size", "json", "format", "older", "newer", "shape", "save", "duplicate") and whose
message names the place.  Every save is loaded with ``atut.load_game``; a save that does not
load, or that names another game than its record, refuses the whole file: nothing of a refused
file is to be written.  ``merge(kept, incoming)`` plans the import: a game new here is added; the
same game with the same moves changes nothing; one whose moves extend the other's is the newer
version and wins; two that went apart (neither extends the other) are both kept, the imported one
under a new id, and reported as a conflict."""

from __future__ import annotations

import json

FORMAT = "atut-backup"
VERSION = 1
MAX_BYTES = 32 * 1024 * 1024
MAX_GAMES = 2000
MAX_BOTS = 500
MAX_SETTINGS = 200
MAX_TEXT = 200_000          # one setting, one bot's source, one id
META_FORMAT = 1             # web/lib/saved-games.js FORMAT


class BackupError(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def _int(x) -> bool:
    return type(x) is int and 0 <= x < 2 ** 53


def _num(x) -> bool:
    return type(x) in (int, float) and x == x and abs(x) < 2 ** 53


def _str(x, limit: int = MAX_TEXT) -> bool:
    return isinstance(x, str) and 0 < len(x) <= limit


def _check_meta(m, where: str) -> dict:
    if not isinstance(m, dict):
        raise BackupError("shape", f"{where}: the game's record is not an object")
    if m.get("format") != META_FORMAT:
        raise BackupError("shape", f"{where}: the game's record has format {m.get('format')!r}")
    if not _str(m.get("id"), 200) or not _str(m.get("game"), 100):
        raise BackupError("shape", f"{where}: the game's record needs an id and a game")
    for k in ("players", "seed", "seat", "delay"):
        if not _int(m.get(k)):
            raise BackupError("shape", f"{where}: {k} must be a whole number")
    lv = m.get("levels")
    if not isinstance(lv, list) or not lv or len(lv) > 8 or not all(_int(x) for x in lv):
        raise BackupError("shape", f"{where}: levels must be a list of whole numbers")
    if type(m.get("finished")) is not bool or not isinstance(m.get("options"), dict):
        raise BackupError("shape", f"{where}: finished and options are missing")
    if not _num(m.get("updated")):
        raise BackupError("shape", f"{where}: updated must be a time")
    return m


def _check_game(g, i: int) -> dict:
    from . import load_game
    where = f"games[{i}]"
    if not isinstance(g, dict) or set(g) - {"meta", "save"}:
        raise BackupError("shape", f"{where}: a game is {{meta, save}}")
    meta = _check_meta(g.get("meta"), where)
    save = g.get("save")
    if not _str(save, MAX_BYTES):
        raise BackupError("save", f"{where}: the save is missing")
    try:
        game = load_game(save)
    except (ValueError, TypeError, KeyError, RecursionError) as e:
        raise BackupError("save", f"{where}: the save does not load: {str(e)[:200]}") from None
    if (game.GAME_ID, game.n, game.seed) != (meta["game"], meta["players"], meta["seed"]):
        raise BackupError("save", f"{where}: the save is of another game than its record")
    if meta["seat"] >= game.n or len(meta["levels"]) > game.n:
        raise BackupError("shape", f"{where}: the seat or the levels do not fit the table")
    return {"meta": meta, "save": save, "actions": len(json.loads(save)["actions"])}


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
        raise BackupError("newer", f"the backup was made by a newer Atut (format {v}; "
                                   f"this one reads {VERSION})")
    if v < VERSION:
        raise BackupError("older", f"the backup's format {v} is older than any this Atut reads")
    extra = set(data) - {"format", "version", "made", "games", "bots", "settings"}
    if extra:
        raise BackupError("shape", f"unknown fields: {', '.join(sorted(map(str, extra)))[:120]}")
    games, bots, settings = data.get("games", []), data.get("bots", []), data.get("settings", {})
    if not isinstance(games, list) or len(games) > MAX_GAMES:
        raise BackupError("shape", "games must be a list")
    if not isinstance(bots, list) or len(bots) > MAX_BOTS:
        raise BackupError("shape", "bots must be a list")
    if not isinstance(settings, dict) or len(settings) > MAX_SETTINGS:
        raise BackupError("shape", "settings must be an object")
    if "made" in data and not _num(data["made"]):
        raise BackupError("shape", "made must be a time")
    out_games = [_check_game(g, i) for i, g in enumerate(games)]
    ids = [g["meta"]["id"] for g in out_games]
    if len(set(ids)) != len(ids):
        raise BackupError("duplicate", "two games of the file have one id")
    from .games import ids as game_ids
    known = set(game_ids())
    out_bots = []
    for i, b in enumerate(bots):
        if not isinstance(b, dict) or set(b) != {"name", "game", "source"}:
            raise BackupError("shape", f"bots[{i}]: a bot is {{name, game, source}}")
        if not _str(b["name"], 80) or not _str(b["source"]) or b["game"] not in known:
            raise BackupError("shape", f"bots[{i}]: a name, a known game and its source are needed")
        out_bots.append(dict(b))
    if len({b["name"] for b in out_bots}) != len(out_bots):
        raise BackupError("duplicate", "two bots of the file have one name")
    for k, val in settings.items():
        if (not k.startswith("atut.") or len(k) > 100 or not isinstance(val, str)
                or len(val) > MAX_TEXT):
            raise BackupError("shape", f"settings: {k[:60]!r} is not a setting of Atut")
    return {"version": v, "made": data.get("made"), "games": out_games, "bots": out_bots,
            "settings": dict(settings)}


def _actions(save: str) -> list:
    return json.loads(save)["actions"]


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
        elif len(a) <= len(b) and b[:len(a)] == a:
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
