"""A rule bot for euchre: count trumps to call, then plain partnership play.

- Round one: order up the upcard when you would hold three trumps (the bowers count).
- Round two: name the suit you hold most of, with three or more; else pass (if you may).
- Discard the cheapest card; never go alone, never defend alone.
- Card play: if your partner holds the trick, throw the cheapest card; else win it with the
  cheapest winning card, or throw the cheapest.
"""

from atut import botkit


def trumps_if(suit, view):
    as_trump = dict(view, trump=suit)                   # the same view, as if suit were trump
    return len(botkit.cards_of_suit(view["hand"], suit, as_trump))


def choose(view):
    legal = view["legal_actions"]
    kinds = {a["type"] for a in legal}
    if "order_up" in kinds:
        up = botkit.suit(view["upcard"], view)
        want = trumps_if(up, view) + (1 if view["dealer"] == view["seat"] else 0)
        return {"type": "order_up"} if want >= 3 else {"type": "pass"}
    if "name" in kinds:
        names = [a for a in legal if a["type"] == "name"]
        best = max(names, key=lambda a: trumps_if(a["suit"], view))
        if trumps_if(best["suit"], view) >= 3 or "pass" not in kinds:
            return best
        return {"type": "pass"}
    if "discard" in kinds:
        cheap = botkit.cheapest([a["card"] for a in legal], view)
        return {"type": "discard", "card": cheap}
    if kinds & {"alone", "defend_alone"}:
        return next(a for a in legal if a["value"] is False)
    cards = botkit.playable_cards(view)
    holder = botkit.current_winner(view)
    partner = (view["seat"] + 2) % 4
    if holder is not None and holder["seat"] == partner:
        return play(botkit.cheapest(cards, view))
    if holder is not None:
        winners = [c for c in cards if botkit.beats(c, holder["card"], view)]
        if winners:
            return play(botkit.cheapest(winners, view))
    return play(botkit.cheapest(cards, view))


def play(card):
    return {"type": "play", "card": card}
