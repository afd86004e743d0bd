"""A rule bot for 66 (sixty-six): a few plain rules a beginner would follow.

- Exchange the trump 9 for the trump card whenever allowed.
- Leading: declare a marriage if you can (20 or 40 points), else lead your cheapest card.
- Following: take the trick with the cheapest card that wins it if the trick is worth
  something (10 points or more on the table); otherwise throw the cheapest card.
"""

from atut import botkit


def choose(view):
    legal = view["legal_actions"]
    for action in legal:
        if action["type"] == "exchange":
            return action
    marriages = [a for a in legal if "meld" in a]
    if marriages:
        # the trump marriage (40) before a plain one (20)
        marriages.sort(key=lambda a: botkit.suit(a["card"], view) != view["trump"])
        return marriages[0]
    cards = botkit.playable_cards(view)
    holder = botkit.current_winner(view)
    if holder is None:                                  # we lead
        return play(botkit.cheapest(cards, view))
    winners = [c for c in cards if botkit.beats(c, holder["card"], view)]
    on_table = sum(botkit.points(e["card"], view) for e in view["trick"])
    if winners and on_table >= 10:
        return play(botkit.cheapest(winners, view))
    return play(botkit.cheapest(cards, view))


def play(card):
    return {"type": "play", "card": card}
