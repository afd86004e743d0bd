"""atut.lockstep: our euchre bots against OpenSpiel's C++ IS-MCTS on OpenSpiel's C++ euchre,
both engines in lockstep (docs/OPENSPIEL.md).  A few deals here; the long rows are benchmark
commands (docs/BOTS.md).  G9: OpenSpiel's dealer may not bury the upcard, so ours plays its
next best action there; G10 and G13: OpenSpiel's stick-the-dealer is our ``redeal`` off."""

from __future__ import annotations

import random

import pytest

from atut import lockstep as L
from atut.game import canonical
from helpers import need_pyspiel

need_pyspiel()


def test_a_lockstep_deal_keeps_both_engines_together():
    """Random legal play: at every step the same seat to move and the same legal set (apart
    from G9's upcard discard), the same hands, and the same points at the end (G14)."""
    rng = random.Random(3)
    for k in range(30):
        ls = L.Lockstep(random.Random(k))
        assert sorted(ls.game.view(ls.dealer)["hand"]) == sorted(
            L.os_card(ls.cs.action_to_string(-1, h.action))
            for i, h in enumerate(ls.cs.full_history()[1:21]) if (ls.dealer + i) % 4 == ls.dealer)
        while not ls.done():
            ls.to_move()
            mapped, legal = ls.choices()
            assert {canonical(a) for a in legal} == set(mapped)
            ls.apply(rng.choice(sorted(mapped)), mapped, legal)
        r = ls.returns()
        assert r[0] == -r[1] and r[0] in (-4, -2, -1, 1, 2, 4)


def test_a_broken_lockstep_is_caught():
    """An action applied to one engine only shows at the next comparison."""
    ls = L.Lockstep(random.Random(5))
    mapped, legal = ls.choices()
    ls.cs.apply_action(mapped[sorted(mapped)[0]])         # OpenSpiel alone moves on
    with pytest.raises(AssertionError):
        ls.to_move()
        ls.choices()


def test_a_duplicate_deal_plays_the_same_cards_with_the_pairs_swapped():
    """Both plays of a duplicate deal start from the same deal; the C++ bot is seeded, but its
    runs are not promised to repeat exactly, so only the deal and the bookkeeping are checked."""
    a = L.duplicate((7, 0, "2", 50))
    assert len(a["plays"]) == 2
    assert a["margin"] == sum(p["points"] for p in a["plays"]) / 2
    one, two = L.Lockstep(random.Random(7 * 100003)), L.Lockstep(random.Random(7 * 100003))
    assert one.os_cards == two.os_cards and one.dealer == two.dealer


def test_level_3_in_lockstep_and_the_report():
    s = L.run("3", 100, deals=2, seed=2)
    assert s["deals"] == 2 and len(s["rows"]) == 2
    assert s["times"]["ours"][1] > 0 and s["times"]["theirs"][1] > 0
    text = L.report(s)
    assert "C++ IS-MCTS(100)" in text and "95% CI" in text


def test_g9_our_dealer_never_buries_the_upcard_against_openspiel():
    """A bot that always discards the upcard when it may is given its next choice (G9)."""

    class Burier:
        def choose(self, view):
            legal = view["legal_actions"]
            for a in legal:
                if a["type"] == "discard" and a["card"] == view.get("upcard"):
                    return a
            return legal[0]

    buried = 0
    for k in range(40):
        ls = L.Lockstep(random.Random(k))
        while not ls.done():
            seat = ls.to_move()
            mapped, legal = ls.choices()
            key = L._our_choice(Burier(), ls.game.view(seat), mapped)
            if key is None:
                buried += 1
                key = L._our_choice(Burier(), ls.game.view(seat), mapped, second=True)
            assert key in mapped
            ls.apply(key, mapped, legal)
    assert buried > 0


def test_g10_an_alone_call_is_set_against_the_rules_call_on_the_same_deal():
    """When our bot goes alone (G10), the same deal is played again from that decision with
    the level-2 rules' call in its place: the replay keeps every action before it, and the
    report and the pooled runs carry both figures."""
    found = None
    for k in range(80):
        rec = []
        p = L.play(k, "1", 20, 0, record=rec)
        if "alone_rules" in p:
            found = (k, p, rec)
            break
    assert found, "no alone call by a random bot in 80 deals"
    k, p, rec = found
    step = rec.index(L.ALONE)
    partner = canonical({"type": "alone", "value": False})
    again = []
    q = L.play(k, "1", 20, 0, record=again, forced=(rec[:step], partner))
    assert again[:step + 1] == rec[:step] + [partner]
    assert q["points"] in (-4, -2, -1, 1, 2, 4) and "alone_rules" not in q
    s = L.summary([{"deal": k, "margin": p["points"], "plays": [p]}], "1", 20, 1)
    assert s["alone_vs_rules"] == [[p["points"], p["alone_rules"]]]
    assert "the rules' call" in L.report(s)
    other = dict(s, rows=[{"deal": k + 1000, "margin": 0.0}])
    both = L.pool([s, other])
    assert both["deals"] == 2 and len(both["alone_vs_rules"]) == 2
    with pytest.raises(ValueError):
        L.pool([s, s])                                  # the same deal twice
