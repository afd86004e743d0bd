"""Helpers for writing your own bot: what students would otherwise rewrite for every game.

Every function takes card codes as the view gives them (``"AS"``, ``"10H"``, ``"PRD"``) and
the view itself, from which it knows the game (``view["game"]``) and the trump.  The trick
rules are the engine's own (``atut.tricks`` and each game's tables: euchre's left bower is a
trump, cesarz's jokers count by their companion), and what a seat knows comes from the same
reading of the view as our bots' (``atut.bots.knowledge``, each game's ``Knowledge``): nothing
here can see a hidden card.

A position of 66 (seat 0 has led the ten of clubs; hearts are trumps):

    >>> import atut
    >>> from atut import botkit
    >>> game = atut.new_game("sixty_six", players=2, seed=7)
    >>> game.apply({"type": "exchange"})
    >>> game.apply({"type": "play", "card": "10C"})
    >>> view = game.view(1)
    >>> view["hand"], view["trump"]
    (['AS', 'AC', 'JC', 'JD', '10H', 'JH'], 'H')
    >>> botkit.cards_of_suit(view["hand"], "C", view)
    ['AC', 'JC']
    >>> botkit.points("10C", view), botkit.points("JC", view)
    (10, 2)
    >>> botkit.beats("AC", "10C", view), botkit.beats("JC", "10C", view)
    (True, False)
    >>> botkit.beats("JH", "10C", view)     # a trump takes a card of another suit
    True
    >>> botkit.current_winner(view)
    {'seat': 0, 'card': '10C'}
    >>> [c for c in botkit.playable_cards(view) if botkit.beats(c, "10C", view)]
    ['AC', '10H', 'JH']
    >>> botkit.played(view)
    ['10C']
    >>> len(botkit.unseen(view)), "10C" in botkit.unseen(view)
    (15, False)
    >>> botkit.voids(view)
    {0: [], 1: []}

Euchre: with clubs trumps, the jack of spades (the left bower) is a club:

    >>> euchre = {"game": "euchre", "trump": "C"}
    >>> botkit.suit("JS", euchre), botkit.suit("AS", euchre)
    ('C', 'S')
    >>> botkit.beats("JS", "AC", euchre), botkit.beats("JC", "JS", euchre)
    (True, True)
    >>> botkit.cards_of_suit(["JS", "AS", "9C"], "C", euchre)
    ['JS', '9C']

The search, for a bot that wants a second opinion (slow: a level-3 decision takes about a
tenth of a second in CPython, several times that in the browser):

    >>> result = botkit.analyse(view)
    >>> result["best"] in view["legal_actions"]
    True
    >>> len(result["actions"]) == len(view["legal_actions"])
    True
"""

from __future__ import annotations

import random
import sys
import zlib

from . import cards as C
from . import tricks
from .game import canonical

__all__ = ["analyse", "beats", "cards_of_suit", "cheapest", "current_winner", "playable_cards",
           "played", "points", "rng", "strength", "suit", "trick_winner", "unseen", "voids"]


def _game(view_or_game) -> str:
    if isinstance(view_or_game, str):
        game = view_or_game
    elif isinstance(view_or_game, dict):
        game = view_or_game.get("game")
    else:
        game = None
    from .games import ids
    if game not in ids():
        raise ValueError(f"not a view of a game (its 'game' is {game!r}); the games are "
                         f"{', '.join(ids())}")
    return game


def _trump(view) -> int | None:
    t = view.get("trump") if isinstance(view, dict) else None
    return C.SUITS.index(t) if t else None


def _spec(game: str):
    from .games import spec
    return spec(game)


def _tables(game: str, trump: int | None):
    """(suit of each card int, power of each card int, points of each card int) for ``game``
    with ``trump``: the game's own tables (``GameSpec.card_tables``, else its module's
    ``POWER`` and ``VALUE``)."""
    sp = _spec(game)
    tables = sp.load("card_tables")
    if tables is not None:
        return tables(trump)
    m = sys.modules[sp.game.__module__]
    return C.SUIT_OF, m.POWER, m.VALUE


def suit(card: str, view: dict) -> str | None:
    """The suit letter ``card`` counts as in this game: euchre's left bower is a trump; a
    cesarz joker or the emperor has none (``None``; a joker played with a companion counts as
    the trick's suit, see ``trick_winner``).

    >>> suit("10H", {"game": "sixty_six", "trump": "S"}), suit("EMPEROR", {"game": "cesarz"})
    ('H', None)
    """
    game = _game(view)
    su, _, _ = _tables(game, _trump(view))
    s = su[C.card(card)]
    return C.SUITS[s] if s >= 0 else None


def strength(card: str, view: dict) -> int:
    """How high ``card`` ranks within the suit it counts as, in this game (the engine's power
    table: higher takes lower; a trump's strength only matters against trumps).

    >>> v = {"game": "sixty_six", "trump": "H"}
    >>> sorted(["KS", "AS", "10S", "9S"], key=lambda c: strength(c, v), reverse=True)
    ['AS', '10S', 'KS', '9S']
    """
    game = _game(view)
    _, power, _ = _tables(game, _trump(view))
    return power[C.card(card)]


def cheapest(cards, view: dict) -> str:
    """The card of ``cards`` that costs least to give away: a non-trump before a trump, then
    fewest points, then lowest strength (ties: the first).

    >>> cheapest(["AS", "9H", "JS", "10C"], {"game": "sixty_six", "trump": "H"})
    'JS'
    """
    if not cards:
        raise ValueError("cheapest of no cards")
    trump = view.get("trump")
    return min(cards, key=lambda c: (suit(c, view) == trump and trump is not None,
                                     points(c, view), strength(c, view)))


def cards_of_suit(cards, suit_letter: str, view: dict) -> list[str]:
    """The cards of ``cards`` that count as ``suit_letter`` (``suit``), in their order."""
    if suit_letter not in tuple(C.SUITS):
        raise ValueError(f"a suit is one of S C D H, not {suit_letter!r}")
    return [c for c in cards if suit(c, view) == suit_letter]


def points(card: str, view) -> int:
    """The card's points in this game (``view`` or a game id): 66 and 1000 A 11, 10 10, K 4,
    Q 3, J 2, 9 0; imperial A 11, K Q J 10 10, others their face; cesarz A 12 ... 9 1, jokers
    and the emperor 0; euchre counts tricks, not card points: 0.

    >>> points("AS", "tysiac1001"), points("KS", "imperial"), points("AS", "euchre")
    (11, 10, 0)
    """
    game = _game(view)
    _, _, value = _tables(game, None)
    return value[C.card(card)]


def beats(card: str, best: str, view: dict, led: str | None = None) -> bool:
    """Whether ``card`` takes a trick whose best card so far is ``best`` (a card of the suit
    led, or a trump): a higher card of the same suit, or a trump on a card that is not one
    (``atut.tricks.beats``).  In cesarz a card of neither the trump nor the suit led (``led``,
    by default ``best``'s suit) never takes the trick (G20)."""
    game = _game(view)
    trump = _trump(view)
    c, b = C.card(card), C.card(best)
    own = _spec(game).load("beats")             # a game with its own trick rule
    if own is not None:
        return own(c, b, trump, C.SUITS.index(led) if led else None)
    su, power, _ = _tables(game, trump)
    return tricks.beats(c, b, trump, power, su)


def _entries(trick):
    if trick is None:
        return []
    out = []
    for e in trick:
        if isinstance(e, dict):
            out.append(e)
        else:                                   # a bare card code
            out.append({"card": e})
    return out


def trick_winner(trick, view: dict):
    """The entry of ``trick`` (a list of ``{"seat", "card", ...}`` as ``view["trick"]``, or of
    bare card codes, in play order) that takes it or holds it so far; ``None`` for an empty
    trick.  Cesarz: an emperor trick goes to the emperor's player (G14.4), a joker counts by its
    companion (G20)."""
    entries = _entries(trick)
    if not entries:
        return None
    game = _game(view)
    trump = _trump(view)
    own = _spec(game).load("trick_winner")      # a game with its own trick rule
    if own is not None:
        return entries[own(entries, trump, view)]
    su, power, _ = _tables(game, trump)
    i = tricks.trick_winner([C.card(e["card"]) for e in entries], trump, power, su)
    return entries[i]


def current_winner(view: dict):
    """``trick_winner(view["trick"], view)``: who holds the trick being played (``None`` when
    no card is down yet)."""
    return trick_winner(view.get("trick") or [], view)


def playable_cards(view: dict) -> list[str]:
    """The cards of the view's ``play`` actions, each once, in their order."""
    out = []
    for a in view.get("legal_actions") or []:
        if a.get("type") == "play" and a["card"] not in out:
            out.append(a["card"])
    return out


def _knowledge(view: dict):
    """The seat's ``bots.knowledge.Knowledge``: its game's own subclass (``bots.<game>``), or
    the shared reading for a game whose plug-in has none."""
    from .bots.interface import plugin
    from .bots.knowledge import Knowledge
    return getattr(plugin(_game(view)), "Knowledge", Knowledge)(view)


def _sorted(mask: int) -> list[str]:
    return C.codes(C.cards_of(mask))


def played(view: dict) -> list[str]:
    """The cards played to tricks in this deal (the view's ``log``), in suit order."""
    return _sorted(_knowledge(view).played)


def unseen(view: dict) -> list[str]:
    """The cards whose place the seat does not know: in no hand it has seen, not played, not
    face up (in suit order S C D H, high to low by the engine's notation)."""
    return _sorted(_knowledge(view).unseen)


def voids(view: dict) -> dict[int, list[str]]:
    """``{seat: [suit letters]}``: the suits each seat has shown it lacks in this deal (by not
    following the suit led, from the view's ``log``).  Your own seat is listed too, from the
    same public record (your hand tells you more)."""
    k = _knowledge(view)
    return {s: [C.SUITS[u] for u in range(4) if k.voids[s] >> u & 1]
            for s in range(len(k.voids))}


def rng(view: dict, seed: int = 0) -> random.Random:
    """A ``random.Random`` seeded from the view and ``seed``: the same view gives the same
    numbers, so a bot's random choices can be replayed (and the arena gives the same report on
    one process, several, or a cluster).

    >>> v = {"game": "euchre", "hand": ["AS"]}
    >>> rng(v).random() == rng(v).random(), rng(v).random() == rng(v, 1).random()
    (True, False)
    """
    return random.Random((seed * 0x9E3779B1) ^ zlib.crc32(canonical(view).encode()))


def analyse(view: dict, level: int = 3, seed: int = 0, budget: dict | None = None) -> dict:
    """``atut.analyse`` for the view's own game: every legal action valued by our search of
    ``level`` (3 or 4), best first, ``["best"]`` being what our bot of that level plays."""
    import atut
    return atut.analyse(_game(view), view, level, seed, budget)
