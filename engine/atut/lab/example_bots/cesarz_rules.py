"""A rule bot for cesarz: never bid, give away little, and take points when it is cheap.

- Bidding: pass.  Handing out: give the cheapest card.
- Card play: declare a meld when one is offered; keep the jokers and the emperor for later
  (play them only when nothing else is left); take the trick with the cheapest winning card
  when it holds 10 points or more, else throw the cheapest card.
"""

from atut import botkit

SPECIAL = ("EMPEROR", "RED_JOKER", "BLACK_JOKER", "BLUE_JOKER")


def choose(view):
    legal = view["legal_actions"]
    kinds = {a["type"] for a in legal}
    if "pass" in kinds:
        return {"type": "pass"}
    if "give" in kinds:
        cheap = botkit.cheapest([a["card"] for a in legal], view)
        return next(a for a in legal if a["card"] == cheap)
    melds = [a for a in legal if "meld" in a]
    if melds:
        return melds[0]
    plain = [a for a in legal if a["card"] not in SPECIAL and "meld" not in a]
    if not plain:                                       # only specials left
        return legal[0]
    cards = [a["card"] for a in plain]
    holder = botkit.current_winner(view)
    if holder is not None and holder["card"] not in SPECIAL:
        winners = [c for c in cards if botkit.beats(c, holder["card"], view, led=view["led"])]
        on_table = sum(botkit.points(e["card"], view) for e in view["trick"])
        if winners and on_table >= 10:
            return play(botkit.cheapest(winners, view))
    return play(botkit.cheapest(cards, view))


def play(card):
    return {"type": "play", "card": card}
