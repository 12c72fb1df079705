"""Issue 44: the report's proposal for a Meerkat tile finding targets the objective a designer means.

Under strong play a tile's pay per piece committed does not follow its values (the players commit in proportion), so
Meerkat's lever declares ``report_kind="win"``: the report's proposal targets ``commit_win_excess:T = 0`` (committing
to the tile worth the other tiles' mean to winning), its values tried both ways, the search played by a cheaper
player (``LEVERS.search_player``) and the pick verified by the report player on fresh seeds (``balance``'s
``verify_policies``), within the game's ``win_budget``; the finding's own pay metric is one of the guards."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pyradice_lab.design._balance_finding import win_candidate
from pyradice_lab.design.balance import balance
from pyradice_lab.design.proposals import Candidate, _components, run_proposal
from pyradice_lab.engine.findings import Finding
from pyradice_lab.engine.levers import Lever, ProposalBudget
from pyradice_lab.engine.registry import get_game
from pyradice_lab.meerkat.levers import LEVERS, REPORT_WHY

KW = {"automa": False, "engine": "numba"}


def _tile(t: int, values: str, est: float) -> Candidate:
    f = Finding("difference", f"points paid per piece committed, tile {t} ({values})", est, est - 0.1, est + 0.1,
                n=400, null=1.96, player="mcts_v2", unit="points", component=f"tile {t} values")
    return Candidate(f"meerkat_tile_fairness-tile_pay_excess_{t}-3p", "meerkat", "meerkat_tile_fairness", f,
                     f"tile_pay_excess:{t}", 0.0, 3, dict(KW))


def test_a_lever_states_its_report_kind_and_why_or_is_refused():
    propose = LEVERS.lever("tile_pay_excess").propose
    with pytest.raises(ValueError, match="report_kind must be 'pay' or 'win'"):
        Lever("x", propose, report_kind="winning")
    with pytest.raises(ValueError, match="needs the win metric"):
        Lever("x", propose, report_kind="win", report_why="because")
    with pytest.raises(ValueError, match="report_why"):
        Lever("x", propose, win="commit_win_excess:{arg}", report_kind="win", report_why=" ")
    assert Lever("x", propose).report_kind == "pay"


def test_meerkat_declares_the_win_objective_for_the_report_with_its_budget_and_search_player():
    lever = LEVERS.lever("tile_pay_excess")
    assert lever.report_kind == "win" and lever.win == "commit_win_excess:{arg}" and "mcts_v2" in REPORT_WHY
    spec = get_game("meerkat")
    assert LEVERS.search_player in spec.policies and LEVERS.search_player != spec.report_player_at(3)
    win, pay = LEVERS.budget_for(3, "win"), LEVERS.budget_for(3)
    assert win is LEVERS.win_budget and pay is LEVERS.budget
    # a win share needs several times the pay objective's verification games (its per-game spread is about 0.75)
    assert win.verify >= 3 * pay.verify
    # the search's budget plays tile 12's 15 candidates' successive halving to one
    from pyradice_lab.design._balance_grid import halving_games

    assert win.search >= halving_games(15, win.first)


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
    lower = sorted(v for v in grid if v[0] == 11 and v != [11, 6, 3])
    assert lower == [[11, 5, 2], [11, 5, 3], [11, 6, 2], [11, 6, 4], [11, 7, 3], [11, 7, 4]]
    for v in grid:
        assert v == sorted(v, reverse=True)
        comp.replace({"tile.12.values": v})                         # every candidate a legal component set
    assert "other way" in c.lever and "lower values one point" in c.lever
    # a two-place tile: its low value one point either way, the high kept
    seven = win_candidate(_tile(7, "6/3", 1.7), LEVERS.lever("tile_pay_excess"), comp).parameters["tile.7.values"]
    assert [6, 4] in seven and [6, 2] in seven and [5, 2] in seven and [10, 5] in seven


def test_the_report_proposal_for_a_meerkat_tile_targets_the_win_objective_and_guards_its_pay(tmp_path):
    c = _tile(12, "11/6/3", 2.8)
    other = _tile(6, "6/3", 1.5)
    p = run_proposal(c, seed=1, out_dir=tmp_path, others=[c, other], policies="greedy",
                     budget=ProposalBudget(search=60, first=10, verify=20, recheck=12))
    r = p.result
    assert p.candidate.metric == "commit_win_excess:12" and r.objectives.iloc[0]["metric"] == "commit_win_excess:12"
    assert r.notes[0].startswith("objective kind win: commit_win_excess:12 = 0") and REPORT_WHY in r.notes[0]
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
    assert REPORT_WHY in said and "greedy players)" in said
    assert p.games <= 60 + 2 * 20 + 2 * 12 * 3   # within its budget (the guards may judge 3 candidates)


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
