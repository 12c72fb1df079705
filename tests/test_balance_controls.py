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


def test_below_thirty_games_the_estimate_is_the_plain_one_and_robustness_refuses_controls():
    """The regression on the controls is coverage-tested from 30 games (engine.stats.SMALL_SAMPLE): a balance
    round of fewer games is estimated plainly (the full report's 4-player proposal once read 0.719 [0.347, 1.09]
    for a share from 10 games a side on 4 controls); robustness refuses controls below 30 games a set."""
    import numpy as np

    from pyradice_lab.design._balance_controls import PREFIX, estimate
    from pyradice_lab.design.compare import metric_estimate
    from pyradice_lab.design.robustness import robustness

    rng = np.random.default_rng(0)
    for n, controlled in ((29, False), (30, True)):
        luck = rng.normal(size=(n, 2))
        win = (luck[:, 0] + rng.normal(size=n) > 0).astype(float)
        values = {"start_player_win": (win, np.ones(n))}
        values.update({f"{PREFIX}{j}": (luck[:, j], np.zeros(n)) for j in range(2)})
        est = estimate(values, "start_player_win")
        assert (est.dist == "t" and est.df == n - 3) is controlled
        if not controlled:
            plain = metric_estimate(win, np.ones(n), "start_player_win", warn=False)
            assert (est.value, est.ci_low, est.ci_high) == (plain.value, plain.ci_low, plain.ci_high)
    with pytest.raises(ValueError, match="games: robustness with controls needs at least 30 games a set"):
        robustness("purramid", "start_player_win > 0.5", games=16, players=2, policies="optimal", controls=True)
