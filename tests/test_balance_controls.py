"""balance(..., controls=True): the search and its verification estimated with the game's controls read off the
same games (issue 47 item 1; Purramid's turn luck)."""

import warnings

import pytest

from pyradice_lab.design.balance import balance

DEALS = {"deal_2p.value": [[27, 24], [26, 25], [25, 26]]}


def _balance(**kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return balance("purramid", DEALS, "start_player_win = 0.5", players=2, policies="optimal", budget=600,
                       first_games=100, verify_games=300, rng=3, **kw)


def test_the_turn_luck_narrows_the_search_and_the_verification_on_the_same_games():
    plain, luck = _balance(), _balance(controls=True)
    assert plain.before.n == luck.before.n == 300
    # the same games (the verification's seeds do not depend on the controls): narrower by about 1.5x in SE
    assert luck.before.se < plain.before.se / 1.3 and luck.after.se < plain.after.se / 1.3
    assert abs(luck.before.value - plain.before.value) < 3 * plain.before.se    # the packaged deal, same games
    first = [h[h["round"] == 0].set_index("deal_2p.value") for h in (plain.history, luck.history)]
    assert (first[1]["se"] < first[0]["se"] / 1.2).all()     # every candidate of the first round, same games
    assert "turn-luck controls as control variates" in luck.assumptions.games
    assert "control" not in plain.assumptions.games
    assert luck.controls and not plain.controls
    assert not any(str(m).startswith("@") for m in luck.objectives["metric"])


def test_controls_are_refused_before_any_game_where_they_cannot_be_had():
    with pytest.raises(ValueError, match="need a seat playing 'optimal'; the seats play greedy"):
        balance("purramid", DEALS, "start_player_win = 0.5", players=2, policies="greedy", controls=True)
    with pytest.raises(ValueError, match="need a seat playing 'optimal'"):
        balance("purramid", DEALS, "start_player_win = 0.5", players=2, policies="optimal", controls=True,
                verify_policies="greedy")
    with pytest.raises(ValueError, match="raft declares no controls read off its games"):
        balance("raft", {"card.1.points": (1, 3)}, "boat_pay_excess:3 = 0", controls=True)
    with pytest.raises(TypeError, match="controls must be True or False"):
        balance("purramid", DEALS, "start_player_win = 0.5", players=2, policies="optimal", controls="yes")


def test_the_report_proposal_says_its_estimates_used_the_controls():
    from types import SimpleNamespace

    from pyradice_lab.design._proposal_items import _proposal_items
    from pyradice_lab.design.proposals import Candidate, ProposalBudget
    from pyradice_lab.engine.findings import Finding

    f = Finding("difference", "start player's win share", 0.53, 0.51, 0.55, n=800, null=0.5)
    cand = Candidate("toy-start_player_win-2p", "purramid", "toy", f, "start_player_win", 0.5, 2, {},
                     parameters=DEALS, lever="the deal")
    for res, said in ((_balance(controls=True), True), (_balance(), False)):
        p = SimpleNamespace(candidate=cand, result=res, games=res.games_used, budget=ProposalBudget(600, 100, 300, 0),
                            seconds=1.0, rechecks=[], worse=[], not_rechecked=0)
        text = _proposal_items(p, "proposals")[0].text
        assert ("every estimate with the games' turn-luck controls" in text) is said
