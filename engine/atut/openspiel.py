"""The five games as OpenSpiel games, and an IS-MCTS seat for the arena (``docs/OPENSPIEL.md``).

Optional: needs ``open-spiel`` (``pip install .[openspiel]``); ``pyspiel`` is imported only
when a function here is called, so the wheel stays standard-library only.

    >>> from atut import openspiel                           # doctest: +SKIP
    >>> openspiel.register()                                 # doctest: +SKIP
    >>> import pyspiel                                       # doctest: +SKIP
    >>> game = pyspiel.load_game("atut_euchre", {"redeal": True})   # doctest: +SKIP

Games ``atut_<game>`` with parameters ``players``, every rule option of the game class's
``OPTIONS``, ``match`` (false: one deal, like OpenSpiel's euchre; true: the whole game) and
``dealer`` (-1: drawn by chance).

Chance: in match mode first a seed (``SEED_OUTCOMES`` uniform outcomes: the engine's RNG, which
shuffles every later deal), then the dealer (uniform over the seats, unless ``dealer`` fixes it),
then the first deal's deck card by card (outcome = the card's int, ``atut.cards``, uniform over
the cards not drawn yet).  The complete deck is given to the game class as its first deck; each
game's ``_deal`` maps deck positions to hands, and every order is equally likely.

Actions: a fixed table per game and player count (``action_table``): every action dict the game
can produce, as canonical JSON, sorted; an action id is its index.

Returns: the score change of each seat over the deal (one-deal mode) or the win indicator (match
mode), as a margin: a seat's value minus the mean value of the seats not on its side (euchre:
the other pair; otherwise every other seat).  The margins add up to zero (ZERO_SUM); for a
2-player game it is the plain difference, for euchre exactly OpenSpiel's euchre returns.
"""

from __future__ import annotations

import copy
import json
import random
import time
import zlib

import atut

from . import cards as C
from .game import canonical

SEED_OUTCOMES = 1024
PREFIX = "atut_"
_registered: dict = {}
_specs: dict = {}
_one_deal: dict = {}


def _pyspiel():
    try:
        import pyspiel
    except ImportError as e:                                 # pragma: no cover
        raise ImportError("atut.openspiel needs open-spiel: pip install 'atut[openspiel]'") from e
    return pyspiel


# --- the action tables ------------------------------------------------------------------------

def action_table(game_id: str, players: int) -> list[str]:
    """Every action dict ``game_id`` can produce with ``players`` players, as canonical JSON,
    sorted (the action id is the index): the card plays and the game's ``GameSpec.actions``;
    a test checks that random games never meet an action outside it."""
    spec = atut.games.spec(game_id)
    deck = sorted(spec.game.deck_for(players))
    out: list[dict] = [{"type": "play", "card": C.CODES[c]} for c in deck]
    extra = spec.load("actions")               # the game's other actions (GameSpec.actions)
    if extra is not None:
        out += extra(players)
    table = sorted({canonical(a) for a in out})
    return table


# --- one deal: a game class that stops where the next deal would start -------------------------

def _one_deal_class(cls):
    """``cls`` whose next deal does not start: ``to_move`` becomes ``None`` with the finished
    deal's scores (one-deal mode).  Module-level, so that pickle finds it."""
    sub = _one_deal.get(cls)
    if sub is None:
        def _deal(self, deck, _base=cls._deal):
            if self.deal_no >= 1:                      # the first deal is dealt in _start
                self.to_move = None
                self._cache = None
                return
            _base(self, deck)
        name = f"OneDeal{cls.__name__}"
        sub = type(name, (cls,), {"_deal": _deal, "__module__": __name__, "__qualname__": name})
        globals()[name] = sub
        _one_deal[cls] = sub
    return sub


def _copy_game(g, rng: bool):
    """A copy of an atut game that keeps its event record (``Game.clone`` drops it): the search's
    ``fast_clone`` (lists and dicts one level down), with the RNG copied when it still matters."""
    from .bots.search import fast_clone
    new = fast_clone(g)
    if rng:
        r = random.Random()
        r.setstate(g.rng.getstate())
        new.rng = r
    return new


# --- game parameters --------------------------------------------------------------------------

class _Spec:
    """One parameter set of a game: the atut class, the action table and the bounds."""

    def __init__(self, game_id, players, options, match, dealer):
        self.game_id = game_id
        self.cls = atut.game_class(game_id)
        self.players = players
        self.options = self.cls.check_options(options)
        self.match = match
        self.dealer = dealer
        self.play_cls = self.cls if match else _one_deal_class(self.cls)
        self.deck = sorted(self.cls.deck_for(players))
        self.table = action_table(game_id, players)
        self.index = {k: i for i, k in enumerate(self.table)}
        self.key_index = {tuple(sorted(a.items())): i for i, a in
                          enumerate(json.loads(k) for k in self.table)}
        self.actions = [json.loads(k) for k in self.table]
        self.partners = atut.games.spec(game_id).partners
        self.bound = 1.0 if match else float(atut.games.spec(game_id).deal_bound)
        self.key = (game_id, players, tuple(sorted(self.options.items())), match, dealer)

    def sides(self, seat):
        if self.partners:                       # a side of seats of one parity
            return [s for s in range(self.players) if (s - seat) & 1]
        return [s for s in range(self.players) if s != seat]

    def margins(self, values):
        return [values[s] - sum(values[o] for o in self.sides(s)) / len(self.sides(s))
                for s in range(self.players)]

    def __reduce__(self):
        return (_spec, self.key[:2] + (dict(self.key[2]),) + self.key[3:])


def _spec(game_id, players, options, match, dealer) -> _Spec:
    key = (game_id, players, tuple(sorted(_check_opts(game_id, options).items())), match, dealer)
    s = _specs.get(key)
    if s is None:
        s = _specs[key] = _Spec(game_id, players, options, match, dealer)
    return s


def _check_opts(game_id, options):
    return atut.game_class(game_id).check_options(options)


# --- the state's contents ---------------------------------------------------------------------

class _Inner:
    """Everything a state holds, in one object, so that pyspiel's clone (a deep copy of the
    state's ``__dict__``) costs one game copy (``__deepcopy__``)."""

    __slots__ = ("spec", "seed", "dealer", "drawn", "g", "start_scores", "start_deal", "done",
                 "enc", "info")

    def __init__(self, spec):
        self.spec = spec
        self.seed = None if spec.match else 0
        self.dealer = None if spec.dealer < 0 else spec.dealer
        self.drawn: list[int] = []
        self.g = None
        self.start_scores = [0] * spec.players
        self.start_deal = 1
        self.done = False
        self.enc: list = []          # (visible_to, canonical JSON) of g.events[i], made lazily
        self.info: dict = {}         # information state strings of this state, per seat

    def __deepcopy__(self, memo):
        new = object.__new__(_Inner)
        new.spec = self.spec
        new.seed = self.seed
        new.dealer = self.dealer
        new.drawn = list(self.drawn)
        new.g = None if self.g is None else _copy_game(self.g, self.spec.match)
        new.start_scores = self.start_scores
        new.start_deal = self.start_deal
        new.done = self.done
        new.enc = list(self.enc)
        new.info = dict(self.info)
        return new

    def __getstate__(self):
        return {k: getattr(self, k) for k in self.__slots__ if k not in ("enc", "info")}

    def __setstate__(self, d):
        self.enc = []
        self.info = {}
        for k, v in d.items():
            setattr(self, k, v)

    # chance
    def chance_kind(self):
        if self.seed is None:
            return "seed"
        if self.dealer is None:
            return "dealer"
        return "card"

    def chance_outcomes(self):
        kind = self.chance_kind()
        if kind == "seed":
            return [(i, 1.0 / SEED_OUTCOMES) for i in range(SEED_OUTCOMES)]
        if kind == "dealer":
            n = self.spec.players
            return [(s, 1.0 / n) for s in range(n)]
        left = [c for c in self.spec.deck if c not in self.drawn]
        return [(c, 1.0 / len(left)) for c in left]

    def apply_chance(self, a):
        kind = self.chance_kind()
        if kind == "seed":
            self.seed = a
            return
        if kind == "dealer":
            self.dealer = a
            return
        self.drawn.append(a)
        if len(self.drawn) == len(self.spec.deck):
            sp = self.spec
            g = sp.play_cls(players=sp.players, seed=self.seed, dealer=self.dealer,
                            deck=C.codes(self.drawn), options=sp.options)
            self.g = g
            self.start_deal = g.deal_no
            self.done = g.is_over

    # decisions
    def legal_ids(self):
        index = self.spec.key_index
        return sorted(index[tuple(sorted(a.items()))] for a in self.g._legal_now())

    def apply_action(self, a):
        g = self.g
        g.apply(dict(self.spec.actions[a]))
        self.done = g.is_over
        self.info = {}

    def values(self):
        g = self.g
        if self.spec.match:
            w = g.winner
            ws = set(w) if isinstance(w, (list, tuple)) else {w}
            return [1.0 if s in ws else 0.0 for s in range(g.n)]
        return [float(g.scores[s] - self.start_scores[s]) for s in range(g.n)]

    def returns(self):
        if not self.done:
            return [0.0] * self.spec.players
        return self.spec.margins(self.values())

    # what a seat knows
    def observation(self, p):
        """The view of seat ``p`` without its log, as canonical JSON."""
        if self.g is None:
            return canonical({"seat": p, "dealer": self.dealer, "drawn": len(self.drawn)})
        return canonical(view_without_log(self.g, p))

    def sync(self):
        """Encode the events recorded since the last call (the record only grows)."""
        ev = self.g.events
        enc = self.enc
        for e in ev[len(enc):]:
            enc.append((e.get("visible_to"),
                        canonical({k: v for k, v in e.items() if k != "visible_to"})))

    def information(self, p):
        """Seat ``p``'s view without its log, then every event ``p`` saw since the start of
        the OpenSpiel game (the views' logs of the deal, or of every deal in match mode):
        the same information as its view and those of earlier deals, with perfect recall."""
        s = self.info.get(p)
        if s is not None:
            return s
        if self.g is None:
            s = self.observation(p)
        else:
            self.sync()
            seen = [t for vis, t in self.enc if vis is None or p in vis]
            s = self.observation(p) + "|[" + ",".join(seen) + "]"
        self.info[p] = s
        return s


def view_without_log(g, seat):
    """``g.view(seat)`` without its ``log`` (built without copying the log; a test checks the
    two agree)."""
    v = {"game": g.GAME_ID, "players": g.n, "seat": seat, "phase": g.phase,
         "deal_no": g.deal_no, "dealer": g.dealer, "to_move": g.to_move,
         "scores": list(g.scores), "is_over": g.is_over, "winner": g.winner,
         "options": dict(g.options), "hand": [], "trump": None}
    g._view(v, seat)
    if seat is not None and seat == g.to_move:
        v["legal_actions"] = g.legal_actions()
    return v


# --- registration -----------------------------------------------------------------------------

def register() -> list[str]:
    """Register ``atut_<game>`` with pyspiel for every game (``atut.games.ids()``, each once:
    a game registered with ``atut.games.register`` later joins on the next call); the short
    names."""
    pyspiel = _pyspiel()
    for gid in atut.games.ids():
        if PREFIX + gid in _registered:
            continue
        cls = atut.game_class(gid)
        params = {"players": cls.PLAYERS[0], "match": False, "dealer": -1}
        for k, vals in cls.OPTIONS.items():
            params[k] = vals[0]
        gt = pyspiel.GameType(
            short_name=PREFIX + gid, long_name=f"Atut {gid}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.ZERO_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=max(cls.PLAYERS), min_num_players=min(cls.PLAYERS),
            provides_information_state_string=True, provides_information_state_tensor=False,
            provides_observation_string=True, provides_observation_tensor=False,
            parameter_specification=params)
        game_cls = _make_game_class(pyspiel, gid, gt)
        pyspiel.register_game(gt, game_cls)
        _registered[PREFIX + gid] = game_cls
    return list(_registered)


def _make_game_class(pyspiel, gid, gt):
    class AtutGame(pyspiel.Game):
        GAME_ID = gid

        def __init__(self, params=None):
            p = dict(params or {})
            cls = atut.game_class(gid)
            players = int(p.get("players", cls.PLAYERS[0]))
            match = bool(p.get("match", False))
            dealer = int(p.get("dealer", -1))
            if players not in cls.PLAYERS:
                raise ValueError(f"{gid} is played by {cls.PLAYERS} players, not {players}")
            if not -1 <= dealer < players:
                raise ValueError(f"dealer must be -1 or a seat below {players}, not {dealer}")
            options = {k: p[k] for k in cls.OPTIONS if k in p}
            spec = _spec(gid, players, options, match, dealer)
            self.spec = spec
            deck = len(spec.deck)
            info = pyspiel.GameInfo(
                num_distinct_actions=len(spec.table),
                max_chance_outcomes=max(48, players, SEED_OUTCOMES if match else 0),
                num_players=players, min_utility=-spec.bound, max_utility=spec.bound,
                utility_sum=0.0,
                max_game_length=(10 ** 6 if match else deck + 2 + 2000))
            full = {"players": players, "match": match, "dealer": dealer, **spec.options}
            super().__init__(gt, info, full)

        def new_initial_state(self):
            return _new_state(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return _Observer(iig_obs_type, params)

    AtutGame.__name__ = AtutGame.__qualname__ = f"AtutGame_{gid}"
    return AtutGame


class _Observer:
    """Strings only (no tensors): the information state (perfect recall) or the observation."""

    def __init__(self, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        self.tensor = None
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        x = state._x
        return x.information(player) if self.perfect_recall else x.observation(player)


def _state_class():
    pyspiel = _pyspiel()
    global AtutState
    if AtutState is not None:
        return AtutState

    class _AtutState(pyspiel.State):
        """An OpenSpiel state around an atut game (``_x``: ``_Inner``)."""

        def __init__(self, game):
            super().__init__(game)
            self._x = _Inner(game.spec)

        def current_player(self):
            x = self._x
            if x.done:
                return pyspiel.PlayerId.TERMINAL
            if x.g is None:
                return pyspiel.PlayerId.CHANCE
            return x.g.to_move

        def is_terminal(self):
            return self._x.done

        def _legal_actions(self, player):
            return self._x.legal_ids()

        def chance_outcomes(self):
            return self._x.chance_outcomes()

        def _apply_action(self, action):
            x = self._x
            if x.g is None:
                x.apply_chance(int(action))
            else:
                x.apply_action(int(action))

        def _action_to_string(self, player, action):
            if player == pyspiel.PlayerId.CHANCE:
                kind = self._x.chance_kind()
                if kind == "card":
                    return "deal " + C.CODES[action]
                return f"{kind} {action}"
            return self._x.spec.table[action]

        def returns(self):
            return self._x.returns()

        def resample_from_infostate(self, player_id, probability_sampler):
            return resample(self, player_id, random.Random(int(probability_sampler() * 2 ** 53)))

        def atut_game(self):
            """The atut game inside (``None`` while the deck is being drawn): for tests."""
            return self._x.g

        def __str__(self):
            x = self._x
            if x.g is None:
                return canonical({"seed": x.seed, "dealer": x.dealer,
                                  "drawn": C.codes(x.drawn)})
            g = x.g
            v = g.view(None)
            v["hands"] = [g.view(s)["hand"] for s in range(g.n)]
            return canonical(v)

    _AtutState.__name__ = _AtutState.__qualname__ = "AtutState"
    AtutState = _AtutState
    globals()["AtutState"] = _AtutState
    return _AtutState


AtutState = None


def __getattr__(name):
    # pickle looks the one-deal classes up by name: build one on first use
    if name.startswith("OneDeal"):
        for gid in atut.games.ids():
            cls = atut.game_class(gid)
            if name == f"OneDeal{cls.__name__}":
                return _one_deal_class(cls)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _new_state(game):
    return _state_class()(game)


# --- resampling and states from a view ---------------------------------------------------------

def _from_game(ps_game, g, start_scores):
    st = _new_state(ps_game)
    x = st._x
    x.seed = 0
    x.dealer = g.dealer
    x.drawn = []
    x.g = g
    x.start_scores = list(start_scores)
    x.start_deal = g.deal_no
    x.done = g.is_over
    return st


def _determinize(spec, view, rng):
    from .bots.interface import hooks, plugin
    h = hooks(plugin(spec.game_id))
    g = h.determinize(view, rng)
    if not spec.match:
        g.__class__ = spec.play_cls
    g._recording = True
    g._cache = None
    return g


def resample(state, player: int, rng: random.Random):
    """A state consistent with everything ``player`` has seen in ``state`` (the bots'
    determinization, ``bots/<game>.py``), with its hidden cards dealt at random: ``player``'s
    view and information state are the same.  The event record keeps only the events
    ``player`` saw (what the others saw privately in the real deal is not theirs in the new
    one); the OpenSpiel history of the new state is empty."""
    x = state._x
    spec = x.spec
    if x.done:
        return state.clone()
    if x.g is None:                                  # still drawing: nothing seen but counts
        st = _new_state(state.get_game())
        y = st._x
        y.seed = x.seed if x.seed is None else rng.randrange(SEED_OUTCOMES)
        y.dealer = x.dealer
        left = [c for c in spec.deck]
        rng.shuffle(left)
        y.drawn = left[:len(x.drawn)]
        return st
    g = x.g
    view = g.view(player)
    sg = _determinize(spec, view, rng)
    for f in atut.games.spec(spec.game_id).keep_public:
        setattr(sg, f, copy.deepcopy(getattr(g, f)))
    cut = g._deal_event
    kept_before = 0
    events = []
    enc = []
    x.sync()
    for i, e in enumerate(g.events):
        vis = e.get("visible_to")
        if vis is None or player in vis:
            events.append(e)
            enc.append(x.enc[i])
            if i < cut:
                kept_before += 1
    sg.events = events
    sg._deal_event = kept_before
    sg.history = _seen_actions(events)
    st = _from_game(state.get_game(), sg, x.start_scores)
    st._x.enc = enc
    return st


def state_from_view(ps_game, view: dict, rng: random.Random):
    """An OpenSpiel state of ``ps_game`` for the seat of ``view`` (to move), built from a
    sampled determinization of the view, never from the real hidden cards.  Its event record
    is the view's log, seen by that seat only."""
    spec = ps_game.spec
    seat = view["seat"]
    sg = _determinize(spec, view, rng)
    events = []
    for e in view.get("log", []):
        e = dict(e)
        e["visible_to"] = [seat]
        events.append(e)
    sg.events = events
    sg._deal_event = 0
    sg.history = _seen_actions(events)
    return _from_game(ps_game, sg, view["scores"])


def _seen_actions(events):
    """The actions among ``events`` (those the seat saw): the sampled game's ``history``, which
    a view may read (66 marks a marriage lead in the last trick from it)."""
    return [dict(e["action"]) for e in events if e.get("type") == "action"]


# --- the IS-MCTS seat -------------------------------------------------------------------------

class _RandomRollouts:
    """OpenSpiel's evaluator interface (``evaluate``, ``prior``): one random rollout, each
    step a uniformly random legal action, to the end of the deal (the game, in match mode),
    run on the atut game inside the state without recording events - the same as OpenSpiel's
    ``RandomRolloutEvaluator(n_rollouts=1)``, without a pyspiel call per step."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def evaluate(self, state):
        import numpy as np
        x = state._x
        if x.done:
            return np.array(x.returns())
        g = _copy_game(x.g, x.spec.match)
        g._recording = False
        choice = self.rng.choice
        steps = 0
        while g.to_move is not None:
            g._cache = None
            g._apply(choice(g._legal()))
            steps += 1
            if steps > 100_000:
                raise RuntimeError("rollout does not end")
        y = object.__new__(_Inner)
        y.spec, y.g, y.start_scores, y.done = x.spec, g, x.start_scores, True
        return np.array(y.returns())

    def prior(self, state):
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class ISMCTSSeat:
    """A bot (``choose(view)``) that plays by OpenSpiel's IS-MCTS with random rollouts.

    Each decision builds an OpenSpiel state from a sampled determinization of the view
    (``state_from_view``), runs ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (OpenSpiel's
    port of its C++ ``ISMCTSBot``; the C++ bots crash on Python-defined games in open-spiel
    2.0.2, docs/OPENSPIEL.md) for ``simulations`` simulations, each from a fresh resampling
    (``resample``), and maps the chosen action back.  Seeded: the RNGs of a decision are a
    function of ``seed`` and the view only.  ``game_id`` ``None``: the game, its player count
    and options are taken from the first view."""

    def __init__(self, game_id=None, simulations=1000, seed=0, players=None, options=None,
                 uct_c=None, evaluator="fast"):
        if isinstance(simulations, bool) or not isinstance(simulations, int) or simulations < 1:
            raise ValueError(f"IS-MCTS simulations must be a positive integer, not "
                             f"{simulations!r}")
        if evaluator not in ("fast", "openspiel"):
            raise ValueError(f"evaluator must be 'fast' or 'openspiel', not {evaluator!r}")
        self.game_id = game_id
        self.simulations = simulations
        self.seed = seed
        self.players = players
        self.options = options
        self.uct_c = uct_c
        self.evaluator = evaluator
        self.name = f"ismcts:{simulations}"
        self.game = None
        self.stats: dict = {}
        if game_id is not None:
            cls = atut.game_class(game_id)
            self._load(players or cls.PLAYERS[0], cls.check_options(options))

    def _load(self, players, options):
        register()
        self.game = _pyspiel().load_game(PREFIX + self.game_id, {"players": players, **options})

    def choose(self, view: dict) -> dict:
        import numpy as np
        from open_spiel.python.algorithms import ismcts
        legal = view.get("legal_actions") or []
        if not legal:
            raise ValueError("the view has no legal actions: this seat is not to move")
        if len(legal) == 1:
            return legal[0]
        if self.game_id is None:
            self.game_id = view["game"]
        elif view.get("game") not in (None, self.game_id):
            raise ValueError(f"this bot plays {self.game_id}, not {view.get('game')!r}")
        sp = self.game.spec if self.game is not None else None
        if sp is None or sp.players != view["players"] or sp.options != view["options"]:
            self._load(view["players"], view["options"])
        game = self.game
        t0 = time.process_time()
        rng = random.Random((self.seed * 0x9E3779B1) ^ zlib.crc32(canonical(view).encode()))
        state = state_from_view(game, view, rng)
        if self.evaluator == "fast":
            ev = _RandomRollouts(random.Random(rng.getrandbits(64)))
        else:                                        # OpenSpiel's own, through pyspiel
            from open_spiel.python.algorithms import mcts
            ev = mcts.RandomRolloutEvaluator(1, np.random.RandomState(rng.getrandbits(32)))
        uct_c = atut.games.spec(self.game_id).uct_c if self.uct_c is None else self.uct_c
        bot = ismcts.ISMCTSBot(game, ev, uct_c, self.simulations,
                               random_state=np.random.RandomState(rng.getrandbits(32)),
                               final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        rs = random.Random(rng.getrandbits(64))
        bot.set_resampler(lambda st, p: resample(st, p, rs))
        a = int(bot.step(state))
        st = self.stats
        st["decisions"] = st.get("decisions", 0) + 1
        st["seconds"] = st.get("seconds", 0.0) + time.process_time() - t0
        key = game.spec.table[a]
        for x in legal:
            if canonical(x) == key:
                return x
        raise ValueError(f"IS-MCTS chose {key}, not a legal action of the view")


def ismcts_bot(game_id, simulations=1000, seed=0, players=None, options=None, **kw):
    """An IS-MCTS seat (``ISMCTSSeat``) for ``game_id``."""
    return ISMCTSSeat(game_id, simulations, seed, players, options, **kw)


class ISMCTSSpec:
    """The arena's ``ismcts:N`` entry: a picklable zero-argument factory of ``ISMCTSSeat``
    (the game is taken from the first view; ``seed`` 0 and the view seed every decision, so
    a run is repeatable for the arena's seed, which makes the deals)."""

    def __init__(self, simulations: int, seed: int = 0):
        self.simulations = simulations
        self.seed = seed
        self.name = f"ismcts:{simulations}"
        ISMCTSSeat(None, simulations, seed)              # checks the arguments

    def __call__(self):
        return ISMCTSSeat(None, self.simulations, self.seed)


def ismcts_spec(text: str) -> ISMCTSSpec:
    """``"ismcts:N"`` (N simulations a decision, a positive integer) as an arena entry."""
    head, _, n = text.strip().partition(":")
    if head != "ismcts" or not n.strip().isdigit() or int(n) < 1:
        raise ValueError(f"an IS-MCTS bot is ismcts:N with N simulations (N >= 1), "
                         f"not {text!r}")
    return ISMCTSSpec(int(n))


__all__ = ["register", "action_table", "resample", "state_from_view", "view_without_log",
           "ismcts_bot", "ismcts_spec", "ISMCTSSeat", "ISMCTSSpec", "SEED_OUTCOMES"]


# --- the yardstick: the arena with each side's time per decision -------------------------------

class _Timed:
    """A bot that counts the CPU time and number of its searched decisions (more than one
    legal action)."""

    def __init__(self, bot, clock):
        self.bot = bot
        self.clock = clock

    def __getattr__(self, name):                      # budget, stats ...: the bot's
        return getattr(self.__dict__["bot"], name)

    def choose(self, view):
        if len(view.get("legal_actions") or ()) < 2:
            return self.bot.choose(view)
        t = time.process_time()
        a = self.bot.choose(view)
        c = self.clock
        c[0] += time.process_time() - t
        c[1] += 1
        return a


def yardstick(argv=None) -> int:
    """``python -m atut.openspiel yardstick GAME --bots 3,ismcts:1000 --deals N --seed S
    [--players P]``: ``atut.arena.run`` as ``python -m atut arena`` plays it (the same deals,
    bots and report), with the CPU seconds per decision of each entry (decisions with more
    than one legal action), printed after every deal (the first k deals are those of a run
    with ``--deals k``)."""
    import argparse
    import sys

    from . import arena
    from .bots import make_bot
    p = argparse.ArgumentParser(prog="python -m atut.openspiel yardstick")
    p.add_argument("game")
    p.add_argument("--bots", required=True)
    p.add_argument("--players", type=int)
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    names = a.bots.split(",")
    clocks = {}

    def timed_make_bot(game_id, level, seed=0, budget=None, strict=False):
        c = clocks.setdefault(str(level), [0.0, 0])
        return _Timed(make_bot(game_id, level, seed=seed, budget=budget, strict=strict), c)

    class TimedSpec:
        def __init__(self, spec, c):
            self.spec, self.c, self.name = spec, c, spec.name

        def __call__(self):
            return _Timed(self.spec(), self.c)

    entries = []
    for x in names:
        spec = arena.bot_spec(x)
        if isinstance(spec, ISMCTSSpec):
            spec = TimedSpec(spec, clocks.setdefault(spec.name, [0.0, 0]))
        entries.append(spec)
    def show(done, total, r):
        # after every deal: the first ``done`` deals are those of a run with --deals done
        print(f"--- {done}/{total} deals", file=sys.stderr)
        print(arena.report(r))
        for k, (sec, n) in clocks.items():
            print(f"{k}: {n} decisions, {sec / max(n, 1):.3f} CPU s a decision")
        sys.stdout.flush()

    arena.make_bot = timed_make_bot
    try:
        arena.run(a.game, entries, players=a.players, deals=a.deals, seed=a.seed,
                  progress=show)
    finally:
        arena.make_bot = make_bot
    return 0


if __name__ == "__main__":                                   # pragma: no cover
    import sys

    # the module itself, not __main__'s copy
    from atut.openspiel import yardstick as _run
    if sys.argv[1:2] == ["yardstick"]:
        sys.exit(_run(sys.argv[2:]))
    sys.exit("usage: python -m atut.openspiel yardstick GAME --bots 3,ismcts:1000 --deals N")
