"""A starting bot for 66 (sixty-six): edit me.

The arena calls choose(view) every time it is this bot's turn.  The view (see the help panel,
or print it) is everything your seat may know: your "hand", the "trump", the "trick" being
played, the "log" of this deal and more.  Return one of view["legal_actions"], exactly as it
is listed (a dict such as {"type": "play", "card": "AS"}).
"""

# 66: you may "exchange" the trump 9 for the trump card before you lead, and a king or queen
# led with its partner in hand can declare a marriage ("meld" in the action).

from atut import botkit


def choose(view):
    legal = view["legal_actions"]
    # botkit.rng(view) is a random number generator seeded from the view: the same position
    # always gives the same choice, so an arena run can be repeated exactly.
    return botkit.rng(view).choice(legal)
