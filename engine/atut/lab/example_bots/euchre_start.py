"""A starting bot for euchre: edit me.

The arena calls choose(view) every time it is this bot's turn.  The view (see the help panel,
or print it) is everything your seat may know: your "hand", the "trump", the "trick" being
played, the "log" of this deal and more.  Return one of view["legal_actions"], exactly as it
is listed (a dict such as {"type": "play", "card": "AS"}).
"""

# euchre: in round one you may "order_up" the upcard (view["upcard"]) or "pass", in round
# two "name" a suit; the dealer may have to "discard"; then "alone" / "defend_alone" and the
# card play.  Your partner is view["teams"]: the other seat of your pair.

from atut import botkit


def choose(view):
    legal = view["legal_actions"]
    # botkit.rng(view) is a random number generator seeded from the view: the same position
    # always gives the same choice, so an arena run can be repeated exactly.
    return botkit.rng(view).choice(legal)
