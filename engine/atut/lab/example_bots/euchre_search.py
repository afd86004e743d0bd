"""A euchre bot that asks our search.

botkit.analyse(view) runs the level-3 bot's search (sampling the hidden cards many times and
playing each legal action out) and returns every legal action with its value, best first.
This bot plays the best one, except that it keeps to a smaller budget of rollouts than our
level 3, so that it is quicker (and a little weaker) in the browser.
"""

from atut import botkit


def choose(view):
    legal = view["legal_actions"]
    if len(legal) == 1:                      # nothing to think about
        return legal[0]
    result = botkit.analyse(view, level=3, budget={"rollouts": 80})
    return result["best"]
