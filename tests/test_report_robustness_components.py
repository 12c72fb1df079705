"""The report's robustness checks of the component findings (tile pay, boat pay, card difference): every such
finding has a check with its players, verdicts read the finding's own metric, and page 2 shows them."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest
from pypdf import PdfReader

import pyradice_lab.design.checks as checks_module
from pyradice_lab.design.checks import (
    all_checks as _all_checks,
    assess_sections,
    checks_for,
    game_checks,
    report_player_label,
    run_check,
    verdict,
)
from pyradice_lab.design.robustness import Claim, RobustnessResult
from pyradice_lab.engine import registry
from pyradice_lab.engine.findings import Finding
from pyradice_lab.engine.stats import proportion_estimate
from pyradice_lab.report.build import ExperimentResult, Section, write_pdf

#: every game's checks re-run with its report player (each game's ``checks.CHECKS.report_player_games``)
STRONG_CHECK_GAMES = {k: n for g in registry.BUILTIN_GAMES for k, n in game_checks(g).report_player_games.items()}
CHECKS = {c.key: c for c in checks_for(["meerkat", "pyradice", "raft"])}
ALL = {}
for _c in _all_checks():   # every check, also those of pages the report no longer runs (first per key)
    ALL.setdefault(_c.key, _c)


def _component_findings():
    """Each component finding of the four experiments as the experiments build them (tiny samples)."""
    from pyradice_lab.meerkat.analysis import fairness_findings, strong_findings, tile_pay
    from pyradice_lab.meerkat.sim import simulate_games as meerkat_games
    from pyradice_lab.pyradice.analysis import card_balance, card_findings
    from pyradice_lab.raft.analysis import card_fairness
    from pyradice_lab.raft.strong_play import strong_play

    out = [("meerkat_tile_fairness", f)
           for f in fairness_findings(tile_pay(meerkat_games(30, players=3, automa=False, rng=1)), 30)]
    # the strong-play table as meerkat.analysis.strong_play builds it (columns used by strong_findings)
    rows = [{"finding": f"points per piece, tile {t} ({v})", "player": p, "value": x, "se": 0.05, "ci_low": x - 0.1,
             "ci_high": x + 0.1, "reference": 2.3, "games": 600, "side": "above" if x > 2.3 else "below"}
            for p in ("heuristic", "expectimax") for t, v, x in ((5, "7/3", 1.8), (12, "11/6/3", 3.4), (7, "9/4", 2.0))]
    vs = pd.DataFrame(columns=["policy", "opponent", "setup", "win_rate", "win_rate_ci_low", "win_rate_ci_high",
                               "games", "fair_share"])
    out += [("meerkat_strong_play", f) for f in strong_findings(vs, pd.DataFrame(rows))]
    df, points = card_balance(10, 2, "greedy", rng=1, return_points=True)
    out += [("pyradice_card_balance", f) for f in card_findings(df, points)]
    out += [("raft_card_fairness", f) for f in card_fairness(40, 1, players=3, blocks=2).findings]
    out += [("raft_strong_play", f) for f in strong_play(8, 1, players=(3,), mix_games=4, blocks=2).findings]
    return out


def test_every_component_finding_has_a_check_with_its_players():
    found = [(e, f) for e, f in _component_findings() if f.component and "instead of heuristic" not in f.quantity]
    kinds = {e for e, _ in found}
    assert kinds == {"meerkat_tile_fairness", "meerkat_strong_play", "pyradice_card_balance", "raft_card_fairness",
                     "raft_strong_play"}
    checks = _all_checks()  # as assess_sections: checks sharing a key (and its run) cover several experiments
    n = 0
    for exp, f in found:
        if exp == "raft_strong_play" and not f.quantity.startswith("points per own turn held"):
            continue  # the black-gem rounds: a paired variant finding, not a single-run metric
        matching = [c for c in checks if c.matches(exp, f)]
        assert matching, f"{exp}: {f.quantity!r} has no robustness check"
        # issue 27: a check of STRONG_CHECK_GAMES plays the report player, the others the experiment's players
        check = next(c for c in matching if c.player in (f.player, report_player_label(exp.split("_")[0])))
        metric = check.metric_for(f.quantity)
        assert metric in check.family and metric in ALL[check.key].family, (f.quantity, metric)
        n += 1
    assert n >= 2 + 2 + 1 + 3 + 1   # raft strong play: one finding (exact, greedy beside it) since issue 27


def _family_result(check, metric, intervals):
    rows = [{"set": "packaged", "value": 0.5, "se": 0.1, "ci_low": 0.3, "ci_high": 0.7, "n": 600, "verdict": "holds"}]
    rows += [{"set": f"plausible-{i}", "value": (lo + hi) / 2, "se": (hi - lo) / 4, "ci_low": lo, "ci_high": hi,
              "n": 600, "verdict": Claim(metric, ">", 0.0).verdict(lo, hi)} for i, (lo, hi) in enumerate(intervals)]
    table = pd.DataFrame(rows)
    k = int((table["verdict"][1:] == "holds").sum())
    res = RobustnessResult(Claim(metric, ">", 0.0), table, proportion_estimate(k, len(intervals)),
                           pd.DataFrame(columns=["choice", "spearman", "p_value"]), robust=k == len(intervals))
    other = RobustnessResult(Claim("x", ">", 0.0), table.assign(ci_low=9.0, ci_high=9.5), res.holds_share,
                             res.sensitivity, robust=True)
    return {m: (res if m == metric else other) for m in check.family}


ABOVE, BELOW, STRADDLE = (0.2, 0.6), (-0.9, -0.4), (-0.1, 0.3)


@pytest.mark.parametrize("key,exp,quantity,estimate,null,player,metric", [
    ("meerkat tile pay greedy", "meerkat_tile_fairness", "points paid per piece committed, tile 5 (7/3)", 1.7, 2.25,
     "mcts_v2", "tile_pay_excess:5"),   # the report player since issue 29 (proposals need its verdict)
    ("meerkat tile pay expectimax", "meerkat_strong_play", "points per piece, tile 12 (11/6/3)", 3.4, 2.4,
     "expectimax", "tile_pay_excess:12"),
    ("pyradice card difference", "pyradice_card_balance", "points per seat, strongest card (Height) against the weakest "
     "(Small)", 7.0, 0.0, "flat_mc", "card_points_difference:Height-Small"),
    ("raft boat pay greedy", "raft_card_fairness", "points per own turn held, 2-slot lifeboats against the deck's 3.00, "
     "3 players", -1.4, 0.0, "exact", "boat_pay_excess:2"),   # the report player since issue 27
    ("raft boat pay exact", "raft_strong_play", "points per own turn held, largest lifeboats against the smallest, 3 players",
     3.0, 0.0, "exact", "boat_pay_spread")])
def test_verdicts_read_the_findings_own_metric_and_direction(key, exp, quantity, estimate, null, player, metric):
    check = next(c for c in _all_checks() if c.key == key and c.experiment == exp)
    f = Finding("difference", quantity, estimate, estimate - 0.1, estimate + 0.1, n=600, null=null, player=player)
    assert check.matches(exp, f) and check.metric_for(quantity) == metric
    same, opposite = (ABOVE, BELOW) if estimate > null else (BELOW, ABOVE)
    g = verdict(f, check, _family_result(check, metric, [same] * 8))
    assert g.robust is True and g.robustness.startswith("holds on 8 of 8 sampled ")
    g = verdict(f, check, _family_result(check, metric, [same] * 6 + [opposite, STRADDLE]))
    assert g.robust is False and "holds on 6 of 8" in g.robustness and "reversed on 1, undecided on 1" in g.robustness
    g = verdict(f, check, _family_result(check, metric, [same] * 7 + [STRADDLE]))
    assert g.robust is None and g.robustness.startswith("undecided: holds on 7 of 8")
    other = f.with_context(player="heuristic")
    g = verdict(other, check, _family_result(check, metric, [same] * 8))
    assert g.robust is None and g.robustness.startswith(f"not assessed for these players; with {check.policies}")


def test_the_raft_strong_play_finding_gets_the_check_with_its_players():
    """The strong-play page (experiments/raft_strong_play.py; no longer in the report) keeps its checks."""
    q = "points per own turn held, largest lifeboats against the smallest, 3 players"
    exp = ExperimentResult("raft_strong_play", "Strong play", "A reading.", pd.DataFrame({"a": [1]}), None,
                           findings=[Finding("difference", q, 2.6, 2.5, 2.7, n=400, null=0.0, player="exact")])
    results = {"raft boat pay greedy": _family_result(ALL["raft boat pay greedy"], "boat_pay_spread", [STRADDLE] * 8)}
    assert assess_sections([Section("Rocking Raft", [exp])], results) == ["raft_strong_play"]
    (exact,) = exp.findings
    assert exact.robust is None and exact.robustness.startswith("undecided")
    assert "raft boat pay exact" not in CHECKS   # not run by the report


def test_a_real_component_check_reaches_page_two(tmp_path, monkeypatch):
    """The meerkat tile check run small (not the report's size) on a real finding: page 2 shows its verdict."""
    from pyradice_lab.meerkat.analysis import fairness_findings, tile_pay
    from pyradice_lab.meerkat.sim import simulate_games as meerkat_games

    check = CHECKS["meerkat tile pay greedy"]
    assert check.games == STRONG_CHECK_GAMES["meerkat tile pay greedy"] and check.policies == "mcts_v2"
    # the machinery, played with greedy (the findings below are greedy's) to stay fast
    check = dataclasses.replace(check, policies="greedy", player="greedy")
    monkeypatch.setattr(checks_module, "CHECKS", tuple(check if c.key == check.key else c for c in _all_checks()))
    res = run_check(check, seed=3, reconstructions=3, games=150)
    assert set(res) == set(check.family)
    again = run_check(check, seed=3, reconstructions=3, games=150)
    pd.testing.assert_frame_equal(res["tile_pay_excess:12"].table, again["tile_pay_excess:12"].table)
    findings = fairness_findings(tile_pay(meerkat_games(1000, players=3, automa=False, rng=2)), 1000)
    exp = ExperimentResult("meerkat_tile_fairness", "Tile value fairness", "A reading.", pd.DataFrame({"a": [1]}),
                           None, findings=findings)
    assert assess_sections([Section("Meerkat Kingdom", [exp])], {check.key: res}) == ["meerkat_tile_fairness"]
    for f in exp.findings:
        assert f.robustness and "sampled tile sets (150 games each, 3 players)" in f.robustness
        tile = f.quantity.split("tile ")[1].split()[0]
        t = res[f"tile_pay_excess:{tile}"].table
        held = int(((t["ci_low"] > 0) if f.effect > 0 else (t["ci_high"] < 0))[1:].sum())
        assert f"holds on {held} of 3" in f.robustness
    path = write_pdf(tmp_path / "r.pdf", [Section("Meerkat Kingdom", [exp])], meta={"seed": 0})
    text = " ".join((PdfReader(str(path)).pages[1].extract_text() or "").split())
    assert "holds on" in text   # the verdict; what was sampled is said on the finding's page (issue 44's pages)
