"""Issue 44: the report's proposal for a Meerkat tile finding meets an objective a designer means.

Under strong play a tile's level hardly moves its pay per piece committed (the players commit in proportion); what
the places below the majority pay does.  Meerkat's lever also moves the lower values with the high kept; the report's
search is played by a cheaper player (``LEVERS.search_player``), the pick verified by the report player on fresh
seeds (``balance``'s ``verify_policies``) within ``LEVERS.search_budget``, and the tile's worth to winning
(``commit_win_excess:T``, restricted play) is among the guards.  A lever may instead declare that the report target
its objective about winning (``Lever.report_kind="win"``, with ``report_why``): the finding's own metric is then a
guard."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pyradice_lab.design._balance_finding import win_candidate
from pyradice_lab.design.balance import balance
from pyradice_lab.design.proposals import Candidate, _components, run_proposal
from pyradice_lab.engine.findings import Finding
from pyradice_lab.engine.levers import Lever, ProposalBudget
from pyradice_lab.engine.registry import get_game
from pyradice_lab.meerkat.levers import LEVERS, tile_values

WHY = "a constructed reason: the pay objective is out of honest reach"


def _win_levers():
    """Meerkat's levers with the tile lever's report kind set to win (the generic path, as a game would declare it)."""
    lever = replace(LEVERS.lever("tile_pay_excess"), report_kind="win", report_why=WHY)
    return replace(LEVERS, levers={"tile_pay_excess": lever})

KW = {"automa": False, "engine": "numba"}


def _tile(t: int, values: str, est: float) -> Candidate:
    """The report's candidate for a tile finding (the lever's grid, as ``find_candidates`` gives it)."""
    f = Finding("difference", f"points paid per piece committed, tile {t} ({values})", est, est - 0.1, est + 0.1,
                n=400, null=1.96, player="mcts_v2", unit="points", component=f"tile {t} values")
    c = Candidate(f"meerkat_tile_fairness-tile_pay_excess_{t}-3p", "meerkat", "meerkat_tile_fairness", f,
                  f"tile_pay_excess:{t}", 0.0, 3, dict(KW))
    if t == 6:   # the rules state tile 6: no lever, only an "other" finding
        return c
    params, text, rule = tile_values(_components("meerkat"), str(t), f)
    return replace(c, parameters=params, lever=text, rule_change=rule)


def test_a_lever_states_its_report_kind_and_why_or_is_refused():
    propose = LEVERS.lever("tile_pay_excess").propose
    with pytest.raises(ValueError, match="report_kind must be 'pay' or 'win'"):
        Lever("x", propose, report_kind="winning")
    with pytest.raises(ValueError, match="needs the win metric"):
        Lever("x", propose, report_kind="win", report_why="because")
    with pytest.raises(ValueError, match="report_why"):
        Lever("x", propose, win="commit_win_excess:{arg}", report_kind="win", report_why=" ")
    assert Lever("x", propose).report_kind == "pay"


def test_meerkat_declares_its_search_player_and_budget_and_the_lower_places_as_a_lever():
    lever = LEVERS.lever("tile_pay_excess")
    assert lever.report_kind == "pay" and lever.win == "commit_win_excess:{arg}"
    spec = get_game("meerkat")
    assert LEVERS.search_player in spec.policies and LEVERS.search_player != spec.report_player_at(3)
    cheap, pay = LEVERS.budget_for(3, True), LEVERS.budget_for(3)
    assert cheap is LEVERS.search_budget and pay is LEVERS.budget and LEVERS.budget_for(3, False) is pay
    assert cheap.verify > pay.verify
    f = Finding("difference", "points paid per piece committed, tile 12 (11/6/3)", 2.8, 2.7, 2.9, n=400, null=1.96)
    (grid,) = tile_values(_components("meerkat"), "12", f)[0].values()
    # the search's budget plays the grid's first two halving rounds and a third (shortened) among its last three
    assert cheap.search > len(grid) * cheap.first + (len(grid) + 1) // 2 * 2 * cheap.first
    # the lower places, one point of the middle value a step, the third in proportion, the high value kept
    assert [v for v in grid if v[0] == 11][1:] == [[11, 5, 2], [11, 4, 2], [11, 3, 2], [11, 2, 1], [11, 1, 1]]
    u = Finding("difference", "points paid per piece committed, tile 7 (6/3)", 1.5, 1.4, 1.6, n=400, null=1.96)
    (seven,) = tile_values(_components("meerkat"), "7", u)[0].values()
    assert [v for v in seven if v[0] == 6][1:] == [[6, 4], [6, 5], [6, 6]]    # an under-paying tile: up to its high


def test_the_win_objectives_grid_for_tile_12_is_both_ways_one_point_a_step_and_legal():
    comp = _components("meerkat")
    c = win_candidate(_tile(12, "11/6/3", 2.8), LEVERS.lever("tile_pay_excess"), comp)
    assert c.metric == "commit_win_excess:12" and c.target == 0.0 and c.id.endswith("tile_pay_excess_12-3p")
    grid = c.parameters["tile.12.values"]
    assert grid[0] == [11, 6, 3]                                    # the packaged values first
    level = [v for v in grid if v[0] != 11]
    assert sorted(v[0] for v in level) == [7, 8, 9, 10, 12, 13, 14, 15]   # 4 steps down and 4 up, a point each
    assert all(min(v) >= 2 for v in level)                          # the reconstruction rule's lower values
    # the lower values one point down or up with the high value kept (the middle, the low, both)
    lower = [v for v in grid if v[0] == 11 and v != [11, 6, 3]]
    assert [[11, 5, 2], [11, 2, 1], [11, 7, 4]] == [v for v in lower if v in ([11, 5, 2], [11, 2, 1], [11, 7, 4])]
    assert {(11, 5, 3), (11, 6, 2), (11, 6, 4), (11, 7, 3)} <= {tuple(v) for v in lower}   # one point either way
    for v in grid:
        assert v == sorted(v, reverse=True)
        comp.replace({"tile.12.values": v})                         # every candidate a legal component set
    assert "other way" in c.lever and "lower values one point" in c.lever
    # a two-place tile: its low value one point either way, the high kept
    seven = win_candidate(_tile(7, "6/3", 1.7), LEVERS.lever("tile_pay_excess"), comp).parameters["tile.7.values"]
    assert [6, 4] in seven and [6, 2] in seven and [5, 2] in seven and [10, 5] in seven


def test_a_lever_declaring_the_win_kind_makes_the_report_target_it_and_guard_the_findings_own_metric(
        tmp_path, monkeypatch):
    import pyradice_lab.design.proposals as P

    monkeypatch.setattr(P, "game_levers", lambda game: _win_levers())
    c = _tile(12, "11/6/3", 2.8)
    other = _tile(6, "6/3", 1.5)
    p = run_proposal(c, seed=1, out_dir=tmp_path, others=[c, other], policies="greedy",
                     budget=ProposalBudget(search=60, first=10, verify=20, recheck=12))
    r = p.result
    assert p.candidate.metric == "commit_win_excess:12" and r.objectives.iloc[0]["metric"] == "commit_win_excess:12"
    assert r.notes[0].startswith("objective kind win: commit_win_excess:12 = 0") and WHY in r.notes[0]
    # the finding's own pay metric is guarded (the mechanism), as are the other finding and the tile in play
    assert set(r.guards["metric"]) >= {"meerkats_on_tile:12", "start_player_win", "tile_pay_excess:12",
                                       "tile_pay_excess:6"}
    # a test's players (not the report player): every game by them, no cheaper search player
    assert not any("the search played by" in n for n in r.notes)
    text = p.toml.read_text()
    assert "objective kind win" in text and "commit_win_excess:12" in text
    from pyradice_lab.design._proposal_items import _candidates_table, _proposal_items

    table = _candidates_table([c], {c.id: p})
    assert list(table["objective"]) == ["commit_win_excess:12 = 0"]
    said = _proposal_items(p, "proposals")[0].text
    assert "Objective targeted: commit_win_excess:12 = 0, an objective about winning instead of the finding's" in said
    assert WHY in said and "greedy players)" in said
    assert p.games <= 60 + 2 * 20 + 2 * 12 * 3   # within its budget (the guards may judge 3 candidates)


def test_the_meerkat_report_proposal_targets_the_pay_and_guards_the_tiles_worth_to_winning(tmp_path):
    c = _tile(12, "11/6/3", 2.8)
    p = run_proposal(c, seed=1, out_dir=tmp_path, others=[c], policies="greedy",
                     budget=ProposalBudget(search=100, first=10, verify=20, recheck=12))
    r = p.result
    assert p.candidate.metric == "tile_pay_excess:12" and r.notes[0].startswith("objective kind pay")
    assert "commit_win_excess:12" in set(r.guards["metric"])
    assert any(n.startswith("lever: ") and "the lower values down" in n for n in r.notes)


def test_the_search_player_plays_the_search_and_the_report_player_the_verification(monkeypatch):
    """With the report player's games (policies None) the search is the cheaper player's, the verification and the
    guards the report player's (here both stand-ins: heuristic searches, greedy judges)."""
    import pyradice_lab.design.proposals as P

    spec = get_game("meerkat")
    monkeypatch.setattr(type(spec), "report_player_at", lambda self, players=None: "greedy")
    monkeypatch.setattr(P, "game_levers", lambda game: replace(LEVERS, search_player="heuristic"))
    c = _tile(12, "11/6/3", 2.8)
    p = run_proposal(c, seed=2, others=[c], budget=ProposalBudget(search=60, first=10, verify=20, recheck=12))
    r = p.result
    assert p.candidate.metric == "tile_pay_excess:12"
    note = next(n for n in r.notes if n.startswith("the search played by"))
    assert "heuristic" in note and "verified and guarded by greedy" in note
    assert "played by heuristic" in r.assumptions.games and "greedy" in r.assumptions.policies
    assert "heuristic" not in r.assumptions.policies
    from pyradice_lab.design._proposal_items import _proposal_items

    assert "greedy players; the search played by heuristic)" in _proposal_items(p, "proposals")[0].text


def test_balance_verifies_with_verify_policies_on_the_same_fresh_games():
    """One candidate: the pick is the packaged tiles whatever plays the search, so the verification by greedy after a
    random_legal search is exactly a greedy search's verification (the same fresh seeds), and differs from
    random_legal's own."""
    kw = dict(players=3, budget=20, first_games=10, verify_games=30, rng=5, game_kwargs=KW)
    params = {"tile.12.values": [[11, 6, 3]]}
    judged = balance("meerkat", params, "tile_pay_excess:12 = 0", policies="random_legal", verify_policies="greedy",
                     **kw)
    greedy = balance("meerkat", params, "tile_pay_excess:12 = 0", policies="greedy", **kw)
    plain = balance("meerkat", params, "tile_pay_excess:12 = 0", policies="random_legal", **kw)
    assert judged.after.value == greedy.after.value and judged.before.value == greedy.before.value
    assert judged.after.value != plain.after.value
    assert list(judged.history["estimate"]) == list(plain.history["estimate"])   # the search itself: random_legal's


def test_a_met_objective_says_when_the_packaged_values_meet_it_too():
    """Seed 1 of the designer guide's runs: the packaged tile 12 at +0.050 [-0.021, +0.121] on the verification's 400
    games meets the win objective as the proposal does, so "met" cannot tell the proposal from no change."""
    from types import SimpleNamespace

    from pyradice_lab.design._balance_path import _before_met
    from pyradice_lab.engine.stats import Estimate

    def res(lo, hi, tol=0.0):
        return SimpleNamespace(before=Estimate((lo + hi) / 2, 0.03, 400, lo, hi), target=0.0, tolerance=tol)

    assert _before_met(res(-0.021, 0.121)) and not _before_met(res(0.009, 0.161))
    assert _before_met(res(0.009, 0.161, tol=0.01)) and not _before_met(SimpleNamespace(before=None, target=0.0,
                                                                                         tolerance=0.0))
