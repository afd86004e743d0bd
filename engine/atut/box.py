"""A bot file in a box of its own: a separate Python process that receives nothing but its
seat's view, as JSON, and answers with an action (``docs/LAB.md``, "Boxes").

    bot = BoxedBot.from_file("mybot.py", time_limit=1.0)
    box = bot.fresh()                         # a process for one seat of one game
    action = box.choose(game.view(seat))      # checked against the view's legal actions
    box.release()                             # back to the bot's idle boxes
    bot.close()

Why a process: a bot run in the engine's own Python can walk ``gc.get_objects()``, stack frames
or ``sys.modules`` to the live game and read every hand.  In a box there is no game: the
process holds the engine's code (a bot may use ``atut.botkit``), the bot's module and the views
it was sent, nothing else.  The engine (in the parent) checks every answer against the legal
actions of its own view and writes the record, so a bot cannot change a result.

What a process protects against, and what it does not:
- it does: reading the parent's memory (the game, the other bots), changing the record, an
  answer that is not a legal action, a decision over its time (the process is killed), a crash,
  an endless recursion or a loop, printing without end (its output goes nowhere), allocating
  until it dies (an address-space limit, ``memory_mb``, where the system has ``resource``);
- it does not: reading files the user may read, opening network connections, starting other
  programs, or using the machine's CPU beyond its decision (it runs with the user's rights).
  For untrusted files on a shared machine run the tournament inside a container or a
  throw-away account.  In the browser each box is a worker in an opaque origin, with no
  network and no storage (``web/box``).

Errors are ``atut.lab.BotError`` with a ``kind``: those of a bot in the same process
(``syntax``, ``load``, ``no_choose``, ``exception``, ``not_dict``, ``illegal``) and the box's
own: ``timeout`` (no answer within ``time_limit`` seconds), ``crash`` (the process ended:
memory, a recursion that broke the interpreter, ``os._exit``), ``protocol`` (it answered
something that is not the box's protocol).  After a ``timeout`` or ``crash`` the process is
gone; the next ``fresh()`` starts another.
"""

from __future__ import annotations

import json
import marshal
import os
import select
import subprocess
import sys
import time

from .lab import BotError, check_action, read_bot_file

__all__ = ["Box", "BoxedBot", "LINE_LIMIT", "answer"]

LINE_LIMIT = 1 << 20            # the longest answer line read from a box (bytes)
START_LIMIT = 30.0              # seconds for a box to start and load the file
OUTPUT_LIMIT = 64 * 1024        # characters of the bot's own printing kept (the rest dropped)

_ENGINE_PATH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The box's program: the protocol keeps private copies of the pipes, and file descriptors 0-2
# go to /dev/null, so a bot's print() (redirected to a capped buffer) cannot reach the parent.
_BOOT = r"""
import sys
sys.path.insert(0, sys.argv[1])
from atut.box import _serve
_serve()
"""


def pin_to_one_cpu(index: int = 0) -> int | None:
    """Keep this process (and the boxes it starts afterwards, which inherit it) on one CPU of
    those it may use, the ``index``-th (modulo their number); the CPU's number, or None where
    the system has no affinity (not Linux).  A box answers a decision in two wake-ups: on one
    CPU each is a plain switch (about 15 us a round trip here), across two CPUs a wake-up of an
    idle core (about 90 us), which more than halves the deals per second of fast bots
    (``python -m atut bench-boxes``).  Our own commands pin themselves (the tournament, its
    worker processes, the benchmark); a library caller decides for itself."""
    try:
        cpus = sorted(os.sched_getaffinity(0))
        cpu = cpus[index % len(cpus)]
        os.sched_setaffinity(0, {cpu})
        return cpu
    except (AttributeError, OSError, ValueError):
        return None


def _limit_memory(mb: int | None) -> None:
    if not mb:
        return
    try:
        import resource
    except ImportError:                               # no such limits on this system
        return
    soft = mb * 1024 * 1024
    try:
        resource.setrlimit(resource.RLIMIT_AS, (soft, soft))
    except (ValueError, OSError):
        pass


class _Capped:
    """sys.stdout/sys.stderr of the bot: keeps the first ``OUTPUT_LIMIT`` characters."""

    def __init__(self):
        self.parts: list[str] = []
        self.size = 0

    def write(self, s) -> int:
        s = str(s)
        if self.size < OUTPUT_LIMIT:
            self.parts.append(s[:OUTPUT_LIMIT - self.size])
        self.size += len(s)
        return len(s)

    def flush(self) -> None:
        pass


def _read_exact(fd: int, n: int) -> bytes:
    parts = []
    while n:
        chunk = os.read(fd, n)
        if not chunk:
            raise EOFError
        parts.append(chunk)
        n -= len(chunk)
    return b"".join(parts)


def answer(state: dict, req: dict) -> dict:
    """One request of the box's protocol answered: ``{"op": "load", "source", "name",
    "memory_mb"}``, ``{"op": "fresh"}``, ``{"op": "reset"}``, ``{"op": "choose", "view"}``
    give ``{"ok": ...}`` or ``{"error": BotError.to_dict()}``.  ``state`` holds the box's bot
    between requests.  The process box (``_serve``) and the browser's box (``web/box``) both
    answer with this; the answer is checked by the engine's side, which trusts none of it."""
    from .lab import StudentBot
    op = req.get("op")
    bot = state.get("bot")
    try:
        if op == "choose":
            try:
                result = bot.module.choose(req["view"])
            except Exception as e:
                raise bot._error(e) from None
            json.dumps(result)                          # not JSON: not_dict below
            return {"ok": result}
        if op == "fresh":
            state["bot"] = bot.fresh()
            return {"ok": True}
        if op == "reset":
            bot.reset()
            return {"ok": True}
        if op == "load":
            _limit_memory(req.get("memory_mb"))
            state["bot"] = StudentBot(req["source"], req["name"])
            return {"ok": True}
        return {"error": {"kind": "protocol", "message": f"unknown op {op!r}"}}
    except BotError as e:
        return {"error": e.to_dict()}
    except MemoryError:
        return {"error": {"kind": "crash", "message": "MemoryError"}}
    except (TypeError, ValueError) as e:                # an answer json cannot write
        return {"error": {"kind": "not_dict", "messages": {
            "en": f"choose returned something that is not JSON: {e}",
            "pl": f"choose zwróciło coś, co nie jest JSON: {e}"}}}


def _serve() -> None:
    """The box's side.  A request is 4 bytes of length and a ``marshal``-ed dict (the parent is
    trusted, and marshal is many times faster than JSON for a view); an answer is one JSON
    line (the parent trusts no byte of it), made by ``answer``.  The bot's ``choose`` gets
    the decoded view itself (no copy needed) and its answer is checked by the parent."""
    import marshal

    rfd, wfd = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    sys.stdout = sys.stderr = _Capped()
    sys.stdin = None
    state: dict = {}

    def send(obj) -> None:
        try:
            data = json.dumps(obj, separators=(",", ":")).encode() + b"\n"
        except (TypeError, ValueError) as e:
            data = json.dumps({"error": {"kind": "not_dict", "messages": {
                "en": f"choose returned something that is not JSON: {e}",
                "pl": f"choose zwróciło coś, co nie jest JSON: {e}"}}}).encode() + b"\n"
        while data:
            data = data[os.write(wfd, data):]

    while True:
        try:
            size = int.from_bytes(_read_exact(rfd, 4), "little")
            req = marshal.loads(_read_exact(rfd, size))
        except EOFError:
            return
        send(answer(state, req))


def _box_error(kind: str, name: str, en: str, pl: str) -> BotError:
    return BotError(kind, name, en, pl)


def _from_dict(d: dict, name: str) -> BotError:
    """A BotError from a box's answer (its texts are the box's, its kind checked)."""
    kind = d.get("kind")
    msgs = d.get("messages") or {}
    prefix = f"{name}: "
    en = str(msgs.get("en") or d.get("message") or kind)
    pl = str(msgs.get("pl") or en)
    en = en[len(prefix):] if en.startswith(prefix) else en
    pl = pl[len(prefix):] if pl.startswith(prefix) else pl
    if kind == "crash":
        return _box_error("crash", name, f"the bot's process ran out of memory ({en})",
                          f"procesowi bota zabrakło pamięci ({pl})")
    if kind not in ("syntax", "load", "no_choose", "exception", "not_dict", "illegal"):
        return _box_error("protocol", name, f"the box answered {kind!r}: {en}",
                          f"pudełko odpowiedziało {kind!r}: {pl}")
    line = d.get("line") if isinstance(d.get("line"), int) else None
    return BotError(kind, name, en, pl, line=line, tb=str(d.get("traceback") or ""))


class Box:
    """One process holding one namespace of the bot at a time: ``choose(view)`` sends the view
    and returns the legal action of *this* view that the answer names (``BotError``
    otherwise).  ``stats`` counts ``decisions``, their wall ``seconds`` and the longest.
    ``release()`` hands the process back to its ``BoxedBot`` for another seat or game."""

    def __init__(self, owner: BoxedBot):
        self.owner = owner
        self.name = owner.name
        self.stats = {"decisions": 0, "seconds": 0.0, "max_seconds": 0.0}
        self._proc: subprocess.Popen | None = None

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def _start(self) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, "-I", "-c", _BOOT, _ENGINE_PATH],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            close_fds=True, env={"PYTHONHASHSEED": "0", "PYTHONIOENCODING": "utf-8"})
        o = self.owner
        self._request({"op": "load", "source": o.source, "name": o.name,
                       "memory_mb": o.memory_mb}, START_LIMIT)

    def kill(self) -> None:
        p, self._proc = self._proc, None
        if p is not None:
            try:
                p.kill()
            except OSError:
                pass
            p.wait()
            for f in (p.stdin, p.stdout):
                try:
                    f.close()
                except OSError:
                    pass

    def _request(self, req: dict, limit: float | None):
        p = self._proc
        data = marshal.dumps(req)
        data = len(data).to_bytes(4, "little") + data
        try:
            while data:
                data = data[os.write(p.stdin.fileno(), data):]
        except OSError:
            self.kill()
            raise _box_error("crash", self.name, "the bot's process has ended",
                             "proces bota się zakończył") from None
        deadline = None if limit is None else time.monotonic() + limit
        while True:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([p.stdout], [], [], wait)
            if ready:
                break
            if deadline is not None and time.monotonic() >= deadline:
                self.kill()
                raise _box_error("timeout", self.name, f"no answer within {limit:g} s",
                                 f"brak odpowiedzi w ciągu {limit:g} s")
        line = p.stdout.readline(LINE_LIMIT)
        if not line:
            code = p.wait()
            self.kill()
            raise _box_error("crash", self.name,
                             f"the bot's process ended (exit code {code})",
                             f"proces bota się zakończył (kod wyjścia {code})")
        try:
            reply = json.loads(line)
            if not isinstance(reply, dict):
                raise ValueError
        except ValueError:
            self.kill()
            raise _box_error("protocol", self.name, "the box's answer is not JSON",
                             "odpowiedź pudełka nie jest w JSON") from None
        if "error" in reply:
            err = reply["error"]
            e = _from_dict(err if isinstance(err, dict) else {}, self.name)
            if e.kind in ("crash", "protocol"):
                self.kill()
            raise e
        return reply.get("ok")

    def fresh(self) -> Box:
        """A new namespace of the bot in this process (a new process if it has ended)."""
        if self.alive:
            self._request({"op": "fresh"}, START_LIMIT)
        else:
            self.kill()
            self._start()
        return self

    def reset(self) -> None:
        self._request({"op": "reset"}, self.owner.time_limit)

    def ask(self, view: dict):
        """The box's answer to ``view``, as it came (not yet checked: ``choose`` checks)."""
        if self._proc is None:
            raise _box_error("crash", self.name, "the bot's process has ended",
                             "proces bota się zakończył")
        t0 = time.perf_counter()
        try:
            return self._request({"op": "choose", "view": view}, self.owner.time_limit)
        finally:
            dt = time.perf_counter() - t0
            self.stats["decisions"] += 1
            self.stats["seconds"] += dt
            self.stats["max_seconds"] = max(self.stats["max_seconds"], dt)

    def choose(self, view: dict) -> dict:
        """The legal action of ``view`` that the box's answer names (``BotError`` otherwise)."""
        return check_action(view, self.ask(view), self.name)

    def release(self) -> None:
        """Back to the owner's idle boxes (a dead process is dropped)."""
        if self.alive:
            self.owner._idle.append(self)
        else:
            self.kill()

    def __del__(self):
        try:
            self.kill()
        except Exception:
            pass


class BoxedBot:
    """A bot file played in boxes (see the module's docstring): the entry the arena and the
    tournament seat.  ``fresh()`` is a ``Box`` for one seat of one game: an idle process given a
    new namespace, or a new process; two seats of one game never share a process.  ``load()``
    starts one box now, so that a file that cannot be a bot is named at once (``BotError``:
    ``syntax``, ``load``, ``no_choose``).  Pickled as its source and limits."""

    def __init__(self, source: str, name: str = "mybot.py", time_limit: float | None = None,
                 memory_mb: int | None = 512):
        if not isinstance(source, str):
            raise TypeError("the bot's source must be a str")
        self.source = source
        self.name = name
        self.time_limit = time_limit
        self.memory_mb = memory_mb
        self._idle: list[Box] = []

    @classmethod
    def from_file(cls, path, **kw) -> BoxedBot:
        return cls(*read_bot_file(path), **kw)

    def load(self) -> BoxedBot:
        box = Box(self)
        try:
            box._start()
        except BotError:
            box.kill()
            raise
        self._idle.append(box)
        return self

    def fresh(self) -> Box:
        while self._idle:
            box = self._idle.pop()
            if box.alive:
                return box.fresh()
            box.kill()
        box = Box(self)
        box._start()
        return box

    def close(self) -> None:
        while self._idle:
            self._idle.pop().kill()

    def __enter__(self) -> BoxedBot:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __reduce__(self):
        return (BoxedBot, (self.source, self.name, self.time_limit, self.memory_mb))

    def __repr__(self):
        return f"BoxedBot({self.name!r})"
