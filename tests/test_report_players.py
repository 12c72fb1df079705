"""Issue 27: every finding that names a component or the start player is measured with the game's report player
(registry), the heuristic's result beside it; the check that finds the ones resting on a heuristic only."""

import warnings

import pandas as pd
import pytest

from pyradice_lab.engine import registry
from pyradice_lab.engine.findings import (
    Finding,
    game_heuristics,
    heuristic_only,
    is_designer_finding,
    merge_players,
    pair_findings,
    render,
    with_sensitivity,
)
from pyradice_lab.report.players import ReportPlayerWarning, check_report_players, heuristic_only_findings


def _f(est, lo, hi, player, n=500, quantity="start player's win share, 2 players", **kw):
    return Finding("difference", quantity, est, lo, hi, n=n, null=0.5, null_label="a fair share", unit="%",
                   player=player, **kw)


def test_designer_findings_are_the_component_and_start_player_ones():
    assert is_designer_finding(_f(0.5, 0.45, 0.55, "greedy"))
    assert is_designer_finding(_f(0.5, 0.45, 0.55, "greedy", quantity="tile pay", component="tile 4 values"))
    assert not is_designer_finding(_f(0.5, 0.45, 0.55, "greedy", quantity="seat 0's points margin"))


def test_sensitivity_is_shown_and_a_disagreement_is_said():
    agree = with_sensitivity(_f(0.56, 0.52, 0.60, "exact"), _f(0.55, 0.53, 0.57, "greedy"))
    assert agree.sensitivity_player == "greedy" and agree.sensitivity == (0.55, 0.53, 0.57)
    text = render(agree)
    assert "Sensitivity, greedy: 55" in text and "disagree" not in text
    row = agree.to_dict()
    assert row["sensitivity_player"] == "greedy" and row["sensitivity"].startswith("greedy: 55")
    assert row["sensitivity_ci_low"] == 0.53 and row["sensitivity_ci_high"] == 0.57
    opposite = with_sensitivity(_f(0.56, 0.52, 0.60, "exact"), _f(0.45, 0.43, 0.47, "greedy"))
    assert "The two players disagree" in render(opposite) and "depends on the players" in render(opposite)
    # a side counts only on a sample large enough for a claim
    small = with_sensitivity(_f(0.7, 0.51, 0.85, "exact", n=20), _f(0.5, 0.47, 0.53, "greedy"))
    assert "disagree" not in render(small)
    with pytest.raises(ValueError, match="sensitivity"):
        _f(0.5, 0.4, 0.6, "exact", sensitivity=(0.7, 0.4, 0.6), sensitivity_player="greedy")


def test_pairing_keeps_the_report_players_findings_and_sets_the_heuristic_beside():
    strong = [_f(0.56, 0.52, 0.60, "exact"), _f(3.0, 2.0, 4.0, "exact", quantity="rounds per game")]
    heur = [_f(0.55, 0.53, 0.57, "greedy"), _f(2.5, 2.4, 2.6, "greedy", quantity="rounds per game")]
    out = pair_findings(strong, heur)
    assert [f.player for f in out] == ["exact", "exact"]
    assert out[0].sensitivity_player == "greedy" and not out[1].sensitivity   # only the designer finding
    merged = merge_players([heur[0], strong[0], strong[1]], "exact", "greedy")
    assert [(f.player, f.sensitivity_player) for f in merged] == [("exact", "greedy"), ("exact", "")]


def test_heuristic_only_reads_the_registry_players():
    assert heuristic_only("greedy", "mcts", ["greedy", "expectimax"])
    assert heuristic_only("risk:0.35, every seat", "optimal", ["risk:0.35", "greedy"])
    assert not heuristic_only("one optimal seat vs risk:0.35", "optimal", ["risk:0.35"])
    assert not heuristic_only("mcts:2", "mcts", ["greedy"])
    assert not heuristic_only("exact optimum", "optimal", ["greedy"])   # an exact computation, no policy
    assert not heuristic_only("mcts_v2 vs greedy", "mcts_v2", ["greedy", "mcts_v1"])   # digits inside a name
    for name, spec in registry.games().items():
        heuristics, strong = game_heuristics(spec)
        assert spec.heuristic_player in heuristics and spec.report_player not in (*heuristics, *strong), name
        assert heuristic_only(spec.heuristic_player, spec.report_player, heuristics, strong=strong), name
        assert not heuristic_only(f"{spec.report_player}, every seat", spec.report_player, heuristics,
                                  strong=strong), name


def test_players_stronger_than_the_report_player_are_not_heuristics():
    from types import SimpleNamespace

    real = registry.get_game("meerkat")   # report player mcts_v2, registered last (the strongest, issue 27)
    assert game_heuristics(real)[1] == () and real.report_player == real.policies[-1] == "mcts_v2"
    # the registry before mcts_v2: report player mcts_late, mcts registered after it (stronger)
    spec = SimpleNamespace(policies=real.policies[:-1], report_player="mcts_late",
                           heuristic_player=real.heuristic_player)
    heuristics, strong = game_heuristics(spec)
    assert strong == ("mcts",) and "expectimax" in heuristics and "greedy" in heuristics
    assert not heuristic_only("mcts", "mcts_late", heuristics, strong=strong)
    assert heuristic_only("mcts", "mcts_late", [p for p in spec.policies if p != "mcts_late"])  # the old rule
    assert heuristic_only("expectimax", "mcts_late", heuristics, strong=strong)
    rows = [("meerkat_seat_advantage", "start player's win share, 3 players", "", p)
            for p in ("mcts_v2", "mcts", "mcts_late", "greedy", "expectimax", "exact optimum")]
    bad = heuristic_only_findings(pd.DataFrame(rows, columns=["experiment", "quantity", "component", "player"]))
    # the real registry: every player registered weaker than the report player mcts_v2 is a heuristic now
    assert bad["player"].tolist() == ["mcts", "mcts_late", "greedy", "expectimax"]
    purramid = game_heuristics(registry.get_game("purramid"))
    assert purramid == (("greedy", "stop_after:2", "stop_after:1", "risk:0.3", "risk:0.5", "risk:0.7"), ())


def test_the_check_finds_heuristic_only_rows_and_build_report_warns(tmp_path):
    rows = [("raft_start_player", "start player's win share, 2 players", "", "greedy"),
            ("raft_start_player", "start player's win share, 3 players", "", "exact"),
            ("meerkat_tile_fairness", "points paid per piece committed, tile 4", "tile 4 values", "greedy"),
            ("meerkat_strength_ladder", "share of games won", "", "greedy"),
            ("overview_self_check", "start player", "", "greedy")]
    table = pd.DataFrame(rows, columns=["experiment", "quantity", "component", "player"])
    bad = heuristic_only_findings(table)
    assert bad["experiment"].tolist() == ["raft_start_player", "meerkat_tile_fairness"]
    table.to_csv(tmp_path / "r_findings.csv", index=False)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert len(check_report_players(tmp_path / "r.pdf")) == 2
    assert any(issubclass(x.category, ReportPlayerWarning) for x in w)
    table.iloc[[1, 3, 4]].to_csv(tmp_path / "r_findings.csv", index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReportPlayerWarning)
        assert check_report_players(tmp_path / "r.pdf").empty


def test_a_disagreement_about_a_change_is_said_in_words():
    """A difference from 0 is an increase or a decrease, never "above 0 points" (issue 30 part 5)."""
    from pyradice_lab.engine.findings import Finding, render, with_sensitivity

    strong = Finding("difference", "Points per turn held, A against B", 0.5, -0.1, 1.1, n=400, null=0.0,
                     unit="points", player="exact")
    heuristic = Finding("difference", "Points per turn held, A against B", 1.1, 1.0, 1.2, n=400, null=0.0,
                        unit="points", player="greedy")
    text = render(with_sensitivity(strong, heuristic, heuristic_player="greedy"))
    assert "with greedy the result is an increase" in text and "above 0" not in text, text
