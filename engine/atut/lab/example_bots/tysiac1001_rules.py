"""A rule bot for 1001 (tysiąc): cautious bidding and plain card play.

- Bidding: pass (a bot that never bids still wins points as a defender).
- As declarer: play on, hand out the two cheapest cards, announce the lowest contract.
- Leading: declare a marriage if you can, else lead an ace, else the cheapest card.
- Following: take the trick with the cheapest winning card when you can, else throw the
  cheapest card.
"""

from atut import botkit


def choose(view):
    legal = view["legal_actions"]
    kinds = {a["type"] for a in legal}
    if "pass" in kinds:
        return {"type": "pass"}
    if "play_on" in kinds:
        return {"type": "play_on"}
    if "give" in kinds:
        cheap = botkit.cheapest([a["card"] for a in legal], view)
        return next(a for a in legal if a["card"] == cheap)
    if "announce" in kinds or "bid" in kinds:
        return min((a for a in legal if "value" in a), key=lambda a: a["value"])
    marriages = [a for a in legal if "meld" in a]
    if marriages:
        return marriages[0]
    cards = botkit.playable_cards(view)
    holder = botkit.current_winner(view)
    if holder is None:                                  # we lead
        aces = [c for c in cards if c.startswith("A")]
        return play(aces[0] if aces else botkit.cheapest(cards, view))
    winners = [c for c in cards if botkit.beats(c, holder["card"], view)]
    if winners:
        return play(botkit.cheapest(winners, view))
    return play(botkit.cheapest(cards, view))


def play(card):
    return {"type": "play", "card": card}
