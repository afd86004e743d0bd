"""A rule bot for imperial: plain card play.

- Leading: lead a card no one still hidden can beat in its suit (a "boss"), else the cheapest.
- Following: win the trick with the cheapest winning card when it holds points, else throw
  the cheapest card.
"""

from atut import botkit


def choose(view):
    cards = botkit.playable_cards(view)
    holder = botkit.current_winner(view)
    if holder is None:                                  # we lead
        hidden = botkit.unseen(view)
        bosses = [c for c in cards
                  if not any(botkit.suit(h, view) == botkit.suit(c, view)
                             and botkit.beats(h, c, view) for h in hidden)]
        return play(bosses[0] if bosses else botkit.cheapest(cards, view))
    winners = [c for c in cards if botkit.beats(c, holder["card"], view)]
    on_table = sum(botkit.points(e["card"], view) for e in view["trick"])
    if winners and on_table >= 10:
        return play(botkit.cheapest(winners, view))
    return play(botkit.cheapest(cards, view))


def play(card):
    return {"type": "play", "card": card}
