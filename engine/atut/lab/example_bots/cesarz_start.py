"""A starting bot for cesarz: edit me.

The arena calls choose(view) every time it is this bot's turn.  The view (see the help panel,
or print it) is everything your seat may know: your "hand", the "trump", the "trick" being
played, the "log" of this deal and more.  Return one of view["legal_actions"], exactly as it
is listed (a dict such as {"type": "play", "card": "AS"}).
"""

# cesarz has jokers and the emperor: a joker is played with a companion card
# ({"type": "play", "card": "RED_JOKER", "companion": "9S"}); the declarer hands out
# cards ("give") and everybody bids ("bid" / "pass").

from atut import botkit


def choose(view):
    legal = view["legal_actions"]
    # botkit.rng(view) is a random number generator seeded from the view: the same position
    # always gives the same choice, so an arena run can be repeated exactly.
    return botkit.rng(view).choice(legal)
